import { z } from "zod";
import { operationsFor, timestamp, type V1Domain } from "../v1-common";

// Written from SPEC section 4. When lib/reports/schemas.ts exists, its public schemas
// replace these so the document and the handlers share one definition.

const tag = { name: "Reports", description: "Activity of the inbox over a period." };
const op = operationsFor(tag.name);

const period = {
  from: z.string().optional().meta({ format: "date-time", description: "Start (inclusive); 7 days before `to` by default.", example: "2026-11-15T00:00:00.000Z" }),
  to: z.string().optional().meta({ format: "date-time", description: "End (exclusive); now by default. At most 366 days after `from`.", example: "2026-11-22T00:00:00.000Z" }),
};

export const reportMetrics = ["messages_received", "messages_sent", "conversations_created", "conversations_closed"] as const;

export const summaryOutput = z
  .looseObject({
    from: timestamp(),
    to: timestamp(),
    messages_received: z.int().min(0).optional(),
    messages_sent: z.int().min(0).optional(),
    conversations_created: z.int().min(0).optional(),
    conversations_closed: z.int().min(0).optional(),
  })
  .meta({ id: "ReportSummary", description: "Totals of the period." });

export const timeseriesOutput = z
  .looseObject({
    data: z.array(z.object({ t: timestamp("Start of the bucket."), value: z.number() })),
  })
  .meta({ id: "ReportTimeseries" });

export const reportsDomain: V1Domain = {
  tag,
  paths: {
    "/v1/reports/summary": {
      get: op({
        operationId: "getReportSummary",
        summary: "Summary of a period",
        access: { scope: "reports:read" },
        query: z.object(period),
        success: { status: "200", description: "The summary.", schema: summaryOutput },
      }),
    },
    "/v1/reports/timeseries": {
      get: op({
        operationId: "getReportTimeseries",
        summary: "A metric over time",
        access: { scope: "reports:read" },
        query: z.object({ metric: z.enum(reportMetrics), interval: z.enum(["day", "hour"]).optional(), ...period }),
        success: { status: "200", description: "One value per bucket.", schema: timeseriesOutput },
      }),
    },
  },
};
