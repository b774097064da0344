import Link from "next/link";
import { CenteredCard } from "@/components/brand";

export const metadata = { title: "Bad request" };

/** Shown with status 400 for an address that cannot be read (a broken `%`-escape). */
export default function BadRequest() {
  return (
    <CenteredCard className="text-center">
      <p className="text-sm font-semibold text-brand-700">400</p>
      <h1 className="mt-1 text-xl font-semibold">This address cannot be read</h1>
      <p className="mt-2 text-sm text-slate-600">It holds a broken character code (a % sign not followed by a valid code). Check the link, or start again from the inbox.</p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Link href="/inbox" className="inline-flex items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-brand-700">
          Go to the inbox
        </Link>
      </div>
    </CenteredCard>
  );
}
