import "server-only";
import type { Executor } from "@/db";
import type { ServiceContext } from "@/lib/auth/context";
import { presentUser } from "@/lib/auth/user-identity";
import { recordEvent } from "@/lib/events/record-event";
import { NotFoundError } from "@/lib/platform/errors";
import { loadWorkflowSettings } from "@/lib/teams/assignment";
import type { UpdateMeInput } from "./schemas";
import { isLocale, localeOfLanguage, type Locale } from "@/lib/platform/i18n/locales";
import { findUserLocale, updateLiveUser } from "./store";

/**
 * The interface language of a signed-in person: the one they chose, else their account's
 * business language, else English. One query.
 */
export async function interfaceLocaleOf(db: Executor, { accountId, userId }: { accountId: string; userId: string }): Promise<Locale> {
  const row = await findUserLocale(db, { accountId, userId });
  if (row && isLocale(row.locale)) return row.locale;
  return row?.language ? localeOfLanguage(row.language) : "en";
}

/** Sets the caller's interface language; emits `user.updated`. */
export async function updateMe({ ctx, input }: { ctx: ServiceContext<"user">; input: UpdateMeInput }) {
  return ctx.db.transaction(async (tx) => {
    const user = await updateLiveUser(tx, { accountId: ctx.accountId, id: ctx.user.id, set: { locale: input.locale, updatedAt: new Date() } });
    if (!user) throw new NotFoundError("User");
    const output = presentUser(user, await loadWorkflowSettings(tx, ctx.accountId));
    await recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type: "user.updated", data: { user: output } });
    return output;
  });
}
