import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as auditRoute from "@/app/v1/audit-log/route";
import * as invitationById from "@/app/v1/invitations/[id]/route";
import * as resendRoute from "@/app/v1/invitations/[id]/resend/route";
import * as invitationsRoute from "@/app/v1/invitations/route";
import { getDb } from "@/db";
import { invitations, users } from "@/db/schema";
import { acceptInvitation, describeInvitation } from "@/lib/users/invitations";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { systemContext } from "@/lib/server/context";

const tokenOf = (url: string) => url.split("/").at(-1)!;
const invite = (token: string, email: string, role = "agent") => call(invitationsRoute.POST, { method: "POST", path: "/v1/invitations", token, body: { email, role } });
const shape = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v]));

describe("an invitation never tells whether an email has an account elsewhere", () => {
  it("answers an email used in another account exactly like a new one; the invited person learns it on opening the link", async () => {
    const { adminToken } = await createTestAccount();
    const elsewhere = await createTestAccount();
    const fresh = await invite(adminToken, `fresh-${Date.now()}@example.com`);
    const taken = await invite(adminToken, elsewhere.admin.email.toUpperCase());
    expect(taken.status, taken.text).toBe(201);
    expect(taken.status).toBe(fresh.status);
    expect(shape(taken.body)).toEqual(shape(fresh.body));
    expect(taken.headers.get("cache-control")).toBe(fresh.headers.get("cache-control"));

    const token = tokenOf(taken.body.url);
    await expect(describeInvitation(systemContext(), { token })).rejects.toMatchObject({ status: 409, code: "email_in_use", message: expect.stringMatching(/already has a Chorus sign-in/) });
    await expect(acceptInvitation(systemContext(), { token, input: { name: "Twin", password: "a long enough password" } })).rejects.toMatchObject({ code: "email_in_use" });
    const [owner] = await getDb().select().from(users).where(eq(users.id, elsewhere.admin.id));
    expect(owner.accountId).toBe(elsewhere.account.id);
  });

  it("an email of a teammate in the same account is still named (the administrator sees the team anyway)", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const res = await invite(adminToken, agent.user.email);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("email");
  });
});

describe("pending invitations: list, resend, revoke", () => {
  it("an administrator lists pending and expired invitations, resends one with a new link and revokes another", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const other = await createTestAccount();
    const first = await invite(adminToken, `first-${Date.now()}@example.com`);
    const second = await invite(adminToken, `second-${Date.now()}@example.com`, "admin");
    const accepted = await invite(adminToken, `joined-${Date.now()}@example.com`);
    await acceptInvitation(systemContext(), { token: tokenOf(accepted.body.url), input: { name: "Joined", password: "a long enough password" } });
    await getDb().update(invitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invitations.id, first.body.id));

    const list = await call(invitationsRoute.GET, { path: "/v1/invitations", token: adminToken });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: second.body.id, email: second.body.email, role: "admin", status: "pending", invited_by: { id: admin.id, name: admin.name } }),
      expect.objectContaining({ id: first.body.id, status: "expired" }),
    ]);
    expect(list.text).not.toContain("chorus_invite_");
    expect((await call(invitationsRoute.GET, { path: "/v1/invitations", token: agent.token })).status).toBe(403);

    // Resend: a new link for 7 days; the old one stops working.
    const resent = await call(resendRoute.POST, { method: "POST", path: `/v1/invitations/${first.body.id}/resend`, token: adminToken, params: { id: first.body.id } });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body).toMatchObject({ id: first.body.id, email: first.body.email, url: expect.stringMatching(/\/invite\/chorus_invite_/), email_sent: false });
    expect(resent.headers.get("cache-control")).toBe("no-store");
    expect(resent.body.url).not.toBe(first.body.url);
    await expect(describeInvitation(systemContext(), { token: tokenOf(first.body.url) })).rejects.toMatchObject({ status: 404 });
    expect(await describeInvitation(systemContext(), { token: tokenOf(resent.body.url) })).toMatchObject({ email: first.body.email });
    expect((await call(invitationsRoute.GET, { path: "/v1/invitations", token: adminToken })).body.data[1]).toMatchObject({ id: first.body.id, status: "pending" });

    // Revoke: the link stops working; it leaves the list.
    expect((await call(invitationById.DELETE, { method: "DELETE", path: `/v1/invitations/${second.body.id}`, token: agent.token, params: { id: second.body.id } })).status).toBe(403);
    expect((await call(invitationById.DELETE, { method: "DELETE", path: `/v1/invitations/${second.body.id}`, token: other.adminToken, params: { id: second.body.id } })).status).toBe(404);
    expect((await call(invitationById.DELETE, { method: "DELETE", path: `/v1/invitations/${second.body.id}`, token: adminToken, params: { id: second.body.id } })).status).toBe(204);
    await expect(describeInvitation(systemContext(), { token: tokenOf(second.body.url) })).rejects.toMatchObject({ status: 404 });
    expect((await call(invitationById.DELETE, { method: "DELETE", path: `/v1/invitations/${second.body.id}`, token: adminToken, params: { id: second.body.id } })).status).toBe(404);
    expect((await call(resendRoute.POST, { method: "POST", path: `/v1/invitations/${accepted.body.id}/resend`, token: adminToken, params: { id: accepted.body.id } })).status).toBe(404);
    expect((await call(invitationsRoute.GET, { path: "/v1/invitations", token: adminToken })).body.data.map((i: { id: string }) => i.id)).toEqual([first.body.id]);

    const log = await call(auditRoute.GET, { path: "/v1/audit-log?limit=50", token: adminToken });
    expect(log.body.data.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(["user.invitation_resent", "user.invitation_revoked"]));
  });
});
