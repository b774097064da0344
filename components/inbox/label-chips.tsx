import type { LabelRef } from "./types";

/** A label as a small coloured chip. */
export function LabelChip({ label, onRemove }: { label: LabelRef; onRemove?: () => void }) {
  return (
    <span
      className="inline-flex max-w-40 items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium text-slate-800"
      style={{ borderColor: label.color, backgroundColor: `${label.color}1f` }}
      data-testid="label-chip"
    >
      <span aria-hidden className="h-2 w-2 shrink-0 rounded-full" style={{ backgroundColor: label.color }} />
      <span className="truncate" data-user-content>
        {label.name}
      </span>
      {onRemove ? (
        <button type="button" onClick={onRemove} aria-label={`Remove label ${label.name}`} className="text-slate-500 hover:text-slate-900">
          ×
        </button>
      ) : null}
    </span>
  );
}

export function LabelChips({ labels, className = "" }: { labels: LabelRef[] | undefined; className?: string }) {
  if (!labels?.length) return null;
  return (
    <span className={`flex flex-wrap gap-1 ${className}`}>
      {labels.map((label) => (
        <LabelChip key={label.id} label={label} />
      ))}
    </span>
  );
}
