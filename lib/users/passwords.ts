import "server-only";
import type { ServiceContext, SystemContext } from "@/lib/auth/context";
import { endUserAccess } from "@/lib/auth/sessions";
import { z } from "zod";
import type { Executor } from "@/db";
import { recordAudit, userActor } from "@/lib/audit/record-audit";
import { hashPassword, passwordSchema, verifyPassword } from "@/lib/auth/password";
import { hashSecret, newSecret } from "@/lib/platform/crypto/secret-hash";
import { getEnv } from "@/lib/platform/env";
import { ApiError, invalidField, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { findLiveUser, findPasswordReset, insertPasswordReset, spendOpenPasswordResets, spendPasswordReset, updateUserRow } from "./store";

const RESET_LINK_LIFETIME_MS = 60 * 60 * 1000;

export const changePasswordInput = z.object({
  current_password: z.string().min(1, "is required").max(200).meta({ description: "Your password now." }),
  new_password: passwordSchema.meta({ description: "10 to 200 characters." }),
});

export const resetLinkOutput = z
  .object({
    url: z.string().meta({ description: "The one-time link to pass to the user; it opens a page to choose a new password.", example: "https://chorus.example.com/reset-password/chorus_reset_…" }),
    expires_at: z.string().meta({ format: "date-time", description: "1 hour after issue.", example: "2026-11-23T11:15:30.123Z" }),
  })
  .meta({ id: "PasswordResetLink" });

export const resetPasswordInput = z.object({ password: passwordSchema });

/** A new password signs the user out elsewhere (all sessions but `keep`) and ends every app's grant. */
async function endSessions(tx: Executor, userId: string, reason: string, keep?: string) {
  await endUserAccess(tx, { userId, keep, reason });
}

/** `POST /v1/auth/password`: the signed-in user changes their password; their other sessions end. */
export async function changePassword({ ctx, input }: { ctx: ServiceContext<"user" | "token">; input: z.infer<typeof changePasswordInput> }) {
  const user = await findLiveUser(ctx.db, { accountId: ctx.accountId, id: ctx.user.id });
  if (!user) throw new NotFoundError("User");
  if (!(await verifyPassword(user.passwordHash, input.current_password))) throw invalidField("current_password", "is wrong");
  const passwordHash = await hashPassword(input.new_password);
  await ctx.db.transaction(async (tx) => {
    await updateUserRow(tx, { id: user.id, set: { passwordHash, updatedAt: new Date() } });
    await endSessions(tx, user.id, "password_changed", ctx.token.id);
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "auth.password_changed", target: { type: "user", id: user.id } });
  });
}

/** An administrator's one-time reset link for a user (1 hour); an earlier unused link stops working. */
export async function issuePasswordReset({ ctx, userId }: { ctx: ServiceContext<"user">; userId: string }) {
  const user = await findLiveUser(ctx.db, { accountId: ctx.accountId, id: userId });
  if (!user) throw new NotFoundError("User");
  const now = new Date();
  const token = newSecret("chorus_reset_");
  const expiresAt = new Date(now.getTime() + RESET_LINK_LIFETIME_MS);
  await ctx.db.transaction(async (tx) => {
    await spendOpenPasswordResets(tx, { userId, at: now });
    await insertPasswordReset(tx, { id: newId("passwordReset", now), accountId: ctx.accountId, userId, tokenHash: hashSecret(token), createdBy: ctx.user.id, expiresAt, createdAt: now });
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "auth.password_reset_issued", target: { type: "user", id: userId } });
  });
  return { url: `${getEnv().APP_URL}/reset-password/${token}`, expires_at: expiresAt.toISOString() };
}

async function findReset(db: Executor, token: string) {
  const row = await findPasswordReset(db, { tokenHash: hashSecret(token) });
  if (!row || row.user.deletedAt) throw new ApiError(404, "not_found", "This reset link is not valid. Ask your administrator for a new one.");
  if (row.reset.usedAt) throw new ApiError(410, "link_used", "This reset link was already used or replaced by a newer one. Ask your administrator for a new one.");
  if (row.reset.expiresAt.getTime() <= Date.now()) throw new ApiError(410, "link_expired", "This reset link has expired (links last 1 hour). Ask your administrator for a new one.");
  return row;
}

/** Whose password a reset link sets (for the page), or the reason it does not work. */
export async function describePasswordReset(ctx: SystemContext, { token }: { token: string }) {
  const { user, reset } = await findReset(ctx.db, token);
  return { name: user.name, email: user.email, expiresAt: reset.expiresAt };
}

/** Sets a new password with a reset link (once); every session of the user ends. */
export async function resetPassword(ctx: SystemContext, { token, password }: { token: string; password: string }) {
  const { reset, user } = await findReset(ctx.db, token);
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    if (!(await spendPasswordReset(tx, { id: reset.id, at: new Date() }))) throw new ApiError(410, "link_used", "This reset link was already used.");
    await updateUserRow(tx, { id: user.id, set: { passwordHash, updatedAt: new Date() } });
    await endSessions(tx, user.id, "password_reset");
    await recordAudit(tx, { accountId: reset.accountId, actor: { type: "user", id: user.id, name: user.name }, action: "auth.password_reset", target: { type: "user", id: user.id } });
  });
  return { email: user.email };
}
