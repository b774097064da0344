import { useTranslations } from "next-intl";

// Catalog keys under webhooks.status, with each status's colours.
const styles: Record<string, { label: string; className: string }> = {
  active: { label: "status.active", className: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  pending: { label: "status.pending", className: "bg-slate-100 text-slate-700 ring-slate-200" },
  verification_failed: { label: "status.verification_failed", className: "bg-amber-50 text-amber-800 ring-amber-200" },
  disabled: { label: "status.disabled", className: "bg-red-50 text-red-700 ring-red-200" },
  succeeded: { label: "status.succeeded", className: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  failed: { label: "status.failed", className: "bg-red-50 text-red-700 ring-red-200" },
};

/** A webhook status (active, verification_failed, disabled…) or an attempt status (succeeded, failed, pending). */
export function StatusBadge({ status }: { status: string }) {
  const t = useTranslations("webhooks");
  const style = styles[status];
  return (
    <span translate={style ? undefined : "no"} className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${style?.className ?? "bg-slate-100 text-slate-700 ring-slate-200"}`}>
      {style ? t(style.label) : status}
    </span>
  );
}
