import * as oauth from "oauth4webapi";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { revokeAllTokensAction } from "@/app/(app)/settings/account/actions";
import * as appsRoute from "@/app/v1/apps/route";
import * as auditRoute from "@/app/v1/audit-log/route";
import * as passwordRoute from "@/app/v1/auth/password/route";
import * as tokensRoute from "@/app/v1/auth/tokens/route";
import * as verifyRoute from "@/app/v1/auth/verify/route";
import * as resetRoute from "@/app/v1/users/[id]/password-reset/route";
import type { User } from "@/db/schema";
import { listOwnApiTokens } from "@/lib/auth/api-tokens";
import { revokeAllSessions } from "@/lib/auth/sessions";
import { checkAuthorizeRequest, signConsent } from "@/lib/oauth/authorize";
import { s256 } from "@/lib/platform/crypto/secret-hash";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { resetPassword } from "@/lib/users/passwords";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount, TEST_PASSWORD } from "@/tests/support/fixtures";
import { postConsent, postForm, sessionCookie } from "@/tests/support/oauth";
import { systemContext, verbContext } from "@/lib/server/context";

let cookie = "";
vi.mock("next/headers", () => ({ headers: async () => new Headers({ cookie }) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const REDIRECT = "https://crm.example.com/cb";
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const verifyStatus = async (token: string) => (await call(verifyRoute.GET, { path: "/v1/auth/verify", token })).status;

/** An app the user allowed through the consent page: its access and refresh tokens. */
async function allowApp(adminToken: string, user: User) {
  const app = await call(appsRoute.POST, { method: "POST", path: "/v1/apps", token: adminToken, body: { name: "CRM", redirect_uris: [REDIRECT], allowed_scopes: ["users:read"] } });
  const verifier = oauth.generateRandomCodeVerifier();
  const check = await checkAuthorizeRequest(
    systemContext().db,
    { client_id: app.body.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "users:read", state: "s", code_challenge: s256(verifier), code_challenge_method: "S256" },
    { role: user.role, accountId: user.accountId },
  );
  if (!check.ok) throw new Error(check.message);
  const { cookie: consentCookie } = await sessionCookie(user);
  const consented = await postConsent({ cookie: consentCookie, consent: await signConsent(check.request, user.id), decision: "allow" });
  const code = new URL(consented.headers.get("location")!).searchParams.get("code")!;
  const client = { client_id: app.body.client_id, client_secret: app.body.client_secret };
  const tokens = await postForm("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, ...client });
  expect(tokens.status).toBe(200);
  expect(await verifyStatus(tokens.body.access_token)).toBe(200);
  const refresh = () => postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token, ...client });
  return { access: tokens.body.access_token as string, refresh };
}

async function expectAppCutOff(app: Awaited<ReturnType<typeof allowApp>>) {
  expect(await verifyStatus(app.access)).toBe(401);
  const refreshed = await app.refresh();
  expect(refreshed.status).toBe(400);
  expect(refreshed.body.error).toBe("invalid_grant");
}

beforeEach(() => {
  cookie = "";
  resetRateLimiters();
});

describe("a new password or signing out everywhere ends sessions and apps' access", () => {
  it("a password change keeps this session, ends the others and every app's grant", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const other = await addTestUser(account.id, "admin");
    const app = await allowApp(adminToken, admin);
    const res = await call(passwordRoute.POST, { method: "POST", path: "/v1/auth/password", token: adminToken, body: { current_password: TEST_PASSWORD, new_password: "a brand new passphrase" } });
    expect(res.status, res.text).toBe(204);
    expect(await verifyStatus(adminToken)).toBe(200);
    await expectAppCutOff(app);
    // Another user's access is untouched.
    expect(await verifyStatus(other.token)).toBe(200);
  });

  it("an administrator's reset, once used, ends every session and app grant of the user", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const app = await allowApp(adminToken, agent.user);
    const link = await call(resetRoute.POST, { method: "POST", path: `/v1/users/${agent.user.id}/password-reset`, token: adminToken, params: { id: agent.user.id } });
    await resetPassword(systemContext(), { token: link.body.url.split("/").at(-1), password: "a brand new passphrase" });
    expect(await verifyStatus(agent.token)).toBe(401);
    await expectAppCutOff(app);
  });

  it("signing out everywhere ends every session and app grant", async () => {
    const { admin, adminToken } = await createTestAccount();
    const app = await allowApp(adminToken, admin);
    await revokeAllSessions(systemContext().db, { userId: admin.id });
    expect(await verifyStatus(adminToken)).toBe(401);
    await expectAppCutOff(app);
  });
});

describe("Settings → Account: your API tokens", () => {
  it("lists the user's own live tokens and revokes them all at once, audited", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const mint = async (token: string, name: string) =>
      (await call(tokensRoute.POST, { method: "POST", path: "/v1/auth/tokens", token, body: { name, permissions: ["conversations:read"], expires_at: inDays(3) } })).body.token as string;
    const mine = [await mint(agent.token, "one"), await mint(agent.token, "two")];
    const theirs = await mint(adminToken, "admin's");
    expect((await listOwnApiTokens({ ctx: verbContext({ accountId: account.id, user: agent.user }) })).map((t) => t.name)).toEqual(["two", "one"]);

    cookie = (await sessionCookie(agent.user)).cookie;
    const result = await revokeAllTokensAction();
    expect(result).toEqual({ ok: true, data: { revoked: 2 } });
    for (const token of mine) expect(await verifyStatus(token)).toBe(401);
    expect(await verifyStatus(theirs)).toBe(200);
    expect(await verifyStatus(agent.token)).toBe(200);
    expect(await listOwnApiTokens({ ctx: verbContext({ accountId: account.id, user: agent.user }) })).toEqual([]);
    const log = await call(auditRoute.GET, { path: "/v1/audit-log?action=token.revoked", token: adminToken });
    expect(log.body.data).toHaveLength(2);
    expect(log.body.data[0].actor).toMatchObject({ id: agent.user.id });
  });
});
