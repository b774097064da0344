import { z } from "zod";
import { securitySettingsInput, securitySettingsOutput } from "@/lib/accounts/schemas";
import { auditEntryOutput, auditLogQuery } from "@/lib/audit/schemas";
import { appOutput, createAppInput, createdAppOutput } from "@/lib/oauth/schemas";
import { createInvitationInput, invitationOutput, pendingInvitationOutput } from "@/lib/users/invitations";
import { changePasswordInput, resetLinkOutput } from "@/lib/users/passwords";
import { deleted, operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

const tag = {
  name: "Team administration",
  description:
    "OAuth apps, invitations, passwords and the audit log. The OAuth 2.0 endpoints themselves (`/oauth/authorize`, `/oauth/token`, `/oauth/revoke`, `/.well-known/oauth-authorization-server`) follow RFC 6749, 7636, 7009 and 8414 and are described in the guide.",
};
const op = operationsFor(tag.name);

export const identityDomain: V1Domain = {
  tag,
  paths: {
    "/v1/apps": {
      get: op({
        operationId: "listApps",
        summary: "List OAuth apps",
        description: "The account's registered apps, newest first. Client secrets are never returned again.",
        access: { scope: "apps:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of apps.", schema: page(appOutput) },
      }),
      post: op({
        operationId: "createApp",
        summary: "Register an OAuth app",
        description:
          "A third-party app that asks users for access with the authorization-code flow and PKCE (S256). `redirect_uris` are https, or http://localhost… for native and development apps, and are matched exactly. A confidential client's `client_secret` appears only in this answer.",
        access: { scope: "apps:write" },
        body: createAppInput,
        success: { status: "201", description: "The app, with its client secret.", schema: createdAppOutput },
      }),
    },
    "/v1/apps/{id}": {
      delete: op({
        operationId: "deleteApp",
        summary: "Delete an OAuth app",
        description: "Its client id stops working and every user's grant to it ends: its access and refresh tokens stop working at once.",
        access: { scope: "apps:write" },
        path: pathIds({ id: "app" }),
        success: deleted,
      }),
    },
    "/v1/invitations": {
      post: op({
        operationId: "createInvitation",
        summary: "Invite a user",
        description:
          "A single-use link, valid 7 days, that opens a page where the invited person chooses their name and password. Emailed when the server has `SMTP_URL`; otherwise (or when the mail server refuses) pass the `url` on yourself. An email of a user of this account is a 400 naming `email`; whether an email is used in another account is never told (the answer is the same): the invited person learns it on opening the link.",
        access: { scope: "users:write" },
        body: createInvitationInput,
        success: { status: "201", description: "The invitation, with its link.", schema: invitationOutput },
      }),
      get: op({
        operationId: "listInvitations",
        summary: "List pending invitations",
        description: "Invitations not accepted yet, newest first, expired ones included (`status`). Their links are never shown again: resend one for a new link. Administrators only (an agent's token is a 403 `forbidden`).",
        access: { scope: "users:read" },
        success: { status: "200", description: "The pending invitations.", schema: z.object({ data: z.array(pendingInvitationOutput) }) },
      }),
    },
    "/v1/invitations/{id}": {
      delete: op({
        operationId: "revokeInvitation",
        summary: "Revoke an invitation",
        description: "Its link stops working at once. An accepted or unknown invitation is a 404.",
        access: { scope: "users:write" },
        path: pathIds({ id: "invitation" }),
        success: { status: "204", description: "Revoked." },
      }),
    },
    "/v1/invitations/{id}/resend": {
      post: op({
        operationId: "resendInvitation",
        summary: "Resend an invitation",
        description: "A new link, valid 7 days from now (the earlier one stops working), emailed again when the server has `SMTP_URL`. An accepted or unknown invitation is a 404.",
        access: { scope: "users:write" },
        path: pathIds({ id: "invitation" }),
        success: { status: "200", description: "The invitation, with its new link.", schema: invitationOutput },
      }),
    },
    "/v1/users/{id}/password-reset": {
      post: op({
        operationId: "issuePasswordReset",
        summary: "Issue a password reset link",
        description: "A one-time link, valid 1 hour, for the user to choose a new password; an earlier unused link stops working. Setting the new password ends every session of the user.",
        access: { scope: "users:write" },
        path: pathIds({ id: "user" }),
        success: { status: "201", description: "The link.", schema: resetLinkOutput },
      }),
    },
    "/v1/auth/password": {
      post: op({
        operationId: "changePassword",
        summary: "Change your password",
        description: "A wrong `current_password` is a 400 naming it. Your other sessions end; this one stays signed in.",
        access: { auth: "session" },
        body: changePasswordInput,
        success: { status: "204", description: "Changed." },
      }),
    },
    "/v1/config/security": {
      get: op({
        operationId: "getSecuritySettings",
        summary: "Get the sign-in rules",
        description: "Whether every user must sign in with a second factor. Administrators only (an agent's token is a 403 `forbidden`, whatever its scopes).",
        access: { scope: "config:read" },
        success: { status: "200", description: "The account's sign-in rules.", schema: securitySettingsOutput },
      }),
      put: op({
        operationId: "updateSecuritySettings",
        summary: "Change the sign-in rules",
        description:
          "Administrators only. With `require_mfa: true`, no credential of a user without two-factor sign-in grants access (403 `mfa_enrollment_required` until they set it up in the browser), and a session opened without a code must sign in again (403 `mfa_required`), as must an API token or app grant created by such a session (create a new one after signing in with a code). A change is recorded in the audit log as `mfa.requirement_changed`. Requiring it while you have not set it up yourself is a 409 `conflict` (the credential you call with would stop working).",
        access: { scope: "config:write" },
        body: securitySettingsInput,
        success: { status: "200", description: "The saved rules.", schema: securitySettingsOutput },
        errors: [409],
      }),
    },
    "/v1/audit-log": {
      get: op({
        operationId: "listAuditLog",
        summary: "Read the audit log",
        description:
          "Who did what, newest first: sign-ins (successful and failed), API tokens and apps created or revoked, an app's grant ended by a reused refresh token, webhooks created, changed or deleted, users invited, created, changed or deleted, number, profile, inbox, survey and sign-in settings, templates, labels, canned replies, automations and macros changed, automation runs and macros run, CSV exports, two-factor changes. The actor names the credential used: a person signed in, one of their API tokens (credited to the token) or an OAuth app acting for them (`via` names the person). Append-only: no route changes or removes an entry.",
        access: { scope: "audit:read" },
        query: auditLogQuery,
        success: { status: "200", description: "A page of entries.", schema: page(auditEntryOutput) },
      }),
    },
  },
};
