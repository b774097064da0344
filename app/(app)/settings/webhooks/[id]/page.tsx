import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { getAppFormat } from "@/components/i18n/get-app-format";
import { notFound } from "next/navigation";
import { RetryButton } from "@/components/settings/webhooks/retry-button";
import { StatsChart } from "@/components/settings/webhooks/stats-chart";
import { StatusBadge } from "@/components/settings/webhooks/status-badge";
import { WebhookActions } from "@/components/settings/webhooks/webhook-actions";
import { Card } from "@/components/ui/card";
import { AdminOnlyPage } from "@/components/settings/admin-only";
import { PageHeader } from "@/components/ui/page-header";
import { type CursorPosition, decodeCursor } from "@/lib/platform/cursor";
import { requireSession } from "@/lib/server/session";
import { NotFoundError } from "@/lib/platform/errors";
import { getWebhook } from "@/lib/webhooks/get-webhook";
import { getWebhookStats, getWebhookTimeline } from "@/lib/webhooks/get-webhook-stats";
import { listWebhookLogs } from "@/lib/webhooks/list-webhook-logs";
import type { StatsWindow, WebhookStats } from "@/lib/webhooks/schemas";

export async function generateMetadata() {
  return { title: (await getTranslations("webhooks.detail"))("metaTitle") };
}

type Translate = Awaited<ReturnType<typeof getTranslations>>;

const windows: StatsWindow[] = ["24h", "7d", "30d"];
// Catalog keys (namespace webhooks.detail).
const windowLabels: Record<StatsWindow, string> = { "24h": "window.24h", "7d": "window.7d", "30d": "window.30d" };
const filters = [
  { value: undefined, label: "filter.all" },
  { value: "succeeded", label: "filter.succeeded" },
  { value: "failed", label: "filter.failed" },
  { value: "pending", label: "filter.pending" },
] as const;

type Formatter = Awaited<ReturnType<typeof getFormatter>>;

const percent = (formatter: Formatter, rate: number | null) => (rate === null ? "—" : formatter.number(rate, { style: "percent", maximumFractionDigits: 1 }));
const ms = (t: Translate, value: number | null) => (value === null ? "—" : t("ms", { value }));

function StatsCard({ stats, t, formatter }: { stats: WebhookStats; t: Translate; formatter: Formatter }) {
  return (
    <Card className="p-4">
      <h3 className="text-sm font-medium text-slate-600">{t(windowLabels[stats.window])}</h3>
      <p className="mt-1 text-2xl font-semibold text-slate-900">{percent(formatter, stats.success_rate)}</p>
      <p className="text-xs text-slate-500">{t("successRate")}</p>
      <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">{t("attempts")}</dt>
        <dd className="text-right tabular-nums">{stats.total}</dd>
        <dt className="text-slate-500">{t("succeeded")}</dt>
        <dd className="text-right tabular-nums text-emerald-700">{stats.succeeded}</dd>
        <dt className="text-slate-500">{t("failed")}</dt>
        <dd className="text-right tabular-nums text-red-700">{stats.failed}</dd>
        <dt className="text-slate-500">{t("pending")}</dt>
        <dd className="text-right tabular-nums">{stats.pending}</dd>
        <dt className="text-slate-500">{t("average")}</dt>
        <dd className="text-right tabular-nums">{ms(t, stats.avg_duration_ms)}</dd>
        <dt className="text-slate-500">{t("p95")}</dt>
        <dd className="text-right tabular-nums">{ms(t, stats.p95_duration_ms)}</dd>
      </dl>
    </Card>
  );
}

