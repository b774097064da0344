import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import type { NotificationPreferences } from "@/db/schema";
import { defaultPreferences, type NotificationPreferencesInput } from "./schemas";
import { findPreferences, upsertPreferences } from "./store";

export function presentPreferences(row: NotificationPreferences | undefined): NotificationPreferencesInput {
  if (!row) return defaultPreferences;
  return {
    new_messages: row.newMessages,
    mentions: row.mentions,
    assignments: row.assignments,
    sla_warnings: row.slaWarnings,
    quiet_start: row.quietStart,
    quiet_end: row.quietEnd,
    time_zone: row.timeZone,
  };
}

/** The calling user's push choices (the defaults until they save some). */
export async function getNotificationPreferences({ ctx }: { ctx: ServiceContext<"user"> }): Promise<NotificationPreferencesInput> {
  return presentPreferences(await findPreferences(ctx.db, { accountId: ctx.accountId, userId: ctx.user.id }));
}

export async function saveNotificationPreferences({ ctx, input }: { ctx: ServiceContext<"user">; input: NotificationPreferencesInput }) {
  const values = {
    newMessages: input.new_messages,
    mentions: input.mentions,
    assignments: input.assignments,
    slaWarnings: input.sla_warnings,
    quietStart: input.quiet_start,
    quietEnd: input.quiet_end,
    timeZone: input.time_zone,
    updatedAt: new Date(),
  };
  await upsertPreferences(ctx.db, { accountId: ctx.accountId, userId: ctx.user.id, values });
  return input;
}

/** Minutes since midnight at `at` in `timeZone`. */
function minutesIn(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === "minute")?.value ?? 0);
  return hour * 60 + minute;
}

const toMinutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** True while `at` falls in the quiet hours (start included, end excluded; may cross midnight). */
export function inQuietHours(preferences: Pick<NotificationPreferencesInput, "quiet_start" | "quiet_end" | "time_zone">, at: Date): boolean {
  if (!preferences.quiet_start || !preferences.quiet_end) return false;
  const start = toMinutes(preferences.quiet_start);
  const end = toMinutes(preferences.quiet_end);
  if (start === end) return false;
  let now: number;
  try {
    now = minutesIn(at, preferences.time_zone);
  } catch {
    now = minutesIn(at, "UTC");
  }
  return start < end ? now >= start && now < end : now >= start || now < end;
}
