import Link from "next/link";
import { notFound } from "next/navigation";
import { RetryButton } from "@/components/settings/webhooks/retry-button";
import { StatsChart } from "@/components/settings/webhooks/stats-chart";
import { StatusBadge } from "@/components/settings/webhooks/status-badge";
import { WebhookActions } from "@/components/settings/webhooks/webhook-actions";
import { formatUtc } from "@/components/settings/webhooks/format";
import { Alert, Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { type CursorPosition, decodeCursor } from "@/lib/platform/cursor";
import { requireSession } from "@/lib/auth/current-user";
import { NotFoundError } from "@/lib/platform/errors";
import { getWebhook } from "@/lib/webhooks/get-webhook";
import { getWebhookStats, getWebhookTimeline } from "@/lib/webhooks/get-webhook-stats";
import { listWebhookLogs } from "@/lib/webhooks/list-webhook-logs";
import type { StatsWindow, WebhookStats } from "@/lib/webhooks/schemas";

export const metadata = { title: "Webhook deliveries" };

const windows: StatsWindow[] = ["24h", "7d", "30d"];
const windowLabels: Record<StatsWindow, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };
const filters = [
  { value: undefined, label: "All" },
  { value: "succeeded", label: "Succeeded" },
  { value: "failed", label: "Failed" },
  { value: "pending", label: "Pending" },
] as const;

const percent = (rate: number | null) => (rate === null ? "—" : `${Math.round(rate * 1000) / 10}%`);
const ms = (value: number | null) => (value === null ? "—" : `${value} ms`);

