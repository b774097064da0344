const styles: Record<string, { label: string; className: string }> = {
  active: { label: "Active", className: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  pending: { label: "Verifying", className: "bg-slate-100 text-slate-700 ring-slate-200" },
  verification_failed: { label: "Verification failed", className: "bg-amber-50 text-amber-800 ring-amber-200" },
  disabled: { label: "Disabled", className: "bg-red-50 text-red-700 ring-red-200" },
  succeeded: { label: "Succeeded", className: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  failed: { label: "Failed", className: "bg-red-50 text-red-700 ring-red-200" },
};

/** A webhook status (active, verification_failed, disabled…) or an attempt status (succeeded, failed, pending). */
export function StatusBadge({ status }: { status: string }) {
  const style = styles[status] ?? { label: status, className: "bg-slate-100 text-slate-700 ring-slate-200" };
  return (
    <span className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${style.className}`}>
      {status === "pending" ? "Pending" : style.label}
    </span>
  );
}
