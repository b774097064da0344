import "server-only";
import { z } from "zod";
import type { Executor } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import type { ServiceContext } from "@/lib/auth/context";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { recordAudit, userActor } from "@/lib/audit/record-audit";
import { hashPassword } from "@/lib/auth/password";
import { roleSchema } from "@/lib/auth/scopes";
import { hashSecret, newSecret } from "@/lib/platform/crypto/secret-hash";
import { getEnv } from "@/lib/platform/env";
import { ApiError, ForbiddenError, invalidField, NotFoundError } from "@/lib/platform/errors";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/platform/ids";
import type { Locale } from "@/lib/platform/i18n/locales";
import { sendMail } from "@/lib/mail/send-mail";
import { translatorFor } from "@/i18n/translator";
import { interfaceLocaleOf } from "./locale";
import { emailSchema, presentUser, userNameSchema } from "@/lib/auth/user-identity";
import { passwordSchema } from "@/lib/auth/password";
import {
  acceptPendingInvitation,
  deletePendingInvitation,
  findAccountName,
  findInvitationByTokenHash,
  findLiveUserIdByEmail,
  findPendingInvitations,
  insertInvitation,
  insertUser,
  updatePendingInvitation,
} from "./store";

const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export const createInvitationInput = z.object({
  email: emailSchema.meta({ description: "Where the invitation goes; the new user signs in with it.", example: "sam@example.com" }),
  role: roleSchema.meta({ description: "`admin` or `agent`." }),
});

export const invitationOutput = z
  .strictObject({
    id: prefixedId("invitation"),
    email: z.string().meta({ format: "email" }),
    role: roleSchema,
    url: z.string().meta({ description: "The one-time link (7 days) that opens the page to choose a name and password. Shown only in this answer.", example: "https://chorus.example.com/invite/chorus_invite_…" }),
    expires_at: isoTimestamp("7 days after issue."),
    email_sent: z.boolean().meta({ description: "Whether the link was emailed (SMTP_URL set and accepted); otherwise pass the link on yourself." }),
  })
  .meta({ id: "Invitation" });

export const pendingInvitationOutput = z
  .strictObject({
    id: prefixedId("invitation"),
    email: z.string().meta({ format: "email" }),
    role: roleSchema,
    status: z.enum(["pending", "expired"]).meta({ description: "`expired` after its 7 days: resend it to send a fresh link." }),
    invited_by: z.strictObject({ id: z.string(), name: z.string() }).nullable().meta({ description: "Who sent it (null when that user was removed)." }),
    expires_at: isoTimestamp("When the current link stops working."),
    created_at: isoTimestamp("When it was first sent."),
  })
  .meta({ id: "PendingInvitation", description: "An invitation not accepted yet. Its link is never shown again: resend to get a new one." });
export type PendingInvitationOutput = z.infer<typeof pendingInvitationOutput>;

export const acceptInvitationInput = z.object({ name: userNameSchema, password: passwordSchema });

/**
 * The invited email already belongs to a user of this account (whom the administrator can see
 * anyway): a 400 naming `email`. Whether it belongs to someone of another account is never
 * told here; accepting the invitation explains it to the invited person.
 */
async function assertNotTeammate(tx: Executor, accountId: string, email: string) {
  if (await findLiveUserIdByEmail(tx, { accountId, email })) throw invalidField("email", "is already used by a user of this account");
}

async function accountNameOf(executor: Executor, accountId: string) {
  return (await findAccountName(executor, { accountId })) ?? "Chorus";
}

/**
 * The invitation email, in the inviter's interface language (their choice, else the business
 * language): the invited person's own language is unknown until they open the link.
 */
async function mailInvitation(ctx: ServiceContext<"user">, input: { email: string; role: string; url: string; accountName: string }) {
  const t = translatorFor(await interfaceLocaleOf(ctx.db, { accountId: ctx.accountId, userId: ctx.user.id }));
  const values = { inviter: ctx.user.name, account: input.accountName, role: input.role, url: input.url };
  return sendMail({ to: input.email, subject: t("emails.invitation.subject", values), text: t("emails.invitation.body", values) });
}

/** `POST /v1/invitations`: a 7-day, single-use link for a new user; emailed when SMTP_URL is set. */
export async function createInvitation({ ctx, input }: { ctx: ServiceContext<"user">; input: z.infer<typeof createInvitationInput> }) {
  const now = new Date();
  const token = newSecret("chorus_invite_");
  const expiresAt = new Date(now.getTime() + INVITATION_LIFETIME_MS);
  const id = newId("invitation", now);
  const accountName = await ctx.db.transaction(async (tx) => {
    await assertNotTeammate(tx, ctx.accountId, input.email);
    await insertInvitation(tx, { id, accountId: ctx.accountId, email: input.email, role: input.role, tokenHash: hashSecret(token), invitedBy: ctx.user.id, expiresAt, createdAt: now });
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "user.invited", target: { type: "invitation", id } });
    return accountNameOf(tx, ctx.accountId);
  });
  const url = `${getEnv().APP_URL}/invite/${token}`;
  const emailSent = await mailInvitation(ctx, { email: input.email, role: input.role, url, accountName });
  return { id, email: input.email, role: input.role, url, expires_at: expiresAt.toISOString(), email_sent: emailSent };
}

