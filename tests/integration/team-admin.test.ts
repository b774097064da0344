import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/request-hook";
import { and, eq } from "drizzle-orm";
import { TOTP, Secret } from "otpauth";
import { describe, expect, it } from "vitest";
import * as auditRoute from "@/app/v1/audit-log/route";
import * as loginRoute from "@/app/v1/auth/login/route";
import * as passwordRoute from "@/app/v1/auth/password/route";
import * as tokensRoute from "@/app/v1/auth/tokens/route";
import * as verifyRoute from "@/app/v1/auth/verify/route";
import * as invitationsRoute from "@/app/v1/invitations/route";
import * as resetRoute from "@/app/v1/users/[id]/password-reset/route";
import * as userById from "@/app/v1/users/[id]/route";
import * as profileRoute from "@/app/v1/config/business-profile/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as webhookById from "@/app/v1/webhooks/[id]/route";
import * as webhooksRoute from "@/app/v1/webhooks/route";
import { getDb } from "@/db";
import { auditLog, invitations, passwordResets, userMfa, users } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { confirmMfaEnrolment, disableMfa, setMfaRequirement, startMfaEnrolment } from "@/lib/auth/mfa";
import { createSession } from "@/lib/auth/sessions";
import { acceptInvitation, describeInvitation } from "@/lib/users/invitations";
import { describePasswordReset, resetPassword } from "@/lib/users/passwords";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { startReceiver } from "@/tests/support/webhook-receiver";
import { addTestUser, createTestAccount, TEST_PASSWORD } from "@/tests/support/fixtures";
import { systemContext } from "@/lib/server/context";

const NEW_PASSWORD = "a brand new passphrase";
const tokenOf = (url: string) => url.split("/").at(-1)!;
const ctxOf = (user: { id: string; name: string; email: string; accountId: string }) => ({ accountId: user.accountId, user: { id: user.id, name: user.name, email: user.email }, ...systemContext() });
const login = (body: Record<string, string>, ip = "203.0.113.9") =>
  call(loginRoute.POST, { method: "POST", path: "/v1/auth/login", body, headers: { [PEER_ADDRESS_HEADER]: ip, "user-agent": "team-admin-test" } });
const audit = async (accountId: string) => (await getDb().select().from(auditLog).where(eq(auditLog.accountId, accountId)).orderBy(auditLog.id)).map((r) => r.action);