function StatsCard({ stats }: { stats: WebhookStats }) {
  return (
    <Card className="p-4">
      <h3 className="text-sm font-medium text-slate-600">{windowLabels[stats.window]}</h3>
      <p className="mt-1 text-2xl font-semibold text-slate-900">{percent(stats.success_rate)}</p>
      <p className="text-xs text-slate-500">success rate</p>
      <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Attempts</dt>
        <dd className="text-right tabular-nums">{stats.total}</dd>
        <dt className="text-slate-500">Succeeded</dt>
        <dd className="text-right tabular-nums text-emerald-700">{stats.succeeded}</dd>
        <dt className="text-slate-500">Failed</dt>
        <dd className="text-right tabular-nums text-red-700">{stats.failed}</dd>
        <dt className="text-slate-500">Pending</dt>
        <dd className="text-right tabular-nums">{stats.pending}</dd>
        <dt className="text-slate-500">Average</dt>
        <dd className="text-right tabular-nums">{ms(stats.avg_duration_ms)}</dd>
        <dt className="text-slate-500">p95</dt>
        <dd className="text-right tabular-nums">{ms(stats.p95_duration_ms)}</dd>
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
  const session = await requireSession();
  if (session.user.role !== "admin") {
    return (
      <>
        <PageHeader title="Webhook" />
        <Alert tone="info">Only administrators can manage webhooks.</Alert>
      </>
    );
  }
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
        ← All webhooks
      </Link>
      <div className="mt-2">
        <PageHeader
          title="Webhook"
          description={
            <span className="flex flex-wrap items-center gap-2">
              <StatusBadge status={webhook.status} />
              <span className="break-all font-mono text-xs">{webhook.url}</span>
            </span>
          }
        />
      </div>
      <div className="flex flex-col gap-6">
        <Card>
          <p className="text-sm text-slate-700">
            Events: {webhook.events.includes("*") ? "all events" : webhook.events.map((e) => <code key={e} className="mr-2 text-xs">{e}</code>)}
          </p>
          {webhook.status_reason && webhook.status !== "active" ? <p className="mt-2 text-sm text-slate-700">{webhook.status_reason}</p> : null}
          <p className="mt-2 text-xs text-slate-500">
            Last success: {formatUtc(last.last_success_at)} · last failure: {formatUtc(last.last_failure_at)} · consecutive failed deliveries: {last.consecutive_failures}
          </p>
          <div className="mt-4">
            <WebhookActions webhook={webhook} afterDelete="/settings/webhooks" />
          </div>
        </Card>

        <section aria-labelledby="stats-heading" className="flex flex-col gap-3">
          <h2 id="stats-heading" className="text-base font-semibold text-slate-900">
            Statistics
          </h2>
          <div className="grid gap-3 sm:grid-cols-3">
            {stats.map((s) => (
              <StatsCard key={s.window} stats={s} />
            ))}
          </div>
          <Card className="p-4">
            <nav aria-label="Chart period" className="mb-3 flex gap-1 text-sm">
              {windows.map((w) => (
                <Link
                  key={w}
                  href={href({ window: w === "24h" ? undefined : w, cursor: undefined })}
                  aria-current={w === chartWindow ? "page" : undefined}
                  className={`rounded-md px-3 py-1 ${w === chartWindow ? "bg-brand-50 font-medium text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
                >
                  {w}
                </Link>
              ))}
            </nav>
            <StatsChart buckets={timeline} unit={chartWindow === "24h" ? "hour" : "day"} />
          </Card>
        </section>

        <section aria-labelledby="log-heading" className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="log-heading" className="text-base font-semibold text-slate-900">
              Delivery log
            </h2>
            <nav aria-label="Filter by status" className="flex gap-1 text-sm">
              {filters.map((f) => (
                <Link
                  key={f.label}
                  href={href({ status: f.value, cursor: undefined })}
                  aria-current={f.value === status ? "page" : undefined}
                  className={`rounded-md px-3 py-1 ${f.value === status ? "bg-brand-50 font-medium text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
                >
                  {f.label}
                </Link>
              ))}
            </nav>
          </div>
          <Card className="overflow-x-auto p-0">
            {log.data.length === 0 ? (
              <p className="p-4 text-sm text-slate-600">No attempts{status ? ` with status ${status}` : ""} yet.</p>
            ) : (
              <table className="w-full min-w-[640px] text-left text-sm">
                <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-3 py-2">Time</th>
                    <th scope="col" className="px-3 py-2">Event</th>
                    <th scope="col" className="px-3 py-2">Attempt</th>
                    <th scope="col" className="px-3 py-2">Status</th>
                    <th scope="col" className="px-3 py-2">Response</th>
                    <th scope="col" className="px-3 py-2">Duration</th>
                    <th scope="col" className="sticky right-0 bg-slate-50 px-3 py-2">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 align-top">
                  {log.data.map((a) => (
                    <tr key={a.id}>
                      <td className="whitespace-nowrap px-3 py-2 text-slate-700">{formatUtc(a.attempted_at)}</td>
                      <td className="px-3 py-2">
                        <code className="text-xs">{a.event_type}</code>
                        <div className="break-all font-mono text-[11px] text-slate-500">{a.event_id}</div>
                      </td>
                      <td className="px-3 py-2 tabular-nums">{a.attempt}</td>
                      <td className="px-3 py-2">
                        <StatusBadge status={a.status} />
                        {a.next_attempt_at ? <div className="mt-1 whitespace-nowrap text-xs text-slate-500">next: {formatUtc(a.next_attempt_at).slice(11)}</div> : null}
                      </td>
                      <td className="max-w-56 px-3 py-2">
                        <span className="tabular-nums">{a.response_status ?? "—"}</span>
                        {a.error && a.error !== `unexpected status ${a.response_status}` ? <div className="text-xs text-red-700">{a.error}</div> : null}
                        {a.response_body ? (
                          <details className="mt-1 text-xs text-slate-600">
                            <summary className="cursor-pointer truncate">{a.response_body.slice(0, 60) || "(empty body)"}</summary>
                            <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2">{a.response_body}</pre>
                          </details>
                        ) : null}
                      </td>
                      <td className="whitespace-nowrap px-3 py-2 tabular-nums">{ms(a.duration_ms)}</td>
                      <td className="sticky right-0 w-28 bg-white px-3 py-2 shadow-[-8px_0_8px_-8px_rgb(0_0_0/0.12)]">
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
                ← Newest
              </Link>
            ) : null}
            {log.pagination.next_cursor ? (
              <Link href={href({ cursor: log.pagination.next_cursor })} className="text-brand-700 hover:underline">
                Older →
              </Link>
            ) : null}
          </div>
        </section>
      </div>
    </>
  );
}
