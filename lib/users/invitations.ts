import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/db";
import { accounts, invitations, users } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { assertEmailFree } from "@/lib/accounts/create-account";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { recordAudit, userActor } from "@/lib/audit/record-audit";
import { hashPassword } from "@/lib/auth/password";
import { roleSchema } from "@/lib/auth/scopes";
import { hashSecret, newSecret } from "@/lib/platform/crypto/secret-hash";
import { getEnv } from "@/lib/platform/env";
import { ApiError } from "@/lib/platform/errors";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/platform/ids";
import { sendMail } from "@/lib/mail/send-mail";
import { emailSchema, presentUser, userNameSchema } from "@/lib/auth/user-identity";
import { passwordSchema } from "@/lib/auth/password";

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

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

export const acceptInvitationInput = z.object({ name: userNameSchema, password: passwordSchema });

/** `POST /v1/invitations`: a 7-day, single-use link for a new user; emailed when SMTP_URL is set. */
export async function createInvitation({ ctx, input }: { ctx: ServiceContext<"user">; input: z.infer<typeof createInvitationInput> }) {
  const now = new Date();
  const token = newSecret("chorus_invite_");
  const expiresAt = new Date(now.getTime() + INVITATION_LIFETIME_MS);
  const id = newId("invitation", now);
  const accountName = await getDb().transaction(async (tx) => {
    await assertEmailFree(tx, input.email);
    await tx.insert(invitations).values({ id, accountId: ctx.accountId, email: input.email, role: input.role, tokenHash: hashSecret(token), invitedBy: ctx.user.id, expiresAt, createdAt: now });
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "user.invited", target: { type: "invitation", id } });
    const [account] = await tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, ctx.accountId)).limit(1);
    return account?.name ?? "Chorus";
  });
  const url = `${getEnv().APP_URL}/invite/${token}`;
  const emailSent = await sendMail({
    to: input.email,
    subject: `${ctx.user.name} invited you to ${accountName} on Chorus`,
    text: `${ctx.user.name} invited you to answer ${accountName}'s messages on Chorus as ${input.role === "admin" ? "an administrator" : "an agent"}.\n\nChoose your name and password here (the link works once, for 7 days):\n${url}\n`,
  });
  return { id, email: input.email, role: input.role, url, expires_at: expiresAt.toISOString(), email_sent: emailSent };
}

async function findInvitation(token: string) {
  const [row] = await getDb()
    .select({ invitation: invitations, accountName: accounts.name })
    .from(invitations)
    .innerJoin(accounts, eq(accounts.id, invitations.accountId))
    .where(eq(invitations.tokenHash, hashSecret(token)))
    .limit(1);
  if (!row) throw new ApiError(404, "not_found", "This invitation link is not valid. Ask your administrator for a new one.");
  if (row.invitation.acceptedAt) throw new ApiError(410, "invitation_used", "This invitation was already used. Sign in instead.");
  if (row.invitation.expiresAt.getTime() <= Date.now()) {
    throw new ApiError(410, "invitation_expired", "This invitation has expired (invitations last 7 days). Ask your administrator for a new one.");
  }
  return row;
}

/** What an invitation link offers (for its page), or why it does not work. */
export async function describeInvitation({ token }: { token: string }) {
  const { invitation, accountName } = await findInvitation(token);
  return { email: invitation.email, role: invitation.role, accountName, expiresAt: invitation.expiresAt };
}

/** Accepts an invitation once: the user is created with the invited email and role. */
export async function acceptInvitation({ token, input }: { token: string; input: z.infer<typeof acceptInvitationInput> }) {
  const { invitation } = await findInvitation(token);
  const passwordHash = await hashPassword(input.password);
  return getDb().transaction(async (tx) => {
    const now = new Date();
    const userId = newId("user", now);
    const [spent] = await tx
      .update(invitations)
      .set({ acceptedAt: now, acceptedUserId: userId })
      .where(and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    if (!spent) throw new ApiError(410, "invitation_used", "This invitation was already used. Sign in instead.");
    await assertEmailFree(tx, invitation.email);
    const [user] = await tx
      .insert(users)
      .values({ id: userId, accountId: invitation.accountId, name: input.name, email: invitation.email, passwordHash, role: invitation.role, createdAt: now, updatedAt: now })
      .returning();
    const output = presentUser(user);
    await recordEvent(tx, { accountId: invitation.accountId, type: "user.created", data: { user: output } });
    await recordAudit(tx, { accountId: invitation.accountId, actor: { type: "user", id: user.id, name: user.name }, action: "user.created", target: { type: "user", id: user.id } });
    return output;
  });
}
