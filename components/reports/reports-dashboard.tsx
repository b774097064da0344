"use client";

import { useEffect, useMemo, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Alert, Card } from "@/components/ui/card";
import { formatDuration } from "@/components/ui/format";
import { requestJson } from "@/lib/client/api";
import type { AgentsReportOutput, HeatmapOutput, SummaryOutput, TimeseriesOutput } from "@/lib/reports/schemas";
import { CsatCard } from "./csat-card";
import { HeatmapGrid } from "./heatmap-grid";
import { SlaAttainmentCard } from "./sla-attainment-card";
import { SpendCard } from "./spend-card";

const chartMargin = { top: 5, right: 10, bottom: 5, left: -10 };

/** The grid, axes, tooltip and legend every chart of the page shares (a list, as recharts reads its direct children). */
const chartAxes = [
  <CartesianGrid key="grid" strokeDasharray="3 3" stroke="#e2e8f0" />,
  <XAxis key="x" dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />,
  <YAxis key="y" allowDecimals={false} tick={{ fontSize: 11 }} />,
  <Tooltip key="tooltip" />,
  <Legend key="legend" />,
];

function ChartCard({ caption, testId, children }: { caption: string; testId: string; children: React.ReactElement }) {
  return (
    <Card className="p-4">
      <figure>
        <figcaption className="text-sm font-semibold">{caption}</figcaption>
        <div className="mt-3 h-64" data-testid={testId}>
          <ResponsiveContainer width="100%" height="100%">
            {children}
          </ResponsiveContainer>
        </div>
      </figure>
    </Card>
  );
}

type Preset = "7" | "30" | "90" | "custom";
type Interval = "day" | "hour";
const metrics = ["messages_received", "messages_sent", "conversations_created", "conversations_closed"] as const;
const MAX_DAYS = 366;
const HOURLY_MAX_DAYS = 14;

type ReportData =
  | { ok: true; summary: SummaryOutput; agents: AgentsReportOutput; heatmap: HeatmapOutput; series: Record<(typeof metrics)[number], TimeseriesOutput> }
  | { ok: false; message: string };
type Loaded = ReportData & { key: string };

/** Today's date (YYYY-MM-DD) on the wall clock of `timeZone`. */
function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

async function loadReports(query: string, range: string): Promise<ReportData> {
  const [summary, agents, heatmap, ...series] = await Promise.all([
    requestJson<SummaryOutput>("GET", `/v1/reports/summary?${range}`),
    requestJson<AgentsReportOutput>("GET", `/v1/reports/agents?${range}`),
    requestJson<HeatmapOutput>("GET", `/v1/reports/heatmap?${range}`),
    ...metrics.map((metric) => requestJson<TimeseriesOutput>("GET", `/v1/reports/timeseries?metric=${metric}&${query}`)),
  ]);
  const failed = [summary, agents, heatmap, ...series].find((result) => !result.ok);
  if (failed && !failed.ok) return { ok: false, message: failed.message };
  if (!summary.ok || !agents.ok || !heatmap.ok) return { ok: false, message: "The reports could not be loaded." };
  const byMetric = Object.fromEntries(metrics.map((metric, index) => [metric, (series[index] as { data: TimeseriesOutput }).data]));
  return { ok: true, summary: summary.data, agents: agents.data, heatmap: heatmap.data, series: byMetric as Record<(typeof metrics)[number], TimeseriesOutput> };
}

function StatCard({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{value}</p>
      {detail ? <p className="mt-0.5 text-xs text-slate-500">{detail}</p> : null}
    </div>
  );
}

const number = (value: number) => value.toLocaleString("en");

