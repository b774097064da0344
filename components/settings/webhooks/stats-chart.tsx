import { useFormatter, useTranslations } from "next-intl";

type Bucket = { t: string; succeeded: number; failed: number };

/** A small stacked bar chart of attempts per bucket (succeeded in green, failed in red), inline SVG. */
export function StatsChart({ buckets, unit }: { buckets: Bucket[]; unit: "hour" | "day" }) {
  const t = useTranslations("webhooks.chart");
  const format = useFormatter();
  const width = 600;
  const height = 120;
  const gap = 2;
  const max = Math.max(1, ...buckets.map((b) => b.succeeded + b.failed));
  const barWidth = (width - gap * (buckets.length - 1)) / buckets.length;
  // Buckets are whole UTC hours or days, so they are labelled in UTC.
  const label = (at: string) =>
    unit === "hour"
      ? format.dateTime(new Date(at), { hour: "2-digit", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" })
      : format.dateTime(new Date(at), { dateStyle: "medium", timeZone: "UTC" });
  const total = buckets.reduce((n, b) => n + b.succeeded + b.failed, 0);
  return (
    <figure>
      <svg viewBox={`0 0 ${width} ${height}`} className="h-32 w-full" role="img" aria-label={t("label", { unit, total })}>
        <line x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} className="stroke-slate-200" />
        {buckets.map((b, i) => {
          const x = i * (barWidth + gap);
          const ok = (b.succeeded / max) * (height - 4);
          const bad = (b.failed / max) * (height - 4);
          return (
            <g key={b.t}>
              <title>{t("bar", { when: label(b.t), succeeded: b.succeeded, failed: b.failed })}</title>
              <rect x={x} y={height - ok} width={barWidth} height={ok} className="fill-emerald-500" />
              <rect x={x} y={height - ok - bad} width={barWidth} height={bad} className="fill-red-500" />
              {b.succeeded + b.failed === 0 ? <rect x={x} y={height - 2} width={barWidth} height={2} className="fill-slate-200" /> : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex justify-between text-xs text-slate-500">
        <span>{buckets.length ? label(buckets[0].t) : ""}</span>
        <span className="flex gap-3">
          <span className="flex items-center gap-1">
            <span className="inline-block h-2 w-2 rounded-sm bg-emerald-500" aria-hidden /> {t("succeeded")}
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block h-2 w-2 rounded-sm bg-red-500" aria-hidden /> {t("failed")}
          </span>
        </span>
        <span>{buckets.length ? label(buckets[buckets.length - 1].t) : ""}</span>
      </figcaption>
    </figure>
  );
}