export default async function WebhookDetailPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [session, t, tw, format, formatter] = await Promise.all([requireSession(), getTranslations("webhooks.detail"), getTranslations("webhooks"), getAppFormat(), getFormatter()]);
  const utc = (iso: string | null) => (iso ? format.dateTime(iso) : t("never"));
  if (session.user.role !== "admin") return <AdminOnlyPage header={<PageHeader title={t("title")} />} notice={tw("adminOnlyShort")} />;
  const { id } = await params;
  const query = await searchParams;
  const one = (key: string) => (typeof query[key] === "string" ? (query[key] as string) : undefined);
  const status = filters.find((f) => f.value && f.value === one("status"))?.value;
  const chartWindow = windows.find((w) => w === one("window")) ?? "24h";
  let cursor: CursorPosition | undefined;
  try {
    cursor = one("cursor") ? decodeCursor(one("cursor")!) : undefined;
  } catch {
    cursor = undefined;
  }

  let webhook;
  try {
    webhook = await getWebhook({ ctx: session, id });
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  const [stats, timeline, log] = await Promise.all([
    Promise.all(windows.map((w) => getWebhookStats({ ctx: session, id, window: w }))),
    getWebhookTimeline({ ctx: session, id, window: chartWindow }),
    listWebhookLogs({ ctx: session, id, status, limit: 25, cursor }),
  ]);
  const last = stats[2];
  const href = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams();
    const merged = { status, window: chartWindow === "24h" ? undefined : chartWindow, ...changes };
    for (const [k, v] of Object.entries(merged)) if (v) next.set(k, v);
    const qs = next.toString();
    return `/settings/webhooks/${id}${qs ? `?${qs}` : ""}`;
  };

  return (
    <>
      <Link href="/settings/webhooks" className="text-sm text-brand-700 hover:underline">
        {t("back")}
      </Link>
      <div className="mt-2">
        <PageHeader
          title={t("title")}
          description={
            <span className="flex flex-wrap items-center gap-2">
              <StatusBadge status={webhook.status} />
              <span className="break-all font-mono text-xs" translate="no">
                {webhook.url}
              </span>
            </span>
          }
        />
      </div>
      <div className="flex flex-col gap-6">
        <Card>
          <p className="text-sm text-slate-700">
            {t("events")}{" "}
            {webhook.events.includes("*")
              ? t("allEvents")
              : webhook.events.map((e) => (
                  <code key={e} className="me-2 text-xs" translate="no">
                    {e}
                  </code>
                ))}
          </p>
          {webhook.status_reason && webhook.status !== "active" ? <p className="mt-2 text-sm text-slate-700" translate="no">
              {webhook.status_reason}
            </p> : null}
          <p className="mt-2 text-xs text-slate-500">
            {t("health", { success: utc(last.last_success_at), failure: utc(last.last_failure_at), count: last.consecutive_failures })}
          </p>
          <div className="mt-4">
            <WebhookActions webhook={webhook} afterDelete="/settings/webhooks" />
          </div>
        </Card>

        <section aria-labelledby="stats-heading" className="flex flex-col gap-3">
          <h2 id="stats-heading" className="text-base font-semibold text-slate-900">
            {t("statistics")}
          </h2>
          <div className="grid gap-3 sm:grid-cols-3">
            {stats.map((s) => (
              <StatsCard key={s.window} stats={s} t={t} formatter={formatter} />
            ))}
          </div>
          <Card className="p-4">
            <nav aria-label={t("chartPeriod")} className="mb-3 flex gap-1 text-sm">
              {windows.map((w) => (
                <Link
                  key={w}
                  href={href({ window: w === "24h" ? undefined : w, cursor: undefined })}
                  aria-current={w === chartWindow ? "page" : undefined}
                  className={`rounded-md px-3 py-1 ${w === chartWindow ? "bg-brand-50 font-medium text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
                >
                  <span translate="no">{w}</span>
                </Link>
              ))}
            </nav>
            <StatsChart buckets={timeline} unit={chartWindow === "24h" ? "hour" : "day"} />
          </Card>
        </section>

        <section aria-labelledby="log-heading" className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="log-heading" className="text-base font-semibold text-slate-900">
              {t("log")}
            </h2>
            <nav aria-label={t("filterByStatus")} className="flex gap-1 text-sm">
              {filters.map((f) => (
                <Link
                  key={f.label}
                  href={href({ status: f.value, cursor: undefined })}
                  aria-current={f.value === status ? "page" : undefined}
                  className={`rounded-md px-3 py-1 ${f.value === status ? "bg-brand-50 font-medium text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
                >
                  {t(f.label)}
                </Link>
              ))}
            </nav>
          </div>
          <Card className="overflow-x-auto p-0">
            {log.data.length === 0 ? (
              <p className="p-4 text-sm text-slate-600">{status ? t("noAttemptsWith", { status: t(`filter.${status}`) }) : t("noAttempts")}</p>
            ) : (
              <table className="w-full min-w-[640px] text-start text-sm">
                <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      {t("time")}
                    </th>
                    <th scope="col" className="px-3 py-2">
                      {t("event")}
                    </th>
                    <th scope="col" className="px-3 py-2">
                      {t("attempt")}
                    </th>
                    <th scope="col" className="px-3 py-2">
                      {t("status")}
                    </th>
                    <th scope="col" className="px-3 py-2">
                      {t("response")}
                    </th>
                    <th scope="col" className="px-3 py-2">
                      {t("duration")}
                    </th>
                    <th scope="col" className="sticky end-0 bg-slate-50 px-3 py-2">
                      <span className="sr-only">{t("actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 align-top">
                  {log.data.map((a) => (
                    <tr key={a.id}>
                      <td className="whitespace-nowrap px-3 py-2 text-slate-700"><time dateTime={a.attempted_at}>{format.dateTime(a.attempted_at)}</time></td>
                      <td className="px-3 py-2">
                        <code className="text-xs" translate="no">
                          {a.event_type}
                        </code>
                        <div className="break-all font-mono text-[11px] text-slate-500" translate="no">
                          {a.event_id}
                        </div>
                      </td>
                      <td className="px-3 py-2 tabular-nums">{a.attempt}</td>
                      <td className="px-3 py-2">
                        <StatusBadge status={a.status} />
                        {a.next_attempt_at ? <div className="mt-1 whitespace-nowrap text-xs text-slate-500">{t("next", { time: format.clock(a.next_attempt_at) })}</div> : null}
                      </td>
                      <td className="max-w-56 px-3 py-2">
                        <span className="tabular-nums">{a.response_status ?? "—"}</span>
                        {a.error && a.error !== `unexpected status ${a.response_status}` ? <div className="text-xs text-red-700" translate="no">
                            {a.error}
                          </div> : null}
                        {a.response_body ? (
                          <details className="mt-1 text-xs text-slate-600" translate="no">
                            <summary className="cursor-pointer truncate">{a.response_body.slice(0, 60) || t("emptyBody")}</summary>
                            <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2">{a.response_body}</pre>
                          </details>
                        ) : null}
                      </td>
                      <td className="whitespace-nowrap px-3 py-2 tabular-nums">{ms(t, a.duration_ms)}</td>
                      <td className="sticky end-0 w-28 bg-white px-3 py-2 shadow-[-8px_0_8px_-8px_rgb(0_0_0/0.12)]">
                        {a.event_type === "webhook.verified" ? null : (
                          <RetryButton webhookId={id} deliveryId={a.delivery_id} disabled={webhook.status !== "active"} />
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
          <div className="flex gap-3 text-sm">
            {cursor ? (
              <Link href={href({ cursor: undefined })} className="text-brand-700 hover:underline">
                {t("newest")}
              </Link>
            ) : null}
            {log.pagination.next_cursor ? (
              <Link href={href({ cursor: log.pagination.next_cursor })} className="text-brand-700 hover:underline">
                {t("older")}
              </Link>
            ) : null}
          </div>
        </section>
      </div>
    </>
  );
}
