import { CopyButton } from "@/components/ui/copy-button";

/** A value shown once to copy (a client secret, a one-time link): read-only, with its copy button. */
export function SecretField({ label, value, copyLabel, copyAriaLabel }: { label: string; value: string; copyLabel: string; copyAriaLabel?: string }) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <input readOnly value={value} aria-label={label} className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs" />
      <CopyButton value={value} label={copyLabel} ariaLabel={copyAriaLabel} />
    </div>
  );
}
