"use client";

import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Alert, Card } from "@/components/ui/card";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { requestJson } from "@/lib/client/api";
import type { AgentsReportOutput, HeatmapOutput, SummaryOutput, TimeseriesOutput } from "@/lib/reports/schemas";
import { CsatCard } from "./csat-card";
import { HeatmapGrid } from "./heatmap-grid";
import { SlaAttainmentCard } from "./sla-attainment-card";
import { SpendCard } from "./spend-card";

const chartMargin = { top: 5, right: 10, bottom: 5, left: -10 };

/**
 * The grid, axes, tooltip and legend every chart of the page shares (a list, as recharts reads
 * its direct children); counts on the axis and in the tooltip in the reader's number format.
 */
const chartAxes = (number: (value: number) => string) => [
  <CartesianGrid key="grid" strokeDasharray="3 3" stroke="#e2e8f0" />,
  <XAxis key="x" dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />,
  <YAxis key="y" allowDecimals={false} tick={{ fontSize: 11 }} tickFormatter={(value: number) => number(value)} />,
  <Tooltip key="tooltip" formatter={(value) => (typeof value === "number" ? number(value) : String(value ?? ""))} />,
  <Legend key="legend" />,
];

function ChartCard({ caption, testId, children }: { caption: string; testId: string; children: React.ReactElement }) {
  return (
    <Card className="p-4">
      <figure>
        <figcaption className="text-sm font-semibold">{caption}</figcaption>
        {/* Axis ticks and tooltips are dates and counts Intl wrote in the reader's language. */}
        <div className="mt-3 h-64" data-testid={testId} translate="no">
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
  | { ok: false; error: { status: number; code?: string } };
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
  if (failed && !failed.ok) return { ok: false, error: failed };
  if (!summary.ok || !agents.ok || !heatmap.ok) return { ok: false, error: { status: 500 } };
  const byMetric = Object.fromEntries(metrics.map((metric, index) => [metric, (series[index] as { data: TimeseriesOutput }).data]));
  return { ok: true, summary: summary.data, agents: agents.data, heatmap: heatmap.data, series: byMetric as Record<(typeof metrics)[number], TimeseriesOutput> };
}

function StatCard({ label, value, detail, testId }: { label: string; value: React.ReactNode; detail?: string; testId: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{value}</p>
      {detail ? <p className="mt-0.5 text-xs text-slate-500">{detail}</p> : null}
    </div>
  );
}

/** `timeZone`: the business's zone, in which every range, figure and bucket of the page is read. */
export function ReportsDashboard({ timeZone }: { timeZone: string }) {
  const [preset, setPreset] = useState<Preset>("7");
  const [customFrom, setCustomFrom] = useState("");
  const [customTo, setCustomTo] = useState("");
  const [interval, setChartInterval] = useState<Interval>("day");
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded>();
  const t = useTranslations("reports");
  const locale = useLocale();
  const formatter = useFormatter();
  const appFormat = useAppFormat();
  const errorMessage = useApiErrorMessage();
  const number = (value: number) => formatter.number(value);
  // A duration as Intl writes it in the reader's language ("3 min 20 s"), machine-readable too.
  const formatDuration = (seconds: number | null | undefined) =>
    seconds === null || seconds === undefined ? "—" : <time dateTime={`PT${Math.round(seconds)}S`}>{appFormat.duration(seconds)}</time>;
  const durationText = appFormat.duration;

  const today = timeZone ? todayIn(timeZone) : null;
  const range = useMemo(() => {
    if (!today) return null;
    if (preset !== "custom") return { from: addDays(today, -(Number(preset) - 1)), to: today, error: null };
    if (!customFrom || !customTo) return { from: customFrom, to: customTo, error: t("range.chooseBoth") };
    if (customFrom > customTo) return { from: customFrom, to: customTo, error: t("range.startAfterEnd") };
    if (daysBetween(customFrom, customTo) > MAX_DAYS) return { from: customFrom, to: customTo, error: t("range.tooLong", { days: MAX_DAYS }) };
    return { from: customFrom, to: customTo, error: null };
  }, [today, preset, customFrom, customTo, t]);
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
        ? new Intl.DateTimeFormat(locale, { timeZone: zone, month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
        : new Intl.DateTimeFormat(locale, { timeZone: zone, month: "short", day: "numeric" });
    return (iso: string) => format.format(new Date(iso));
  }, [timeZone, effectiveInterval, locale]);

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
              {t("range.label")}
            </span>
            <div role="group" aria-labelledby="range-label" className="flex flex-wrap gap-1 rounded-lg border border-slate-200 bg-white p-1">
              {presetButton("7", t("range.last7"))}
              {presetButton("30", t("range.last30"))}
              {presetButton("90", t("range.last90"))}
              {presetButton("custom", t("range.custom"))}
            </div>
          </div>
          {preset === "custom" ? (
            <div className="flex flex-wrap items-end gap-3">
              <div className="flex flex-col gap-1">
                <label htmlFor="report-from" className="text-sm font-medium text-slate-700">
                  {t("range.from")}
                </label>
                <input id="report-from" type="date" value={customFrom} max={customTo || today || undefined} onChange={(event) => setCustomFrom(event.target.value)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm" />
              </div>
              <div className="flex flex-col gap-1">
                <label htmlFor="report-to" className="text-sm font-medium text-slate-700">
                  {t("range.to")}
                </label>
                <input id="report-to" type="date" value={customTo} min={customFrom || undefined} onChange={(event) => setCustomTo(event.target.value)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm" />
              </div>
            </div>
          ) : null}
          <div className="flex flex-col gap-1">
            <label htmlFor="report-interval" className="text-sm font-medium text-slate-700">
              {t("range.chartsBy")}
            </label>
            <select id="report-interval" value={effectiveInterval} onChange={(event) => setChartInterval(event.target.value as Interval)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm">
              <option value="day">{t("range.day")}</option>
              <option value="hour" disabled={days > HOURLY_MAX_DAYS}>
                {days > HOURLY_MAX_DAYS ? t("range.hourAtMost", { days: HOURLY_MAX_DAYS }) : t("range.hour")}
              </option>
            </select>
          </div>
          {rangeQuery ? (
            <a
              href={`/v1/reports/export?${rangeQuery}`}
              download
              className="inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600 sm:ms-auto"
            >
              {t("range.exportCsv")}
            </a>
          ) : null}
        </div>
        {range?.error ? (
          <p className="mt-3 text-sm text-red-600" role="alert">
            {range.error}
          </p>
        ) : null}
        <p className="mt-3 text-xs text-slate-500">
          {range && !range.error
            ? t("range.wholeDays", { from: formatter.dateTime(new Date(`${range.from}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" }), to: formatter.dateTime(new Date(`${range.to}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" }), zone: timeZone.replaceAll("_", " ") })
            : timeZone
              ? t("range.inZone", { zone: timeZone.replaceAll("_", " ") })
              : ""}
        </p>
        <div className="mt-2 h-1 overflow-hidden rounded-full bg-slate-100" role="progressbar" aria-label={t("loading")} aria-hidden={!loading} aria-busy={loading}>
          {loading ? <div className="h-full w-1/3 animate-[pulse_1s_ease-in-out_infinite] rounded-full bg-brand-500" /> : null}
        </div>
        {loading ? (
          <p className="sr-only" role="status">
            {t("loading")}
          </p>
        ) : null}
      </Card>

      {loaded && !loaded.ok && loaded.key === requestKey ? (
        <Alert>
          {errorMessage(loaded.error)}{" "}
          <button type="button" className="font-medium underline" onClick={() => setAttempt((n) => n + 1)}>
            {t("tryAgain")}
          </button>
        </Alert>
      ) : null}

      {!summary ? (
        <Card>
          <p className="text-sm text-slate-600">{loading || !timeZone ? t("loading") : t("noReport")}</p>
        </Card>
      ) : (
        <div className={`flex flex-col gap-6 transition-opacity ${loading ? "opacity-60" : ""}`}>
          <section aria-label={t("summary.label")} className="grid grid-cols-2 items-start gap-3 lg:grid-cols-3">
            <StatCard testId="stat-conversations-created" label={t("summary.newConversations")} value={number(summary.conversations.created)} detail={t("summary.closedInRange", { count: summary.conversations.closed })} />
            <StatCard testId="stat-open-now" label={t("summary.openNow")} value={number(summary.conversations.open_now)} detail={t("summary.unassigned", { count: summary.conversations.unassigned_now })} />
            <StatCard testId="stat-messages-received" label={t("summary.messagesReceived")}
              value={number(summary.messages.received)}
              detail={t("summary.sentAutomated", { sent: summary.messages.sent, automated: summary.messages.automated })}
            />
            <StatCard
              testId="stat-first-response"
              label={t("summary.medianFirstResponse")}
              value={formatDuration(summary.first_response.median_seconds)}
              detail={t("summary.firstResponseDetail", { answered: summary.first_response.count, waiting: summary.first_response.unanswered, p90: durationText(summary.first_response.p90_seconds) })}
            />
            <StatCard
              testId="stat-resolution"
              label={t("summary.medianResolution")}
              value={formatDuration(summary.resolution_time.median_s)}
              detail={t("summary.resolutionDetail", { count: summary.resolution_time.count, p90: durationText(summary.resolution_time.p90_s) })}
            />
            <CsatCard csat={summary.csat} />
          </section>

          <SpendCard query={rangeQuery} />

          <div className="grid gap-6 xl:grid-cols-2">
            <ChartCard caption={effectiveInterval === "hour" ? t("charts.messagesPerHour") : t("charts.messagesPerDay")} testId="chart-messages">
              <LineChart data={messagesSeries} margin={chartMargin}>
                {chartAxes(number)}
                <Line type="monotone" dataKey="received" name={t("charts.received")} stroke="#178059" strokeWidth={2} dot={messagesSeries.length <= 31} isAnimationActive={false} />
                <Line type="monotone" dataKey="sent" name={t("charts.sent")} stroke="#6366f1" strokeWidth={2} dot={messagesSeries.length <= 31} isAnimationActive={false} />
              </LineChart>
            </ChartCard>
            <ChartCard caption={effectiveInterval === "hour" ? t("charts.conversationsPerHour") : t("charts.conversationsPerDay")} testId="chart-conversations">
              <BarChart data={conversationsSeries} margin={chartMargin}>
                {chartAxes(number)}
                <Bar dataKey="created" name={t("charts.created")} fill="#1f9d6b" isAnimationActive={false} />
                <Bar dataKey="closed" name={t("charts.closed")} fill="#94a3b8" isAnimationActive={false} />
              </BarChart>
            </ChartCard>
          </div>

          <Card className="p-0">
            <div className="border-b border-slate-200 px-6 py-4">
              <h2 className="text-base font-semibold">{t("agents.title")}</h2>
              <p className="mt-1 text-xs text-slate-500">
                {t("agents.explanation")}
              </p>
            </div>
            <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t("agents.tableRegion")}>
              <table className="w-full text-start text-sm" aria-label={t("agents.title")}>
                <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-6 py-2 font-medium">{t("agents.agent")}</th>
                    <th scope="col" className="px-3 py-2 text-end font-medium">{t("agents.assigned")}</th>
                    <th scope="col" className="px-3 py-2 text-end font-medium">{t("agents.closed")}</th>
                    <th scope="col" className="px-3 py-2 text-end font-medium">{t("agents.messagesSent")}</th>
                    <th scope="col" className="px-3 py-2 text-end font-medium">{t("agents.medianFirstResponse")}</th>
                    <th scope="col" className="px-3 py-2 text-end font-medium">{t("agents.medianResolution")}</th>
                    <th scope="col" className="px-6 py-2 text-end font-medium">{t("agents.satisfaction")}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {data.agents.data.map((agent) => (
                    <tr key={agent.user.id} data-testid={`agent-${agent.user.id}`}>
                      <td className="whitespace-nowrap px-6 py-3 font-medium" data-user-content>
                        {agent.user.name}
                      </td>
                      <td className="px-3 py-3 text-end tabular-nums" data-col="assigned">{number(agent.assigned)}</td>
                      <td className="px-3 py-3 text-end tabular-nums" data-col="closed">{number(agent.closed)}</td>
                      <td className="px-3 py-3 text-end tabular-nums" data-col="messages_sent">{number(agent.messages_sent)}</td>
                      <td className="whitespace-nowrap px-3 py-3 text-end tabular-nums" data-col="first_response_median_s">{formatDuration(agent.first_response_median_s)}</td>
                      <td className="whitespace-nowrap px-3 py-3 text-end tabular-nums" data-col="resolution_median_s">{formatDuration(agent.resolution_median_s)}</td>
                      <td className="px-6 py-3 text-end tabular-nums" data-col="csat_average">{agent.csat_average === null ? "—" : formatter.number(agent.csat_average, { maximumFractionDigits: 2 })}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Card>

          <Card className="p-4">
            <h2 className="text-base font-semibold">{t("heatmap.title")}</h2>
            <p className="mt-1 text-xs text-slate-500">
              {t.rich("heatmap.description", {
                zone: data.heatmap.time_zone.replaceAll("_", " "),
                total: () => <span data-testid="heatmap-total">{number(data.heatmap.total)}</span>,
              })}
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
