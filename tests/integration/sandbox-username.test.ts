import { beforeEach, describe, expect, it } from "vitest";
import { systemContext } from "@/lib/server/context";
import * as inboundRoute from "@/app/api/sandbox/inbound/route";
import * as listRoute from "@/app/v1/conversations/route";
import * as messagesRoute from "@/app/v1/messages/route";
import { drainJobs } from "@/lib/jobs/runner";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { jobRegistry } from "@/lib/server/job-registry";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";

const simulate = (token: string, body: unknown) => call(inboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token, body });

beforeEach(() => resetRateLimiters());

describe("the sandbox simulates a customer known only by a username", () => {
  it("opens and continues one conversation for the username, and replies go to its business-scoped user id", async () => {
    const { adminToken } = await createTestAccount();
    const first = await simulate(adminToken, { username: "@maria.lopez", name: "María", type: "text", text: "Hola" });
    expect(first.status).toBe(201);
    expect(first.body.from).toMatch(/^US\.[0-9a-f]{24}$/);
    const second = await simulate(adminToken, { username: "@maria.lopez", type: "text", text: "¿Siguen abiertos?" });
    expect(second.body.conversation_id).toBe(first.body.conversation_id);

    const list = await call(listRoute.GET, { path: "/v1/conversations", token: adminToken });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].contact).toMatchObject({ phone: null, network_user_id: first.body.from, username: "@maria.lopez", name: "María" });

    const reply = await call(messagesRoute.POST, {
      method: "POST",
      path: "/v1/messages",
      token: adminToken,
      body: { conversation_id: first.body.conversation_id, type: "text", text: "¡Sí!" },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.to).toBe(first.body.from);
    await drainJobs(systemContext(), jobRegistry);
  });

  it("still needs someone to be from: neither number nor username is a 400 naming from", async () => {
    const { adminToken } = await createTestAccount();
    const res = await simulate(adminToken, { type: "text", text: "Hola" });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain("from");
  });
});
