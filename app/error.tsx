"use client";

import Link from "next/link";
import { CenteredCard } from "@/components/brand";

/** Any page that fails to render: say so plainly, offer to try again or go back to the inbox. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <CenteredCard className="text-center">
      <h1 className="text-xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-sm text-slate-600">
        This page could not be shown. Your drafts are kept on this device. Try again, or go back to the inbox.
      </p>
      {error.digest ? <p className="mt-2 font-mono text-xs text-slate-500">Reference: {error.digest}</p> : null}
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <button type="button" onClick={reset} className="inline-flex items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-brand-700">
          Try again
        </button>
        <Link href="/inbox" className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
          Go to the inbox
        </Link>
      </div>
    </CenteredCard>
  );
}
