import { type Counts, progressOf } from "./types";

/** How far a campaign got: settled recipients out of all, with the sent share in the brand colour. */
export function CampaignProgress({ counts, label }: { counts: Counts; label: string }) {
  const done = progressOf(counts);
  const sent = counts.recipients ? (counts.sent / counts.recipients) * 100 : 0;
  return (
    <div>
      <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={done} className="relative h-2.5 w-full overflow-hidden rounded-full bg-slate-100">
        <div className="absolute inset-y-0 left-0 bg-slate-300" style={{ width: `${done}%` }} />
        <div className="absolute inset-y-0 left-0 bg-brand-600" style={{ width: `${sent}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {done}% · {counts.sent} sent of {counts.recipients}
        {counts.skipped ? ` · ${counts.skipped} skipped` : ""}
        {counts.failed ? ` · ${counts.failed} failed` : ""}
      </p>
    </div>
  );
}
