import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/platform/env";
import { inQuietHours } from "@/lib/push/preferences";
import { notificationPreferencesInput } from "@/lib/push/schemas";

const base = { AUTH_SECRET: "unit-secret-for-chorus-tests-0123456789" };
const PUBLIC = `B${"A".repeat(86)}`;
const PRIVATE = "A".repeat(43);

describe("VAPID keys from the environment", () => {
  it("takes both keys or neither, and a mailto: or https: subject", () => {
    expect(parseEnv({ ...base, VAPID_PUBLIC_KEY: PUBLIC, VAPID_PRIVATE_KEY: PRIVATE, VAPID_SUBJECT: "mailto:ops@example.com" })).toMatchObject({ VAPID_PUBLIC_KEY: PUBLIC });
    expect(() => parseEnv({ ...base, VAPID_PUBLIC_KEY: PUBLIC })).toThrow(/VAPID_PRIVATE_KEY: set both VAPID keys or neither/);
    expect(() => parseEnv({ ...base, VAPID_PRIVATE_KEY: PRIVATE })).toThrow(/VAPID_PUBLIC_KEY/);
    expect(() => parseEnv({ ...base, VAPID_PUBLIC_KEY: "short", VAPID_PRIVATE_KEY: PRIVATE })).toThrow(/VAPID_PUBLIC_KEY: must be a base64url P-256 public key/);
    expect(() => parseEnv({ ...base, VAPID_SUBJECT: "ops@example.com" })).toThrow(/VAPID_SUBJECT: must be a mailto: or https: URL/);
    expect(parseEnv({ ...base, VAPID_PUBLIC_KEY: "", VAPID_PRIVATE_KEY: "" }).VAPID_PUBLIC_KEY).toBeUndefined();
  });
});

describe("quiet hours", () => {
  const at = (iso: string) => new Date(iso);
  it("cover start to end in the user's zone, across midnight, start included and end excluded", () => {
    const night = { quiet_start: "22:00", quiet_end: "08:00", time_zone: "Europe/Madrid" };
    // 21:00 UTC is 22:00 in Madrid in winter (UTC+1).
    expect(inQuietHours(night, at("2026-01-15T21:00:00Z"))).toBe(true);
    expect(inQuietHours(night, at("2026-01-15T20:59:00Z"))).toBe(false);
    expect(inQuietHours(night, at("2026-01-16T03:00:00Z"))).toBe(true);
    expect(inQuietHours(night, at("2026-01-16T07:00:00Z"))).toBe(false);
    const lunch = { quiet_start: "13:00", quiet_end: "14:00", time_zone: "America/Sao_Paulo" };
    expect(inQuietHours(lunch, at("2026-01-15T16:30:00Z"))).toBe(true);
    expect(inQuietHours(lunch, at("2026-01-15T17:00:00Z"))).toBe(false);
    expect(inQuietHours({ quiet_start: null, quiet_end: null, time_zone: "UTC" }, at("2026-01-15T03:00:00Z"))).toBe(false);
    expect(inQuietHours({ quiet_start: "09:00", quiet_end: "09:00", time_zone: "UTC" }, at("2026-01-15T09:00:00Z"))).toBe(false);
  });

  it("are both ends or neither, as HH:MM, in a real time zone", () => {
    const valid = { new_messages: true, mentions: true, assignments: true, sla_warnings: true, quiet_start: "22:00", quiet_end: "07:30", time_zone: "Europe/Lisbon" };
    expect(notificationPreferencesInput.safeParse(valid).success).toBe(true);
    expect(notificationPreferencesInput.safeParse({ ...valid, quiet_end: null }).success).toBe(false);
    expect(notificationPreferencesInput.safeParse({ ...valid, quiet_start: "24:00" }).success).toBe(false);
    expect(notificationPreferencesInput.safeParse({ ...valid, time_zone: "Mars/Olympus" }).success).toBe(false);
    expect(notificationPreferencesInput.safeParse({ ...valid, extra: 1 }).success).toBe(false);
  });
});

describe("VAPID keys without VAPID_* variables", () => {
  it("with a server database, are derived from AUTH_SECRET: the same on every instance, a valid pair, never a file", async () => {
    const { createECDH } = await import("node:crypto");
    const { setEnv } = await import("@/tests/support/env-vars");
    const { getVapidKeys } = await import("@/lib/push/vapid");
    const restore = setEnv({ DATABASE_URL: "postgres://chorus@db.example/chorus", AUTH_SECRET: "shared-secret-of-every-instance-0123456789", VAPID_PUBLIC_KEY: undefined, VAPID_PRIVATE_KEY: undefined });
    try {
      const first = getVapidKeys();
      restore();
      const again = setEnv({ DATABASE_URL: "postgres://chorus@db.example/chorus", AUTH_SECRET: "shared-secret-of-every-instance-0123456789" });
      const second = getVapidKeys();
      again();
      expect(second).toEqual(first);
      const ecdh = createECDH("prime256v1");
      ecdh.setPrivateKey(Buffer.from(first.privateKey, "base64url"));
      expect(ecdh.getPublicKey().toString("base64url")).toBe(first.publicKey);
      const other = setEnv({ DATABASE_URL: "postgres://chorus@db.example/chorus", AUTH_SECRET: "another-deployment-secret-0123456789abcdef" });
      expect(getVapidKeys().publicKey).not.toBe(first.publicKey);
      other();
    } finally {
      restore();
    }
  });
});