/** `timeZone`: the business's zone, in which every range, figure and bucket of the page is read. */
export function ReportsDashboard({ timeZone }: { timeZone: string }) {
  const [preset, setPreset] = useState<Preset>("7");
  const [customFrom, setCustomFrom] = useState("");
  const [customTo, setCustomTo] = useState("");
  const [interval, setChartInterval] = useState<Interval>("day");
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded>();

  const today = timeZone ? todayIn(timeZone) : null;
  const range = useMemo(() => {
    if (!today) return null;
    if (preset !== "custom") return { from: addDays(today, -(Number(preset) - 1)), to: today, error: null };
    if (!customFrom || !customTo) return { from: customFrom, to: customTo, error: "Choose both dates." };
    if (customFrom > customTo) return { from: customFrom, to: customTo, error: "The start date must not be after the end date." };
    if (daysBetween(customFrom, customTo) > MAX_DAYS) return { from: customFrom, to: customTo, error: `A report covers at most ${MAX_DAYS} days.` };
    return { from: customFrom, to: customTo, error: null };
  }, [today, preset, customFrom, customTo]);
  const days = range && !range.error ? daysBetween(range.from, range.to) : 0;
  const effectiveInterval: Interval = interval === "hour" && days <= HOURLY_MAX_DAYS ? "hour" : "day";
  const rangeQuery = timeZone && range && !range.error ? `from=${range.from}&to=${range.to}&tz=${encodeURIComponent(timeZone)}` : null;
  const key = rangeQuery ? `${rangeQuery}&interval=${effectiveInterval}` : null;
  const requestKey = key ? `${key}#${attempt}` : null;

  useEffect(() => {
    if (!key || !requestKey || !rangeQuery) return;
    let current = true;
    loadReports(key, rangeQuery).then((result) => {
      if (current) setLoaded({ ...result, key: requestKey });
    });
    return () => {
      current = false;
    };
  }, [key, requestKey, rangeQuery]);

  const loading = requestKey !== null && loaded?.key !== requestKey;
  const data = loaded?.ok ? loaded : undefined;

  const formatBucket = useMemo(() => {
    const zone = timeZone ?? "UTC";
    const format =
      effectiveInterval === "hour"
        ? new Intl.DateTimeFormat("en", { timeZone: zone, month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
        : new Intl.DateTimeFormat("en", { timeZone: zone, month: "short", day: "numeric" });
    return (iso: string) => format.format(new Date(iso));
  }, [timeZone, effectiveInterval]);

  const messagesSeries = data
    ? data.series.messages_received.data.map((point, index) => ({
        label: formatBucket(point.t),
        received: point.value,
        sent: data.series.messages_sent.data[index]?.value ?? 0,
      }))
    : [];
  const conversationsSeries = data
    ? data.series.conversations_created.data.map((point, index) => ({
        label: formatBucket(point.t),
        created: point.value,
        closed: data.series.conversations_closed.data[index]?.value ?? 0,
      }))
    : [];

  const summary = data?.summary;
  const presetButton = (value: Preset, label: string) => (
    <button
      key={value}
      type="button"
      aria-pressed={preset === value}
      onClick={() => {
        setPreset(value);
        if (value === "custom" && today && !customFrom) {
          setCustomFrom(addDays(today, -13));
          setCustomTo(today);
        }
      }}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ${preset === value ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`}
    >
      {label}
    </button>
  );

  return (
    <div className="flex flex-col gap-6" aria-busy={loading}>
      <Card className="p-4">
        <div className="flex flex-wrap items-end gap-4">
          <div className="flex flex-col gap-1">
            <span id="range-label" className="text-sm font-medium text-slate-700">
              Range
            </span>
            <div role="group" aria-labelledby="range-label" className="flex flex-wrap gap-1 rounded-lg border border-slate-200 bg-white p-1">
              {presetButton("7", "Last 7 days")}
              {presetButton("30", "Last 30 days")}
              {presetButton("90", "Last 90 days")}
              {presetButton("custom", "Custom")}
            </div>
          </div>
          {preset === "custom" ? (
            <div className="flex flex-wrap items-end gap-3">
              <div className="flex flex-col gap-1">
                <label htmlFor="report-from" className="text-sm font-medium text-slate-700">
                  From
                </label>
                <input id="report-from" type="date" value={customFrom} max={customTo || today || undefined} onChange={(event) => setCustomFrom(event.target.value)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm" />
              </div>
              <div className="flex flex-col gap-1">
                <label htmlFor="report-to" className="text-sm font-medium text-slate-700">
                  To
                </label>
                <input id="report-to" type="date" value={customTo} min={customFrom || undefined} onChange={(event) => setCustomTo(event.target.value)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm" />
              </div>
            </div>
          ) : null}
          <div className="flex flex-col gap-1">
            <label htmlFor="report-interval" className="text-sm font-medium text-slate-700">
              Charts by
            </label>
            <select id="report-interval" value={effectiveInterval} onChange={(event) => setChartInterval(event.target.value as Interval)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm">
              <option value="day">Day</option>
              <option value="hour" disabled={days > HOURLY_MAX_DAYS}>
                Hour{days > HOURLY_MAX_DAYS ? ` (${HOURLY_MAX_DAYS} days at most)` : ""}
              </option>
            </select>
          </div>
          {rangeQuery ? (
            <a
              href={`/v1/reports/export?${rangeQuery}`}
              download
              className="inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600 sm:ml-auto"
            >
              Export CSV
            </a>
          ) : null}
        </div>
        {range?.error ? (
          <p className="mt-3 text-sm text-red-600" role="alert">
            {range.error}
          </p>
        ) : null}
        <p className="mt-3 text-xs text-slate-500">
          {range && !range.error ? `${range.from} to ${range.to}, whole days` : ""}
          {timeZone ? ` in ${timeZone.replaceAll("_", " ")}.` : ""}
        </p>
        <div className="mt-2 h-1 overflow-hidden rounded-full bg-slate-100" role="progressbar" aria-label="Loading reports" aria-hidden={!loading} aria-busy={loading}>
          {loading ? <div className="h-full w-1/3 animate-[pulse_1s_ease-in-out_infinite] rounded-full bg-brand-500" /> : null}
        </div>
        {loading ? (
          <p className="sr-only" role="status">
            Loading reports…
          </p>
        ) : null}
      </Card>

      {loaded && !loaded.ok && loaded.key === requestKey ? (
        <Alert>
          {loaded.message}{" "}
          <button type="button" className="font-medium underline" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </Alert>
      ) : null}

      {!summary ? (
        <Card>
          <p className="text-sm text-slate-600">{loading || !timeZone ? "Loading reports…" : "No report yet."}</p>
        </Card>
      ) : (
        <div className={`flex flex-col gap-6 transition-opacity ${loading ? "opacity-60" : ""}`}>
          <section aria-label="Summary" className="grid grid-cols-2 items-start gap-3 lg:grid-cols-3">
            <StatCard testId="stat-conversations-created" label="New conversations" value={number(summary.conversations.created)} detail={`${number(summary.conversations.closed)} closed in the range`} />
            <StatCard testId="stat-open-now" label="Open now" value={number(summary.conversations.open_now)} detail={`${number(summary.conversations.unassigned_now)} unassigned`} />
            <StatCard testId="stat-messages-received" label="Messages received" value={number(summary.messages.received)} detail={`${number(summary.messages.sent)} sent, ${number(summary.messages.automated)} automated`} />
            <StatCard
              testId="stat-first-response"
              label="Median first response"
              value={formatDuration(summary.first_response.median_seconds)}
              detail={`${number(summary.first_response.count)} answered · ${number(summary.first_response.unanswered)} waiting · p90 ${formatDuration(summary.first_response.p90_seconds)}`}
            />
            <StatCard
              testId="stat-resolution"
              label="Median resolution"
              value={formatDuration(summary.resolution_time.median_s)}
              detail={`${number(summary.resolution_time.count)} resolved · p90 ${formatDuration(summary.resolution_time.p90_s)}`}
            />
            <CsatCard csat={summary.csat} />
          </section>

          <SpendCard query={rangeQuery} />

          <div className="grid gap-6 xl:grid-cols-2">
            <ChartCard caption={`Messages per ${effectiveInterval}`} testId="chart-messages">
              <LineChart data={messagesSeries} margin={chartMargin}>
                {chartAxes}
                <Line type="monotone" dataKey="received" name="Received" stroke="#178059" strokeWidth={2} dot={messagesSeries.length <= 31} isAnimationActive={false} />
                <Line type="monotone" dataKey="sent" name="Sent" stroke="#6366f1" strokeWidth={2} dot={messagesSeries.length <= 31} isAnimationActive={false} />
              </LineChart>
            </ChartCard>
            <ChartCard caption={`Conversations per ${effectiveInterval}`} testId="chart-conversations">
              <BarChart data={conversationsSeries} margin={chartMargin}>
                {chartAxes}
                <Bar dataKey="created" name="Created" fill="#1f9d6b" isAnimationActive={false} />
                <Bar dataKey="closed" name="Closed" fill="#94a3b8" isAnimationActive={false} />
              </BarChart>
            </ChartCard>
          </div>

          <Card className="p-0">
            <div className="border-b border-slate-200 px-6 py-4">
              <h2 className="text-base font-semibold">Agents</h2>
              <p className="mt-1 text-xs text-slate-500">
                First response: from a conversation&apos;s first customer message to the first reply by a person that reached the customer (automatic answers and failed sends do not count). Resolution: from creation or reopening to the close.
              </p>
            </div>
            <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Agents table">
              <table className="w-full text-left text-sm" aria-label="Agents">
                <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-6 py-2 font-medium">Agent</th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">Assigned</th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">Closed</th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">Messages sent</th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">Median first response</th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">Median resolution</th>
                    <th scope="col" className="px-6 py-2 text-right font-medium">Satisfaction</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {data.agents.data.map((agent) => (
                    <tr key={agent.user.id} data-testid={`agent-${agent.user.id}`}>
                      <td className="whitespace-nowrap px-6 py-3 font-medium">{agent.user.name}</td>
                      <td className="px-3 py-3 text-right tabular-nums" data-col="assigned">{number(agent.assigned)}</td>
                      <td className="px-3 py-3 text-right tabular-nums" data-col="closed">{number(agent.closed)}</td>
                      <td className="px-3 py-3 text-right tabular-nums" data-col="messages_sent">{number(agent.messages_sent)}</td>
                      <td className="whitespace-nowrap px-3 py-3 text-right tabular-nums" data-col="first_response_median_s">{formatDuration(agent.first_response_median_s)}</td>
                      <td className="whitespace-nowrap px-3 py-3 text-right tabular-nums" data-col="resolution_median_s">{formatDuration(agent.resolution_median_s)}</td>
                      <td className="px-6 py-3 text-right tabular-nums" data-col="csat_average">{agent.csat_average === null ? "—" : agent.csat_average.toLocaleString("en", { maximumFractionDigits: 2 })}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Card>

          <Card className="p-4">
            <h2 className="text-base font-semibold">When customers write</h2>
            <p className="mt-1 text-xs text-slate-500">
              Customer messages by weekday and hour, on the business&apos;s clock ({data.heatmap.time_zone.replaceAll("_", " ")}): <span data-testid="heatmap-total">{number(data.heatmap.total)}</span> in the range.
            </p>
            <div className="mt-3">
              <HeatmapGrid heatmap={data.heatmap} />
            </div>
          </Card>

          <SlaAttainmentCard rangeQuery={rangeQuery} />
        </div>
      )}
    </div>
  );
}
