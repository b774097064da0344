import { describe, expect, it } from "vitest";
import * as version from "@/app/api/version/route";
import packageJson from "@/package.json";
import { call } from "@/tests/support/api";

// GET /api/version: which release a server runs, asked without a token (the API reference's
// `info.version` says the same), and the baseline the api-overhead benchmark measures /v1 against.
describe("GET /api/version", () => {
  it("names the running release without a token", async () => {
    const res = await call(version.GET as never, { path: "/api/version" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: packageJson.version });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("serves reading only", async () => {
    const res = await call(version.POST as never, { method: "POST", path: "/api/version" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
});
