import { describe, expect, it } from "vitest";
import * as appsRoute from "@/app/v1/apps/route";
import * as auditRoute from "@/app/v1/audit-log/route";
import * as cannedById from "@/app/v1/canned-replies/[id]/route";
import * as cannedRoute from "@/app/v1/canned-replies/route";
import * as csatRoute from "@/app/v1/config/csat/route";
import * as inboxRoute from "@/app/v1/config/inbox/route";
import * as contactsExport from "@/app/v1/contacts/export/route";
import * as invitationsRoute from "@/app/v1/invitations/route";
import * as labelById from "@/app/v1/labels/[id]/route";
import * as labelsRoute from "@/app/v1/labels/route";
import * as reportsExport from "@/app/v1/reports/export/route";
import * as templateById from "@/app/v1/templates/[id]/route";
import * as templatesRoute from "@/app/v1/templates/route";
import * as tokensRoute from "@/app/v1/auth/tokens/route";
import { checkAuthorizeRequest, signConsent } from "@/lib/oauth/authorize";
import { s256 } from "@/lib/platform/crypto/secret-hash";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { postConsent, postForm, sessionCookie } from "@/tests/support/oauth";
import { systemContext } from "@/lib/server/context";

const REDIRECT = "https://crm.example.com/cb";
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

type Entry = { action: string; actor: { type: string; id: string | null; name: string | null; via?: Record<string, string> }; target: { type: string; id: string } | null };
async function auditLog(adminToken: string, query = "limit=100"): Promise<Entry[]> {
  const res = await call(auditRoute.GET, { path: `/v1/audit-log?${query}`, token: adminToken });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

describe("the audit log names the credential used", () => {
  it("credits an API token's action to the token, an app's to the app, with the person in via", async () => {
    const { admin, adminToken } = await createTestAccount();
    const minted = await call(tokensRoute.POST, { method: "POST", path: "/v1/auth/tokens", token: adminToken, body: { name: "Deploy bot", permissions: ["config:write", "users:write"], expires_at: inDays(3) } });
    const label = await call(labelsRoute.POST, { method: "POST", path: "/v1/labels", token: minted.body.token, body: { name: "VIP", color: "#112233" } });
    expect(label.status).toBe(201);

    // An app the admin allowed invites someone.
    const app = await call(appsRoute.POST, { method: "POST", path: "/v1/apps", token: adminToken, body: { name: "Acme HR", redirect_uris: [REDIRECT], allowed_scopes: ["users:write"] } });
    const verifier = "v".repeat(43);
    const check = await checkAuthorizeRequest(
      systemContext().db,
      { client_id: app.body.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "users:write", state: "s", code_challenge: s256(verifier), code_challenge_method: "S256" },
      { role: "admin", accountId: admin.accountId },
    );
    if (!check.ok) throw new Error(check.message);
    const consented = await postConsent({ cookie: (await sessionCookie(admin)).cookie, consent: await signConsent(check.request, admin.id), decision: "allow" });
    const code = new URL(consented.headers.get("location")!).searchParams.get("code")!;
    const client = { client_id: app.body.client_id, client_secret: app.body.client_secret };
    const tokens = await postForm("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, ...client });
    const invited = await call(invitationsRoute.POST, { method: "POST", path: "/v1/invitations", token: tokens.body.access_token, body: { email: `hr-${Date.now()}@example.com`, role: "agent" } });
    expect(invited.status).toBe(201);

    const entries = await auditLog(adminToken);
    expect(entries.find((e) => e.action === "label.created")).toMatchObject({
      actor: { type: "api_token", id: minted.body.id, name: "Deploy bot", via: { token_id: minted.body.id, user_id: admin.id, user_name: admin.name } },
      target: { type: "label", id: label.body.id },
    });
    expect(entries.find((e) => e.action === "user.invited")).toMatchObject({
      actor: { type: "oauth_app", id: app.body.id, name: "Acme HR", via: { app_id: app.body.id, user_id: admin.id, user_name: admin.name } },
    });
    // Signed in as themselves, the person is the actor.
    expect(entries.find((e) => e.action === "token.created")).toMatchObject({ actor: { type: "user", id: admin.id, name: admin.name } });
    expect(entries.find((e) => e.action === "token.created")!.actor).not.toHaveProperty("via");
    // Filtering by the person finds what their token and app did.
    const mine = (await auditLog(adminToken, `actor=${admin.id}&limit=100`)).map((e) => e.action);
    expect(mine).toEqual(expect.arrayContaining(["label.created", "user.invited", "token.created"]));
    expect((await auditLog(adminToken, `actor=${minted.body.id}`)).map((e) => e.action)).toEqual(["label.created"]);

    // A refresh token presented twice ends the grant, recorded as the system's doing.
    expect((await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token, ...client })).status).toBe(200);
    expect((await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token, ...client })).status).toBe(400);
    expect((await auditLog(adminToken, "action=app.grant_revoked_reuse"))[0]).toMatchObject({ actor: { type: "system", id: null }, target: { type: "app", id: app.body.id } });
  });

  it("records CSV exports and changes of templates, labels, canned replies and settings", async () => {
    const { admin, adminToken } = await createTestAccount();
    const t = (method: string, path: string, handler: (req: Request, c: { params: Promise<Record<string, string>> }) => Promise<Response>, body?: unknown, params?: Record<string, string>) =>
      call(handler as never, { method, path, token: adminToken, body, params });

    const reply = await t("POST", "/v1/canned-replies", cannedRoute.POST, { shortcut: "hours", text: "We open at 9." });
    await t("PATCH", `/v1/canned-replies/${reply.body.id}`, cannedById.PATCH, { text: "We open at 10." }, { id: reply.body.id });
    await t("DELETE", `/v1/canned-replies/${reply.body.id}`, cannedById.DELETE, undefined, { id: reply.body.id });
    const label = await t("POST", "/v1/labels", labelsRoute.POST, { name: "Refund", color: "#aa0000" });
    await t("DELETE", `/v1/labels/${label.body.id}`, labelById.DELETE, undefined, { id: label.body.id });
    const template = await t("POST", "/v1/templates", templatesRoute.POST, { name: "order_ready", language: "en_US", category: "UTILITY", components: { body: { text: "Hi {{1}}" } } });
    expect(template.status, template.text).toBe(201);
    await t("DELETE", `/v1/templates/${template.body.id}`, templateById.DELETE, undefined, { id: template.body.id });
    expect((await t("PUT", "/v1/config/inbox", inboxRoute.PUT, { auto_assign_on_reply: false })).status).toBe(200);
    expect((await t("PUT", "/v1/config/csat", csatRoute.PUT, { enabled: true, question: "How did we do?" })).status).toBe(200);
    const exported = await t("GET", "/v1/reports/export?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z", reportsExport.GET);
    expect(exported.status, exported.text).toBe(200);
    expect((await t("GET", "/v1/contacts/export", contactsExport.GET)).status).toBe(200);

    const actions = (await auditLog(adminToken)).map((e) => e.action);
    for (const action of [
      "canned_reply.created",
      "canned_reply.updated",
      "canned_reply.deleted",
      "label.created",
      "label.deleted",
      "template.created",
      "template.deleted",
      "settings.inbox_updated",
      "settings.survey_updated",
      "export.conversations",
      "export.contacts",
    ]) {
      expect(actions, action).toContain(action);
    }
    expect((await auditLog(adminToken, "action=export.contacts"))[0].actor).toMatchObject({ type: "user", id: admin.id });
  });
});
