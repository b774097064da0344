type Bucket = { t: string; succeeded: number; failed: number };

/** A small stacked bar chart of attempts per bucket (succeeded in green, failed in red), inline SVG. */
export function StatsChart({ buckets, unit }: { buckets: Bucket[]; unit: "hour" | "day" }) {
  const width = 600;
  const height = 120;
  const gap = 2;
  const max = Math.max(1, ...buckets.map((b) => b.succeeded + b.failed));
  const barWidth = (width - gap * (buckets.length - 1)) / buckets.length;
  const label = (t: string) =>
    unit === "hour" ? `${new Date(t).toISOString().slice(11, 16)} UTC` : new Date(t).toISOString().slice(0, 10);
  const total = buckets.reduce((n, b) => n + b.succeeded + b.failed, 0);
  return (
    <figure>
      <svg viewBox={`0 0 ${width} ${height}`} className="h-32 w-full" role="img" aria-label={`Attempts per ${unit}: ${total} in total`}>
        <line x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} className="stroke-slate-200" />
        {buckets.map((b, i) => {
          const x = i * (barWidth + gap);
          const ok = (b.succeeded / max) * (height - 4);
          const bad = (b.failed / max) * (height - 4);
          return (
            <g key={b.t}>
              <title>{`${label(b.t)}: ${b.succeeded} succeeded, ${b.failed} failed`}</title>
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
            <span className="inline-block h-2 w-2 rounded-sm bg-emerald-500" aria-hidden /> succeeded
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block h-2 w-2 rounded-sm bg-red-500" aria-hidden /> failed
          </span>
        </span>
        <span>{buckets.length ? label(buckets[buckets.length - 1].t) : ""}</span>
      </figcaption>
    </figure>
  );
}
