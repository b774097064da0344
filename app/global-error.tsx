"use client";

import "./globals.css";

/** When even the root layout fails: a plain page in the app's colours with a way back. */
export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <main className="flex min-h-full items-center justify-center px-4 py-12">
          <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8">
            <h1 className="text-xl font-semibold">Chorus could not load</h1>
            <p className="mt-2 text-sm text-slate-600">Try again in a moment. Your drafts are kept on this device.</p>
            <div className="mt-6 flex flex-wrap justify-center gap-2">
              <button type="button" onClick={reset} className="inline-flex items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-brand-700">
                Try again
              </button>
              {/* A full load on purpose: the app's own navigation is what failed. */}
              {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
              <a href="/inbox" className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
                Go to the inbox
              </a>
            </div>
          </div>
        </main>
      </body>
    </html>
  );
}
