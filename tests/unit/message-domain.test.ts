import { describe, expect, it } from "vitest";
import { isForwardStatus } from "@/lib/messages/apply-status";
import { previewOf, sendMessageInput } from "@/lib/messages/schemas";
import { decryptSecret, encryptSecret } from "@/lib/platform/crypto/seal";

describe("message status transitions", () => {
  it.each([
    ["queued", "sent", true],
    ["sent", "delivered", true],
    ["delivered", "read", true],
    ["sent", "read", true],
    ["queued", "failed", true],
    ["sent", "failed", true],
    ["read", "delivered", false],
    ["delivered", "sent", false],
    ["read", "read", false],
    ["delivered", "failed", false],
    ["failed", "delivered", false],
    ["received", "read", false],
  ] as const)("%s → %s allowed: %s", (from, to, allowed) => {
    expect(isForwardStatus(from, to)).toBe(allowed);
  });
});

describe("secrets at rest", () => {
  it("round-trips, and refuses another row, another field or altered bytes", () => {
    const stored = encryptSecret({ plaintext: "EAAG-token", accountId: "acc_1", field: "access_token" });
    expect(stored).not.toContain("EAAG-token");
    expect(decryptSecret({ stored, accountId: "acc_1", field: "access_token" })).toBe("EAAG-token");
    expect(decryptSecret({ stored, accountId: "acc_2", field: "access_token" })).toBeNull();
    expect(decryptSecret({ stored, accountId: "acc_1", field: "app_secret" })).toBeNull();
    // Flip one bit of a decoded byte in each part (editing base64 characters can land on padding bits).
    const parts = stored.split(".");
    for (const index of [1, 2, 3]) {
      const bytes = Buffer.from(parts[index]!, "base64url");
      bytes[0] = bytes[0]! ^ 0x01;
      const altered = parts.map((part, i) => (i === index ? bytes.toString("base64url") : part)).join(".");
      expect(altered).not.toBe(stored);
      expect(decryptSecret({ stored: altered, accountId: "acc_1", field: "access_token" })).toBeNull();
    }
    expect(encryptSecret({ plaintext: "EAAG-token", accountId: "acc_1", field: "access_token" })).not.toBe(stored);
  });
});

describe("POST /v1/messages body", () => {
  it("decodes valid media and normalises its type", () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const parsed = sendMessageInput.parse({ to: "14155552671", type: "image", media: { mime_type: "Image/PNG", data: png.toString("base64") } });
    expect(parsed.media?.mimeType).toBe("image/png");
    expect(parsed.media?.bytes.equals(png)).toBe(true);
  });

  it("counts text length in characters, not UTF-16 units", () => {
    expect(sendMessageInput.safeParse({ to: "14155552671", type: "text", text: "🌱".repeat(4096) }).success).toBe(true);
    expect(sendMessageInput.safeParse({ to: "14155552671", type: "text", text: "🌱".repeat(4097) }).success).toBe(false);
  });
});

describe("conversation preview", () => {
  it("shows text, or the media kind with its caption, shortened", () => {
    expect(previewOf({ type: "text", text: "  Hello\n there " })).toBe("Hello there");
    expect(previewOf({ type: "image", caption: "Front door" })).toBe("Photo: Front door");
    expect(previewOf({ type: "audio" })).toBe("Audio");
    expect(Array.from(previewOf({ type: "text", text: "x".repeat(500) }))).toHaveLength(120);
  });
});
