import { describe, expect, it } from "vitest";
import * as numberConfig from "@/app/v1/config/number/route";
import { INBOX_BENCH_NUMBER, INBOX_BENCH_SERVER_ENV } from "@/bench/inbox-latency";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { createTestAccount } from "@/tests/support/fixtures";

// `npm run bench` configures a number on its own server; the URL policy must accept it there
// (it once refused the bench's loopback Graph API and every run stopped at that step).
describe("the inbox benchmark's setup", () => {
  it("is accepted by the server the benchmark starts", async () => {
    const restore = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: INBOX_BENCH_SERVER_ENV.WEBHOOK_ALLOW_INSECURE_TARGETS });
    try {
      const { adminToken } = await createTestAccount();
      const res = await call(numberConfig.PUT, { method: "PUT", path: "/v1/config/number", token: adminToken, body: INBOX_BENCH_NUMBER });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ provider: "cloud", api_base_url: INBOX_BENCH_NUMBER.api_base_url });
    } finally {
      restore();
    }
  });
});
