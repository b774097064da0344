import { z } from "zod";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { isValidTimeZone, zonedTimeToInstant } from "@/lib/profile/hours";

const MAX_RANGE_DAYS = 366;
const DEFAULT_RANGE_DAYS = 7;
const DAY_MS = 86_400_000;
// A range of whole local days can be an hour longer than its count of days across a DST change.
const DST_SLACK_MS = 3_600_000;

const timeseriesMetrics = ["messages_received", "messages_sent", "conversations_created", "conversations_closed"] as const;
export type TimeseriesMetric = (typeof timeseriesMetrics)[number];
const timeseriesIntervals = ["day", "hour"] as const;

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
 * before `to`. A date without a time is a whole day in `tz` (default: the business's zone, see
 * `inBusinessZone`). At most 366 days.
 */
export const reportRangeFields = z.object({
  from: z.string().optional().meta({
    description: "Start (inclusive): an ISO 8601 instant, or a date meaning the start of that day in `tz`. Default: 7 days before `to`.",
    example: "2026-11-15",
  }),
  to: z.string().optional().meta({
    description: "End (exclusive): an ISO 8601 instant, or a date meaning the end of that day in `tz`. Default: now. At most 366 days after `from`.",
    example: "2026-11-21",
  }),
  tz: z
    .string()
    .optional()
    .meta({
      description:
        "IANA time zone for dates and day buckets. Default: the business time zone (the business profile's opening hours; UTC when none), the one the reports page, the heatmap and export file names use.",
      example: "Europe/Madrid",
    }),
});

export const reportRangeQuery = reportRangeFields.transform((query, ctx) => {
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

    // `to` defaults to now whether or not `from` is given; `from` defaults to 7 days before `to`.
    const end = to?.at ?? new Date();
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
    // Without `tz` the business's zone applies: the range is placed again in it once the account is known.
    return { from: start, to: end, tz: timeZone, zoneGiven: query.tz !== undefined, input: { from: query.from, to: query.to } };
  });
export type ReportRange = z.output<typeof reportRangeQuery>;

export const timeseriesFields = reportRangeFields.extend({
  metric: z.enum(timeseriesMetrics, { error: `must be one of ${timeseriesMetrics.join(", ")}` }).meta({ description: "What to count." }),
  interval: z
    .enum(timeseriesIntervals, { error: `must be one of ${timeseriesIntervals.join(", ")}` })
    .default("day")
    .meta({ description: "Bucket size: days start at midnight in `tz`." }),
});

export const timeseriesQuery = timeseriesFields.transform((query, ctx) => {
    const range = reportRangeQuery.safeParse({ from: query.from, to: query.to, tz: query.tz });
    if (!range.success) {
      for (const issue of range.error.issues) ctx.addIssue({ code: "custom", path: issue.path as PropertyKey[], message: issue.message });
      return z.NEVER;
    }
    return { metric: query.metric, interval: query.interval, ...range.data };
  });
export type TimeseriesQuery = z.output<typeof timeseriesQuery>;

const seconds = (description: string) => z.number().min(0).nullable().meta({ description });

export const timeseriesOutput = z
  .object({
    metric: z.enum(timeseriesMetrics),
    interval: z.enum(timeseriesIntervals),
    from: isoTimestamp("Start of the range (inclusive)."),
    to: isoTimestamp("End of the range (exclusive)."),
    tz: z.string().meta({ example: "UTC" }),
    data: z.array(
      z.object({
        t: isoTimestamp("Start of the bucket (UTC instant)."),
        value: z.int().min(0),
      }),
    ).meta({ description: "One value per bucket, zero-filled, oldest first." }),
  })
  .meta({ id: "ReportTimeseries", description: "A metric counted per day or hour." });
export type TimeseriesOutput = z.infer<typeof timeseriesOutput>;

const firstResponseOutput = z.object({
  count: z.int().min(0).meta({ description: "Conversations whose first inbound message lies in the range and that got a person's reply that reached the network (sent, delivered or read; a failed send is no response)." }),
  unanswered: z.int().min(0).meta({ description: "Conversations whose first inbound message lies in the range that no person's reply has reached yet." }),
  median_seconds: seconds("Median seconds to the first person's reply that reached the network; null without replies."),
  avg_seconds: seconds("Mean seconds to the first person's reply that reached the network."),
  p90_seconds: seconds("90th percentile of seconds to the first person's reply that reached the network."),
});

const agentReportOutput = z.object({
  user_id: prefixedId("user"),
  name: z.string(),
  role: z.enum(["admin", "agent"]),
  deleted: z.boolean().meta({ description: "A deleted user with activity in the range." }),
  messages_sent: z.int().min(0),
  conversations_closed: z.int().min(0).meta({ description: "Conversations closed in the range while assigned to them." }),
  assigned_now: z.int().min(0),
  first_responses: z.int().min(0),
  median_first_response_seconds: seconds("Median seconds of their first responses."),
  avg_first_response_seconds: seconds("Mean seconds of their first responses."),
});
export type AgentReport = z.infer<typeof agentReportOutput>;

const resolutionTimeOutput = z
  .object({
    count: z.int().min(0).meta({ description: "Conversations closed in the range." }),
    median_s: seconds("Median seconds from creation (or the latest reopening) to the close; null without closes."),
    p90_s: seconds("90th percentile of the same seconds (linear interpolation)."),
  })
  .meta({ description: "How long conversations closed in the range took to resolve." });

