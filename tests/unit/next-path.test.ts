import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/lib/auth/next-path";

// Where the sign-in page sends the person afterwards, for the return addresses a link carries.

describe("next after signing in", () => {
  it("keeps a path of this app with any escape in its query or fragment", () => {
    for (const next of [
      "/inbox?q=100%25%20off",
      "/oauth/authorize?client_id=app_1&response_type=code&redirect_uri=https%3A%2F%2Fcrm.example.com%2Fcb&scope=users%3Aread&state=a%5Cb&code_challenge=abc&code_challenge_method=S256",
      "/inbox?note=line%0Abreak",
      "/contacts?q=%2F%2Fevil.example",
      "/settings/account#tokens%5C",
      "/inbox/conv_1",
      "/settings/account",
    ]) {
      expect(safeNextPath(next), next).toBe(next);
    }
  });

  it("sends every address a browser would read as another site to the inbox", () => {
    for (const next of [
      "/\\evil.example",
      "/%5Cevil.example",
      "/%255Cevil.example",
      "/%09/evil.example",
      "/%2F%2Fevil.example",
      "/%252F/evil.example",
      "//evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/.//evil.example",
      "/a/..//evil.example",
      "/%2E//evil.example",
      "javascript:alert(1)",
      "https://evil.example/inbox",
      "evil.example",
      "",
      "/%E0%A4%A",
      "/inbox?q=\n",
      `/${"a".repeat(3000)}`,
    ]) {
      expect(safeNextPath(next), JSON.stringify(next)).toBe("/inbox");
    }
  });
});
