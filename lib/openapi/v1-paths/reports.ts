import { z } from "zod";
import { EXPORT_COLUMNS } from "@/lib/reports/export";
import { agentsReportOutput, heatmapOutput, reportRangeFields, spendOutput, summaryOutput, timeseriesFields, timeseriesOutput } from "@/lib/reports/schemas";
import { operationsFor, type V1Domain } from "../v1-common";

const tag = { name: "Reports", description: "Activity of the inbox over a period." };
const op = operationsFor(tag.name);

export const reportsDomain: V1Domain = {
  tag,
  paths: {
    "/v1/reports/spend": {
      get: op({
        operationId: "getReportSpend",
        summary: "Monthly spend by pricing category",
        description:
          "Outbound messages sent in [from, to) that the network's statuses reported billable, by month (in `tz`) and the pricing category the network reported, each priced by the account's current price table for the recipient's country calling code (`*` otherwise). Messages the table cannot price are counted in `unpriced_messages`. The range defaults to the last 7 days and spans at most 366 days.",
        access: { scope: "reports:read" },
        query: reportRangeFields,
        success: { status: "200", description: "Spend per month and category.", schema: spendOutput },
      }),
    },
    "/v1/reports/summary": {
      get: op({
        operationId: "getReportSummary",
        summary: "Summary of a period",
        description: "Conversations and messages in [from, to), first-response times, and each user's activity. The range defaults to the last 7 days and spans at most 366 days.",
        access: { scope: "reports:read" },
        query: reportRangeFields,
        success: { status: "200", description: "The summary.", schema: summaryOutput },
      }),
    },
    "/v1/reports/agents": {
      get: op({
        operationId: "getReportAgents",
        summary: "Each agent's figures",
        description:
          "Per user: conversations assigned to them and closed by them in [from, to), messages sent, median first response and resolution times, and the mean satisfaction score of their conversations. A range over 366 days, or `to` before `from`, is a 400.",
        access: { scope: "reports:read" },
        query: reportRangeFields,
        success: { status: "200", description: "One entry per user.", schema: agentsReportOutput },
      }),
    },
    "/v1/reports/heatmap": {
      get: op({
        operationId: "getReportHeatmap",
        summary: "When customers write",
        description:
          "Inbound messages of [from, to) by weekday × hour in the business time zone (the business profile's opening hours; UTC when none), daylight saving applied per message. `tz` only places date-only bounds.",
        access: { scope: "reports:read" },
        query: reportRangeFields,
        success: { status: "200", description: "Seven weekdays of 24 hours.", schema: heatmapOutput },
      }),
    },
    "/v1/reports/export": {
      get: op({
        operationId: "exportConversations",
        summary: "Export conversations as CSV",
        description: `The conversations created in [from, to), oldest first, as CSV (RFC 4180, header row, CRLF): ${EXPORT_COLUMNS.map((c) => `\`${c}\``).join(", ")}. Times are ISO 8601 UTC, durations in seconds, empty when there is none; \`labels\` lists label names separated by \`;\`. Text a spreadsheet would run as a formula starts with an apostrophe.`,
        access: { scope: "reports:read" },
        query: reportRangeFields,
        success: {
          status: "200",
          description: "The CSV file.",
          headers: {
            "Content-Disposition": z.string().meta({ description: "`attachment`, with a file name naming the range.", example: 'attachment; filename="conversations-2026-11-01-2026-11-30.csv"' }),
          },
          content: { "text/csv": { schema: z.string().meta({ description: "One header row, then one row per conversation." }) } },
        },
      }),
    },
    "/v1/reports/timeseries": {
      get: op({
        operationId: "getReportTimeseries",
        summary: "A metric over time",
        description: "One value per day or hour of [from, to), zero-filled. Day buckets start at midnight in `tz`.",
        access: { scope: "reports:read" },
        query: timeseriesFields,
        success: { status: "200", description: "One value per bucket.", schema: timeseriesOutput },
      }),
    },
  },
};
