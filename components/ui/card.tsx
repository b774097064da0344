export function Card({ children, className = "" }: { children: React.ReactNode; className?: string }) {
  // Two padding utilities on one element would be settled by stylesheet order, not by the caller.
  const padding = /(?:^|\s)p-\d/.test(className) ? "" : "p-6 ";
  return <div className={`rounded-xl border border-slate-200 bg-white ${padding}shadow-sm ${className}`}>{children}</div>;
}

export function Alert({ tone = "error", children }: { tone?: "error" | "success" | "info"; children: React.ReactNode }) {
  const tones = {
    error: "border-red-200 bg-red-50 text-red-800",
    success: "border-emerald-200 bg-emerald-50 text-emerald-800",
    info: "border-sky-200 bg-sky-50 text-sky-800",
  };
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-md border px-3 py-2 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}
