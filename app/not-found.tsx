import Link from "next/link";
import { CenteredCard } from "@/components/brand";

export const metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <CenteredCard className="text-center">
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-1 text-xl font-semibold">This page does not exist</h1>
      <p className="mt-2 text-sm text-slate-600">The address may be mistyped, or what it pointed to was removed.</p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Link href="/inbox" className="inline-flex items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-brand-700">
          Go to the inbox
        </Link>
        <Link href="/docs" className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
          API docs
        </Link>
      </div>
    </CenteredCard>
  );
}