/** The code an authenticator app shows now for the enrolled secret, for a given 30 s step offset. */
const codeAt = (secret: string, email: string, offsetSteps = 0) =>
  new TOTP({ issuer: "Chorus", label: email, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

describe("invitations", () => {
  it("an admin invites; the link sets name and password once; the user signs in", async () => {
    const { account, adminToken } = await createTestAccount();
    const email = `sam-${Date.now()}@Example.com`;
    const res = await call(invitationsRoute.POST, { method: "POST", path: "/v1/invitations", token: adminToken, body: { email, role: "agent" } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^inv_/), email: email.toLowerCase(), role: "agent", url: expect.stringMatching(/\/invite\/chorus_invite_/), email_sent: false });
    expect(res.headers.get("cache-control")).toBe("no-store");
    const days = (new Date(res.body.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const [stored] = await getDb().select().from(invitations).where(eq(invitations.id, res.body.id));
    expect(stored.tokenHash).not.toContain(tokenOf(res.body.url));

    const token = tokenOf(res.body.url);
    expect(await describeInvitation(systemContext(), { token })).toMatchObject({ email: email.toLowerCase(), role: "agent" });
    const user = await acceptInvitation(systemContext(), { token, input: { name: "Sam", password: NEW_PASSWORD } });
    expect(user).toMatchObject({ name: "Sam", role: "agent" });
    const [created] = await getDb().select().from(users).where(eq(users.email, email.toLowerCase()));
    expect(created).toMatchObject({ name: "Sam", role: "agent", accountId: account.id });
    await expect(acceptInvitation(systemContext(), { token, input: { name: "Again", password: NEW_PASSWORD } })).rejects.toMatchObject({ status: 410, code: "invitation_used" });
    expect((await login({ email, password: NEW_PASSWORD })).status).toBe(200);
    expect(await audit(account.id)).toEqual(expect.arrayContaining(["user.invited", "user.created", "auth.sign_in"]));
  });

  it("an expired invitation is a 410 naming it and creates nobody", async () => {
    const { adminToken } = await createTestAccount();
    const email = `late-${Date.now()}@example.com`;
    const res = await call(invitationsRoute.POST, { method: "POST", path: "/v1/invitations", token: adminToken, body: { email, role: "admin" } });
    await getDb().update(invitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invitations.id, res.body.id));
    await expect(describeInvitation(systemContext(), { token: tokenOf(res.body.url) })).rejects.toMatchObject({ status: 410, code: "invitation_expired" });
    await expect(acceptInvitation(systemContext(), { token: tokenOf(res.body.url), input: { name: "Late", password: NEW_PASSWORD } })).rejects.toMatchObject({ code: "invitation_expired" });
    expect(await getDb().select().from(users).where(eq(users.email, email))).toEqual([]);
    await expect(describeInvitation(systemContext(), { token: "chorus_invite_forged" })).rejects.toMatchObject({ status: 404 });
  });

  it("refuses a used email, a bad role, and agents", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const taken = await call(invitationsRoute.POST, { method: "POST", path: "/v1/invitations", token: adminToken, body: { email: admin.email, role: "agent" } });
    expect(taken.status).toBe(400);
    expect(taken.body.error.details[0].path).toBe("email");
    const role = await call(invitationsRoute.POST, { method: "POST", path: "/v1/invitations", token: adminToken, body: { email: "x@example.com", role: "owner" } });
    expect(role.body.error.details[0].path).toBe("role");
    expect((await call(invitationsRoute.POST, { method: "POST", path: "/v1/invitations", token: agent.token, body: { email: "y@example.com", role: "agent" } })).status).toBe(403);
    expect(await getDb().select().from(invitations).where(eq(invitations.accountId, account.id))).toEqual([]);
  });
});

describe("passwords", () => {
  it("a user changes their password with a session; other sessions end, this one stays", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const other = await createSession(systemContext().db, { user: admin });
    const wrong = await call(passwordRoute.POST, { method: "POST", path: "/v1/auth/password", token: adminToken, body: { current_password: "not it at all", new_password: NEW_PASSWORD } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details[0].path).toBe("current_password");
    const weak = await call(passwordRoute.POST, { method: "POST", path: "/v1/auth/password", token: adminToken, body: { current_password: TEST_PASSWORD, new_password: "short" } });
    expect(weak.body.error.details[0].path).toBe("new_password");
    const ok = await call(passwordRoute.POST, { method: "POST", path: "/v1/auth/password", token: adminToken, body: { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD } });
    expect(ok.status).toBe(204);
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: adminToken })).status).toBe(200);
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: other.token })).status).toBe(401);
    expect((await login({ email: admin.email, password: NEW_PASSWORD })).status).toBe(200);
    expect(await audit(account.id)).toContain("auth.password_changed");
  });

  it("an API token cannot change the password", async () => {
    const { adminToken } = await createTestAccount();
    const created = await call(tokensRoute.POST, { method: "POST", path: "/v1/auth/tokens", token: adminToken, body: { name: "ci", permissions: ["users:read"], expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString() } });
    const res = await call(passwordRoute.POST, { method: "POST", path: "/v1/auth/password", token: created.body.token, body: { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD } });
    expect(res.status).toBe(403);
  });

  it("an admin issues a 1 h one-time reset link; using it ends every session of the user", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const res = await call(resetRoute.POST, { method: "POST", path: `/v1/users/${agent.user.id}/password-reset`, token: adminToken, params: { id: agent.user.id } });
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/\/reset-password\/chorus_reset_/);
    const minutes = (new Date(res.body.expires_at).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);
    expect((await call(resetRoute.POST, { method: "POST", path: `/v1/users/${agent.user.id}/password-reset`, token: agent.token, params: { id: agent.user.id } })).status).toBe(403);
    const other = await createTestAccount();
    expect((await call(resetRoute.POST, { method: "POST", path: `/v1/users/${agent.user.id}/password-reset`, token: other.adminToken, params: { id: agent.user.id } })).status).toBe(404);

    const token = tokenOf(res.body.url);
    expect(await describePasswordReset(systemContext(), { token })).toMatchObject({ email: agent.user.email });
    await resetPassword(systemContext(), { token, password: NEW_PASSWORD });
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: agent.token })).status).toBe(401);
    expect((await login({ email: agent.user.email, password: NEW_PASSWORD })).status).toBe(200);
    await expect(resetPassword(systemContext(), { token, password: "another long password" })).rejects.toMatchObject({ status: 410, code: "link_used" });
    expect(await audit(account.id)).toEqual(expect.arrayContaining(["auth.password_reset_issued", "auth.password_reset"]));
  });

  it("an expired or replaced reset link does nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const issue = () => call(resetRoute.POST, { method: "POST", path: `/v1/users/${agent.user.id}/password-reset`, token: adminToken, params: { id: agent.user.id } });
    const first = await issue();
    const second = await issue();
    await expect(resetPassword(systemContext(), { token: tokenOf(first.body.url), password: NEW_PASSWORD })).rejects.toMatchObject({ code: "link_used" });
    await getDb().update(passwordResets).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(passwordResets.userId, agent.user.id));
    await expect(resetPassword(systemContext(), { token: tokenOf(second.body.url), password: NEW_PASSWORD })).rejects.toMatchObject({ status: 410, code: "link_expired" });
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: agent.token })).status).toBe(200);
  });
});

