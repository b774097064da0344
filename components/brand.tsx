export function Logo({ className = "" }: { className?: string }) {
  return (
    // The product's name is never translated.
    <span translate="no" className={`inline-flex items-center gap-2 font-semibold text-slate-900 ${className}`}>
      <span aria-hidden className="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 text-white">
        <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M4 5h16v10H8l-4 4z" strokeLinejoin="round" />
          <path d="M8 9h8M8 12h5" strokeLinecap="round" />
        </svg>
      </span>
      Chorus
    </span>
  );
}

/** The centred card under the logo that every public page (setup, sign-in, errors) stands in. */
export function CenteredCard({ className = "", children }: { className?: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-full items-center justify-center px-4 py-12">
      <div className={`w-full max-w-md ${className}`}>
        <div className="mb-6 flex justify-center">
          <Logo className="text-xl" />
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">{children}</div>
      </div>
    </main>
  );
}

/** The centred card layout of the public pages (setup, sign-in). */
export function AuthShell({ title, subtitle, children }: { title: string; subtitle?: string; children: React.ReactNode }) {
  return (
    <CenteredCard>
      <h1 className="text-xl font-semibold">{title}</h1>
      {subtitle ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
      <div className="mt-6">{children}</div>
    </CenteredCard>
  );
}