// Administrators only: agents may read the team, not who is being invited.
function assertAdmin(ctx: { user: { role?: string } }) {
  if (ctx.user.role !== "admin") throw new ForbiddenError("Only administrators can manage invitations.");
}

/** `GET /v1/invitations`: invitations not accepted yet (expired ones too), newest first. */
export async function listPendingInvitations({ ctx }: { ctx: ServiceContext<"user"> }): Promise<{ data: PendingInvitationOutput[] }> {
  assertAdmin(ctx);
  const rows = await findPendingInvitations(ctx.db, { accountId: ctx.accountId, limit: 500 });
  const now = Date.now();
  return {
    data: rows.map(({ invitation, inviter }) => ({
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      status: invitation.expiresAt.getTime() <= now ? "expired" : "pending",
      invited_by: inviter?.id ? { id: inviter.id, name: inviter.name } : null,
      expires_at: invitation.expiresAt.toISOString(),
      created_at: invitation.createdAt.toISOString(),
    })),
  };
}

/** `DELETE /v1/invitations/{id}`: the link stops working at once. */
export async function revokeInvitation({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  assertAdmin(ctx);
  await ctx.db.transaction(async (tx) => {
    if (!(await deletePendingInvitation(tx, { accountId: ctx.accountId, id }))) throw new NotFoundError("Invitation");
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "user.invitation_revoked", target: { type: "invitation", id } });
  });
}

/**
 * `POST /v1/invitations/{id}/resend`: a new link, valid 7 days from now, emailed again when
 * SMTP_URL is set; the earlier link stops working.
 */
export async function resendInvitation({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  assertAdmin(ctx);
  const now = new Date();
  const token = newSecret("chorus_invite_");
  const expiresAt = new Date(now.getTime() + INVITATION_LIFETIME_MS);
  const { row, accountName } = await ctx.db.transaction(async (tx) => {
    const updated = await updatePendingInvitation(tx, { accountId: ctx.accountId, id, set: { tokenHash: hashSecret(token), expiresAt, invitedBy: ctx.user.id } });
    if (!updated) throw new NotFoundError("Invitation");
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "user.invitation_resent", target: { type: "invitation", id } });
    return { row: updated, accountName: await accountNameOf(tx, ctx.accountId) };
  });
  const url = `${getEnv().APP_URL}/invite/${token}`;
  const emailSent = await mailInvitation(ctx, { email: row.email, role: row.role, url, accountName });
  return { id: row.id, email: row.email, role: row.role, url, expires_at: expiresAt.toISOString(), email_sent: emailSent };
}

/**
 * The invited address already signs in to Chorus (each email belongs to one account). Told only
 * to the person holding the link, who owns the address, never to whoever invited them.
 */
async function assertEmailUnused(executor: Executor, email: string) {
  if (await findLiveUserIdByEmail(executor, { email })) {
    throw new ApiError(
      409,
      "email_in_use",
      `${email} already has a Chorus sign-in. One email address belongs to one Chorus account: sign in with it, or ask whoever invited you to invite another address.`,
    );
  }
}

async function findInvitation(db: Executor, token: string) {
  const row = await findInvitationByTokenHash(db, { tokenHash: hashSecret(token) });
  if (!row) throw new ApiError(404, "not_found", "This invitation link is not valid. Ask your administrator for a new one.");
  if (row.invitation.acceptedAt) throw new ApiError(410, "invitation_used", "This invitation was already used. Sign in instead.");
  if (row.invitation.expiresAt.getTime() <= Date.now()) {
    throw new ApiError(410, "invitation_expired", "This invitation has expired (invitations last 7 days). Ask your administrator for a new one.");
  }
  return row;
}

/** What an invitation link offers (for its page), or why it does not work. */
export async function describeInvitation(ctx: SystemContext, { token }: { token: string }) {
  const { invitation, accountName } = await findInvitation(ctx.db, token);
  await assertEmailUnused(ctx.db, invitation.email);
  return { email: invitation.email, role: invitation.role, accountName, expiresAt: invitation.expiresAt };
}

/** Accepts an invitation once: the user is created with the invited email and role. */
/** `locale`: the new teammate's interface language, from their browser (null: none it names). */
export async function acceptInvitation(ctx: SystemContext, { token, input, locale = null }: { token: string; input: z.infer<typeof acceptInvitationInput>; locale?: Locale | null }) {
  const { invitation } = await findInvitation(ctx.db, token);
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction(async (tx) => {
    const now = new Date();
    const userId = newId("user", now);
    if (!(await acceptPendingInvitation(tx, { id: invitation.id, userId, at: now }))) throw new ApiError(410, "invitation_used", "This invitation was already used. Sign in instead.");
    await assertEmailUnused(tx, invitation.email);
    const user = await insertUser(tx, { id: userId, accountId: invitation.accountId, name: input.name, email: invitation.email, passwordHash, role: invitation.role, locale, createdAt: now, updatedAt: now });
    const output = presentUser(user);
    await recordEvent({ ...ctx, db: tx }, { accountId: invitation.accountId, type: "user.created", data: { user: output } });
    await recordAudit(tx, { accountId: invitation.accountId, actor: { type: "user", id: user.id, name: user.name }, action: "user.created", target: { type: "user", id: user.id } });
    return output;
  });
}