describe("two-factor sign-in (TOTP)", () => {
  async function enrolled() {
    const { account, admin, adminToken } = await createTestAccount();
    const ctx = ctxOf(admin);
    const { secret, uri } = await startMfaEnrolment({ ctx });
    expect(uri).toMatch(/^otpauth:\/\/totp\/Chorus:.+\?.*secret=/);
    await expect(confirmMfaEnrolment({ ctx, code: "000000" === codeAt(secret, admin.email) ? "111111" : "000000" })).rejects.toMatchObject({ status: 400 });
    const { recoveryCodes } = await confirmMfaEnrolment({ ctx, code: codeAt(secret, admin.email) });
    const [row] = await getDb().select().from(userMfa).where(eq(userMfa.userId, admin.id));
    expect(row.secretEnc).not.toContain(secret);
    return { account, admin, adminToken, secret, recoveryCodes, ctx };
  }

  it("sign-in answers 401 mfa_required until the otp is given, then signs in", async () => {
    resetRateLimiters();
    const { account, admin, secret, recoveryCodes } = await enrolled();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const noCode = await login({ email: admin.email, password: TEST_PASSWORD });
    expect(noCode.status).toBe(401);
    expect(noCode.body.error.code).toBe("mfa_required");
    expect(noCode.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(noCode.body).not.toHaveProperty("token");
    // The enrolment used the current code: the next step's code signs in, once.
    const code = codeAt(secret, admin.email, 1);
    const ok = await login({ email: admin.email, password: TEST_PASSWORD, otp: code });
    expect(ok.status, ok.text).toBe(200);
    const replay = await login({ email: admin.email, password: TEST_PASSWORD, otp: code });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toMatchObject({ code: "invalid_otp", details: [{ path: "otp" }] });
    expect(await audit(account.id)).toEqual(expect.arrayContaining(["mfa.enabled", "auth.sign_in", "auth.sign_in_failed"]));
  });

  it("a wrong code is refused; a wrong password with a right code still says wrong password", async () => {
    resetRateLimiters();
    const { admin, secret } = await enrolled();
    const wrong = await login({ email: admin.email, password: TEST_PASSWORD, otp: "12345x" }, "203.0.113.10");
    expect(wrong.body.error.code).toBe("invalid_otp");
    const badPassword = await login({ email: admin.email, password: "not my password", otp: codeAt(secret, admin.email, 1) }, "203.0.113.10");
    expect(badPassword.body.error.code).toBe("unauthenticated");
  });

  it("a recovery code signs in once", async () => {
    resetRateLimiters();
    const { account, admin, recoveryCodes } = await enrolled();
    const ok = await login({ email: admin.email, password: TEST_PASSWORD, otp: recoveryCodes[3].toUpperCase() }, "203.0.113.11");
    expect(ok.status).toBe(200);
    const again = await login({ email: admin.email, password: TEST_PASSWORD, otp: recoveryCodes[3] }, "203.0.113.11");
    expect(again.body.error.code).toBe("invalid_otp");
    expect(await audit(account.id)).toContain("mfa.recovery_code_used");
  });

  it("turning it off needs a valid code; an admin can turn it off for a user", async () => {
    const { admin, secret, ctx } = await enrolled();
    await expect(disableMfa({ ctx, userId: admin.id, code: "000000" === codeAt(secret, admin.email, 1) ? "111111" : "000000" })).rejects.toMatchObject({ status: 400 });
    await disableMfa({ ctx, userId: admin.id, code: codeAt(secret, admin.email, 1) });
    resetRateLimiters();
    expect((await login({ email: admin.email, password: TEST_PASSWORD }, "203.0.113.12")).status).toBe(200);

    // A teammate who lost their phone: an administrator turns it off without a code.
    const mate = await addTestUser(admin.accountId, "agent");
    const mateCtx = ctxOf(mate.user);
    const enrolment = await startMfaEnrolment({ ctx: mateCtx });
    await confirmMfaEnrolment({ ctx: mateCtx, code: codeAt(enrolment.secret, mate.user.email) });
    expect((await login({ email: mate.user.email, password: TEST_PASSWORD }, "203.0.113.12")).body.error.code).toBe("mfa_required");
    await disableMfa({ ctx, userId: mate.user.id, byAdmin: true });
    expect((await login({ email: mate.user.email, password: TEST_PASSWORD }, "203.0.113.12")).status).toBe(200);
    expect(await audit(admin.accountId)).toContain("mfa.disabled");
  });

  it("the account-wide requirement makes API sign-in without 2FA a 403 until the user enrols", async () => {
    resetRateLimiters();
    const { account, admin } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    await setMfaRequirement({ ctx: ctxOf(admin), required: true });
    const res = await login({ email: agent.user.email, password: TEST_PASSWORD }, "203.0.113.13");
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("mfa_enrollment_required");
    const { secret } = await startMfaEnrolment({ ctx: ctxOf(agent.user) });
    await confirmMfaEnrolment({ ctx: ctxOf(agent.user), code: codeAt(secret, agent.user.email) });
    await expect(disableMfa({ ctx: ctxOf(agent.user), userId: agent.user.id, code: codeAt(secret, agent.user.email, 1) })).rejects.toMatchObject({ status: 409 });
    expect((await login({ email: agent.user.email, password: TEST_PASSWORD, otp: codeAt(secret, agent.user.email, 1) }, "203.0.113.13")).status).toBe(200);
    expect(await audit(account.id)).toContain("mfa.requirement_changed");
  });
});

describe("audit log", () => {
  it("records who did what, filters by actor, action and time, pages, and only admins read it", async () => {
    resetRateLimiters();
    const { account, admin, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    await login({ email: admin.email, password: "wrong password!!" }, "198.51.100.7");
    await login({ email: admin.email, password: TEST_PASSWORD }, "198.51.100.7");
    await call(userById.PATCH, { method: "PATCH", path: `/v1/users/${agent.user.id}`, token: adminToken, body: { role: "admin" }, params: { id: agent.user.id } });
    await call(userById.DELETE, { method: "DELETE", path: `/v1/users/${agent.user.id}`, token: adminToken, params: { id: agent.user.id } });
    const token = await call(tokensRoute.POST, { method: "POST", path: "/v1/auth/tokens", token: adminToken, body: { name: "ci", permissions: ["audit:read"], expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString() } });
    expect(token.status).toBe(201);

    const all = await call(auditRoute.GET, { path: "/v1/audit-log", token: adminToken });
    expect(all.status).toBe(200);
    const actions = all.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(["token.created", "user.deleted", "user.role_changed", "auth.sign_in", "auth.sign_in_failed"]);
    const failed = all.body.data.find((e: { action: string }) => e.action === "auth.sign_in_failed");
    expect(failed).toMatchObject({ actor: { type: "anonymous", id: null, name: admin.email }, target: { type: "user", id: admin.id }, ip: "198.51.100.7", user_agent: "team-admin-test" });
    expect(all.body.data[1]).toMatchObject({ actor: { type: "user", id: admin.id, name: admin.name }, target: { type: "user", id: agent.user.id } });

    const byAction = await call(auditRoute.GET, { path: "/v1/audit-log?action=user.deleted", token: token.body.token });
    expect(byAction.body.data.map((e: { action: string }) => e.action)).toEqual(["user.deleted"]);
    const byActor = await call(auditRoute.GET, { path: `/v1/audit-log?actor=${admin.id}`, token: adminToken });
    expect(byActor.body.data).toHaveLength(4);
    const future = await call(auditRoute.GET, { path: `/v1/audit-log?from=${new Date(Date.now() + 60_000).toISOString()}`, token: adminToken });
    expect(future.body.data).toEqual([]);
    const past = await call(auditRoute.GET, { path: "/v1/audit-log?to=2020-01-01T00:00:00Z", token: adminToken });
    expect(past.body.data).toEqual([]);
    const first = await call(auditRoute.GET, { path: "/v1/audit-log?limit=2", token: adminToken });
    const second = await call(auditRoute.GET, { path: `/v1/audit-log?limit=2&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`, token: adminToken });
    expect([...first.body.data, ...second.body.data].map((e: { id: string }) => e.id)).toEqual(all.body.data.slice(0, 4).map((e: { id: string }) => e.id));

    expect((await call(auditRoute.GET, { path: "/v1/audit-log?action=everything", token: adminToken })).body.error.details[0].path).toBe("action");
    expect((await call(auditRoute.GET, { path: "/v1/audit-log?from=yesterday", token: adminToken })).body.error.details[0].path).toBe("from");
    const agentToo = await addTestUser(account.id, "agent");
    expect((await call(auditRoute.GET, { path: "/v1/audit-log", token: agentToo.token })).status).toBe(403);
    // Append-only: no method changes it.
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      expect((await call(auditRoute[method], { method, path: "/v1/audit-log", token: adminToken })).status).toBe(405);
    }
  });

  it("records webhook, profile and token changes, and nothing for a refused request", async () => {
    const restore = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
    const receiver = await startReceiver();
    try {
      const { account, adminToken } = await createTestAccount();
      const bad = await call(webhooksRoute.POST, { method: "POST", path: "/v1/webhooks", token: adminToken, body: { url: "ftp://x", events: ["*"] } });
      expect(bad.status).toBe(400);
      expect(await audit(account.id)).toEqual([]);
      const hook = await call(webhooksRoute.POST, { method: "POST", path: "/v1/webhooks", token: adminToken, body: { url: receiver.url, events: ["*"] } });
      expect(hook.status, hook.text).toBe(201);
      await call(webhookById.PATCH, { method: "PATCH", path: `/v1/webhooks/${hook.body.id}`, token: adminToken, body: { events: ["plant.created"] }, params: { id: hook.body.id } });
      await call(webhookById.DELETE, { method: "DELETE", path: `/v1/webhooks/${hook.body.id}`, token: adminToken, params: { id: hook.body.id } });
      const profile = await call(profileRoute.GET, { path: "/v1/config/business-profile", token: adminToken });
      await call(profileRoute.PUT, { method: "PUT", path: "/v1/config/business-profile", token: adminToken, body: { ...profile.body, name: "Renamed" } });
      await call(numberRoute.PUT, { method: "PUT", path: "/v1/config/number", token: adminToken, body: { provider: "sandbox" } });
      expect(await audit(account.id)).toEqual(["webhook.created", "webhook.updated", "webhook.deleted", "profile.updated", "number.updated"]);
      const [entry] = await getDb().select().from(auditLog).where(and(eq(auditLog.accountId, account.id), eq(auditLog.action, "webhook.deleted")));
      expect(entry).toMatchObject({ targetType: "webhook", targetId: hook.body.id, actorType: "user" });
    } finally {
      await receiver.close();
      restore();
    }
  });
});
