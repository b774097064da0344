import { reportRangeFields, summaryOutput, timeseriesFields, timeseriesOutput } from "@/lib/reports/schemas";
import { operationsFor, type V1Domain } from "../v1-common";

const tag = { name: "Reports", description: "Activity of the inbox over a period." };
const op = operationsFor(tag.name);

export const reportsDomain: V1Domain = {
  tag,
  paths: {
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
