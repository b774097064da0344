import { z } from "zod";
import { isValidTimeZone, zonedTimeToInstant } from "@/lib/profile/hours";

export const MAX_RANGE_DAYS = 366;
export const DEFAULT_RANGE_DAYS = 7;
const DAY_MS = 86_400_000;
// A range of whole local days can be an hour longer than its count of days across a DST change.
const DST_SLACK_MS = 3_600_000;

export const timeseriesMetrics = ["messages_received", "messages_sent", "conversations_created", "conversations_closed"] as const;
export type TimeseriesMetric = (typeof timeseriesMetrics)[number];
export const timeseriesIntervals = ["day", "hour"] as const;
export type TimeseriesInterval = (typeof timeseriesIntervals)[number];

const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/;
// ISO 8601 date and time with a zone designator: an instant, never a local time.
const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

type Parsed = { at: Date; dateOnly: boolean } | null;

function parseBound(value: string, timeZone: string, endOfDay: boolean): Parsed {
  const day = dateOnly.exec(value);
  if (day) {
    const [year, month, date] = day.slice(1).map(Number);
    const check = new Date(Date.UTC(year, month - 1, date));
    if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
    // A date alone means that whole day in the report's time zone: `to=2026-11-30` includes the 30th.
    const next = new Date(Date.UTC(year, month - 1, date + (endOfDay ? 1 : 0)));
    return {
      at: zonedTimeToInstant({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), timeZone }),
      dateOnly: true,
    };
  }
  if (!instant.test(value)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : { at, dateOnly: false };
}

const boundMessage = 'must be an ISO 8601 instant ("2026-11-22T10:15:30.123Z") or a date ("2026-11-22")';

/**
 * `from`/`to` of a report: the half-open range [from, to). Defaults: `to` now, `from` 7 days
 * before `to`. A date without a time is a whole day in `tz` (default UTC). At most 366 days.
 */
export const reportRangeQuery = z
  .object({
    from: z.string().optional(),
    to: z.string().optional(),
    tz: z.string().optional(),
  })
  .transform((query, ctx) => {
    const timeZone = query.tz ?? "UTC";
    if (!isValidTimeZone(timeZone)) {
      ctx.addIssue({ code: "custom", path: ["tz"], message: 'must be an IANA time zone such as "Europe/Madrid"' });
      return z.NEVER;
    }
    const from = query.from === undefined ? undefined : parseBound(query.from, timeZone, false);
    const to = query.to === undefined ? undefined : parseBound(query.to, timeZone, true);
    if (from === null) ctx.addIssue({ code: "custom", path: ["from"], message: boundMessage });
    if (to === null) ctx.addIssue({ code: "custom", path: ["to"], message: boundMessage });
    if (from === null || to === null) return z.NEVER;

    const end = to?.at ?? (from ? new Date(Math.min(Date.now(), from.at.getTime() + DEFAULT_RANGE_DAYS * DAY_MS)) : new Date());
    const start = from?.at ?? new Date(end.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
    if (start.getTime() >= end.getTime()) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "must be earlier than to" });
      ctx.addIssue({ code: "custom", path: ["to"], message: "must be later than from" });
      return z.NEVER;
    }
    const slack = from?.dateOnly || to?.dateOnly ? DST_SLACK_MS : 0;
    if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * DAY_MS + slack) {
      ctx.addIssue({ code: "custom", path: ["from"], message: `the range from..to must span at most ${MAX_RANGE_DAYS} days` });
      return z.NEVER;
    }
    return { from: start, to: end, tz: timeZone };
  });
export type ReportRange = z.output<typeof reportRangeQuery>;

export const timeseriesQuery = z
  .object({
    metric: z.enum(timeseriesMetrics, { error: `must be one of ${timeseriesMetrics.join(", ")}` }),
    interval: z.enum(timeseriesIntervals, { error: `must be one of ${timeseriesIntervals.join(", ")}` }).default("day"),
    from: z.string().optional(),
    to: z.string().optional(),
    tz: z.string().optional(),
  })
  .transform((query, ctx) => {
    const range = reportRangeQuery.safeParse({ from: query.from, to: query.to, tz: query.tz });
    if (!range.success) {
      for (const issue of range.error.issues) ctx.addIssue({ code: "custom", path: issue.path as PropertyKey[], message: issue.message });
      return z.NEVER;
    }
    return { metric: query.metric, interval: query.interval, ...range.data };
  });
export type TimeseriesQuery = z.output<typeof timeseriesQuery>;

export type TimeseriesOutput = {
  metric: TimeseriesMetric;
  interval: TimeseriesInterval;
  from: string;
  to: string;
  tz: string;
  data: { t: string; value: number }[];
};

export type FirstResponseStats = {
  /** Conversations whose first inbound message lies in the range and that got a human reply. */
  count: number;
  /** Conversations whose first inbound message lies in the range and that no human has answered yet. */
  unanswered: number;
  median_seconds: number | null;
  avg_seconds: number | null;
  p90_seconds: number | null;
};

export type AgentReport = {
  user_id: string;
  name: string;
  role: "admin" | "agent";
  deleted: boolean;
  messages_sent: number;
  conversations_closed: number;
  assigned_now: number;
  first_responses: number;
  median_first_response_seconds: number | null;
  avg_first_response_seconds: number | null;
};

export type SummaryOutput = {
  from: string;
  to: string;
  tz: string;
  conversations: { created: number; closed: number; open_now: number; unassigned_now: number };
  messages: { received: number; sent: number; sent_by_agents: number; automated: number; failed: number };
  first_response: FirstResponseStats;
  agents: AgentReport[];
};
