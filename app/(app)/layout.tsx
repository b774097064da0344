import Link from "next/link";
import { AppShell } from "@/components/app-shell";
import { Button } from "@/components/ui/button";
import { requireSession } from "@/lib/auth/current-user";
import { signOutAction, signOutEverywhereAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  // A user the account requires a second factor of, who has none yet, is sent to set it up first.
  const session = await requireSession();
  return (
    <AppShell
      user={session.user}
      signOut={
        <details className="relative">
          <summary className="cursor-pointer list-none rounded-md border border-slate-300 px-3 py-1.5 text-slate-700 hover:bg-slate-50">
            Account
          </summary>
          <div className="absolute right-0 z-20 mt-2 w-56 rounded-md border border-slate-200 bg-white p-2 shadow-lg">
            <p className="truncate px-2 py-1 text-xs text-slate-500">{session.user.email}</p>
            <Link href="/settings/account" className="block rounded-md px-3.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
              Password and sign-in
            </Link>
            <form action={signOutAction}>
              <Button type="submit" variant="ghost" className="w-full justify-start">
                Sign out
              </Button>
            </form>
            <form action={signOutEverywhereAction}>
              <Button type="submit" variant="ghost" className="w-full justify-start">
                Sign out everywhere
              </Button>
            </form>
          </div>
        </details>
      }
    >
      {children}
    </AppShell>
  );
}
