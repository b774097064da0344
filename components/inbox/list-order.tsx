"use client";

import { useTranslations } from "next-intl";
import type { ConversationItem } from "./types";

/** How the inbox list is ordered: by latest activity, or by priority (urgent first) and then activity. */
export type ListOrder = "activity" | "priority";

const activityOf = (c: ConversationItem) => c.last_message_at ?? c.created_at;
const rankOf = (c: ConversationItem) => (c.priority ? ["urgent", "high", "medium", "low"].indexOf(c.priority) : 4);

const byActivity = (a: ConversationItem, b: ConversationItem) =>
  activityOf(b) > activityOf(a) ? 1 : activityOf(b) < activityOf(a) ? -1 : b.id > a.id ? 1 : -1;

/** The list's comparator, as the server orders it, so live updates land in place. */
export const comparatorOf = (order: ListOrder) => (order === "priority" ? (a: ConversationItem, b: ConversationItem) => rankOf(a) - rankOf(b) || byActivity(a, b) : byActivity);

/** The order picker under the inbox filters. */
export function ListOrderSelect({ value, onChange }: { value: ListOrder; onChange: (order: ListOrder) => void }) {
  const t = useTranslations("inboxTools.sort");
  return (
    <div className="flex min-w-0 flex-1 items-center gap-2 text-xs">
      <label htmlFor="inbox-sort" className="font-medium text-slate-600">
        {t("label")}
      </label>
      <select
        id="inbox-sort"
        value={value}
        onChange={(e) => onChange(e.target.value === "priority" ? "priority" : "activity")}
        className="min-h-11 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm md:min-h-0"
      >
        <option value="activity">{t("activity")}</option>
        <option value="priority">{t("priority")}</option>
      </select>
    </div>
  );
}