const csatDistribution = z
  .object({ "1": z.int().min(0), "2": z.int().min(0), "3": z.int().min(0), "4": z.int().min(0), "5": z.int().min(0) })
  .meta({ description: "How many answers gave each score." });

const csatSummaryOutput = z
  .object({
    responses: z.int().min(0).meta({ description: "Survey answers given in the range." }),
    average: z.number().min(1).max(5).nullable().meta({ description: "Mean score, rounded to 2 decimals; null without answers.", example: 4.25 }),
    distribution: csatDistribution,
  })
  .meta({ description: "Customer satisfaction: answers to the survey sent on close, by when they were given." });
export type CsatSummary = z.infer<typeof csatSummaryOutput>;

export const summaryOutput = z
  .object({
    from: isoTimestamp("Start of the range (inclusive)."),
    to: isoTimestamp("End of the range (exclusive)."),
    tz: z.string().meta({ example: "UTC" }),
    conversations: z
      .object({
        created: z.int().min(0),
        closed: z.int().min(0),
        open_now: z.int().min(0).meta({ description: "Open or assigned right now, whatever the range." }),
        unassigned_now: z.int().min(0).meta({ description: "Open (unassigned) right now." }),
      })
      .meta({ description: "Conversations created and closed in the range." }),
    messages: z
      .object({
        received: z.int().min(0),
        sent: z.int().min(0).meta({ description: "Every outbound message: agents, API and automation." }),
        sent_by_agents: z.int().min(0),
        automated: z.int().min(0),
        failed: z.int().min(0),
      })
      .meta({ description: "Messages in the range." }),
    first_response: firstResponseOutput,
    resolution_time: resolutionTimeOutput,
    csat: csatSummaryOutput,
    agents: z.array(agentReportOutput).meta({ description: "Every user (and deleted ones with activity in the range), busiest first." }),
  })
  .meta({ id: "ReportSummary", description: "The figures of the reports page for [from, to)." });
export type SummaryOutput = z.infer<typeof summaryOutput>;

export const agentsReportOutput = z
  .object({
    from: isoTimestamp("Start of the range (inclusive)."),
    to: isoTimestamp("End of the range (exclusive)."),
    tz: z.string().meta({ example: "UTC" }),
    data: z.array(
      z
        .object({
          user: z.object({ id: prefixedId("user"), name: z.string() }),
          assigned: z.int().min(0).meta({ description: "Conversations assigned to them during the range (each conversation once)." }),
          closed: z.int().min(0).meta({ description: "Conversations closed in the range while assigned to them." }),
          messages_sent: z.int().min(0).meta({ description: "Their messages in the range, except the ones the network refused (failed)." }),
          first_response_median_s: seconds("Median seconds of the first responses they gave (conversations whose first customer message lies in the range)."),
          resolution_median_s: seconds("Median resolution seconds of the conversations closed in the range while assigned to them."),
          csat_average: z.number().min(1).max(5).nullable().meta({ description: "Mean survey score given in the range to conversations assigned to them, rounded to 2 decimals.", example: 4.5 }),
        })
        .meta({ id: "AgentPerformance" }),
    ).meta({ description: "Every current user, and deleted ones with activity in the range, in the order they joined." }),
  })
  .meta({ id: "ReportAgents", description: "Each agent's workload, speed and customer satisfaction over [from, to)." });
export type AgentsReportOutput = z.infer<typeof agentsReportOutput>;

export const heatmapWeekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

export const heatmapOutput = z
  .object({
    from: isoTimestamp("Start of the range (inclusive)."),
    to: isoTimestamp("End of the range (exclusive)."),
    tz: z.string().meta({ description: "The zone of date-only `from`/`to`.", example: "UTC" }),
    time_zone: z.string().meta({ description: "The business time zone (the business profile's opening hours; UTC when none) the weekdays and hours are counted in.", example: "America/Sao_Paulo" }),
    total: z.int().min(0).meta({ description: "Inbound messages in the range." }),
    data: z
      .array(
        z.object({
          weekday: z.enum(heatmapWeekdays),
          hours: z.array(z.int().min(0)).length(24).meta({ description: "Inbound messages per local hour, 00 to 23." }),
        }),
      )
      .length(7)
      .meta({ description: "Monday first." }),
  })
  .meta({ id: "ReportHeatmap", description: "When customers write: inbound messages by weekday and hour on the business's clock (daylight saving applied)." });
export type HeatmapOutput = z.infer<typeof heatmapOutput>;

export const spendOutput = z
  .strictObject({
    from: z.string(),
    to: z.string(),
    tz: z.string(),
    currency: z.string().meta({ description: "The price table's currency.", example: "EUR" }),
    months: z.array(
      z.strictObject({
        month: z.string().meta({ description: "The month in `tz`, `YYYY-MM`.", example: "2026-11" }),
        categories: z.array(
          z.strictObject({
            category: z.string().meta({ description: "The network's pricing category.", example: "marketing" }),
            messages: z.int().min(0).meta({ description: "Billable messages sent that month in this category." }),
            amount: z.number().min(0).meta({ description: "Their cost by the price table." }),
          }),
        ),
        total: z.number().min(0),
      }),
    ),
    total: z.number().min(0),
    unpriced_messages: z.int().min(0).meta({ description: "Billable messages the table has no price for (their category or country has no row and there is no `*` row)." }),
  })
  .meta({
    id: "SpendReport",
    description:
      "Monthly spend by pricing category: billable outbound messages sent in the range (as the network's statuses reported them), each priced by the current price table for the recipient's country and the reported category.",
  });
export type SpendOutput = z.infer<typeof spendOutput>;
