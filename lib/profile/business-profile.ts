import type { Executor } from "@/db";
import type { BusinessProfile } from "@/db/schema";
import { actorOf, recordAudit } from "@/lib/audit/record-audit";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { indexDescription } from "./knowledge";
import { type BusinessProfileInput, normalizeHours, presentBusinessProfile } from "./schemas";
import { findAccountName, findBusinessProfile, lockBusinessProfile, upsertBusinessProfile } from "./store";

/**
 * The account's profile row. Every account gets one at creation; an account created before
 * profiles existed reads as its name with nothing configured.
 */
export async function loadBusinessProfile(db: Executor, accountId: string): Promise<BusinessProfile> {
  const row = await findBusinessProfile(db, accountId);
  if (row) return row;
  const account = await findAccountName(db, accountId);
  if (!account) throw new NotFoundError("Account");
  return { accountId, name: account.name, description: "", language: "en", hours: null, autoReply: null, updatedAt: account.createdAt };
}

export async function getBusinessProfile({ ctx, now = new Date() }: { ctx: ServiceContext; now?: Date }) {
  return presentBusinessProfile(await loadBusinessProfile(ctx.db, ctx.accountId), now);
}

/** Replaces the whole profile (PUT semantics); the input is already validated by `businessProfileInput`. */
export async function updateBusinessProfile({ ctx, input, now = new Date() }: { ctx: ServiceContext; input: BusinessProfileInput; now?: Date }) {
  const values = {
    name: input.name,
    description: input.description,
    hours: input.hours ? normalizeHours(input.hours) : null,
    autoReply: input.auto_reply,
    updatedAt: now,
    ...(input.language ? { language: input.language } : {}),
  };
  const row = await ctx.db.transaction(async (tx) => {
    const previous = await lockBusinessProfile(tx, ctx.accountId);
    const saved = await upsertBusinessProfile(tx, ctx.accountId, values);
    if (previous?.description !== saved.description) await indexDescription(tx, { accountId: ctx.accountId, description: saved.description });
    await recordAudit(tx, { accountId: ctx.accountId, actor: actorOf(ctx), action: "profile.updated", target: { type: "account", id: ctx.accountId } });
    return saved;
  });
  return presentBusinessProfile(row, now);
}
