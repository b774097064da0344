import Link from "next/link";
import { AccountMenu } from "@/components/account-menu";
import { AppShell } from "@/components/app-shell";
import { TwoFactorCard } from "@/components/settings/account-settings";
import { Button } from "@/components/ui/button";
import { requireSession } from "@/lib/auth/current-user";
import { secondFactorNeeded } from "@/lib/auth/mfa";
import { signOutAction, signOutEverywhereAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  const session = await requireSession();
  // The account requires a second factor and this user has none yet: set-up comes first.
  const mustEnrol = (await secondFactorNeeded({ userId: session.user.id, accountId: session.accountId })) === "enrolment";
  return (
    <AppShell
      user={session.user}
      signOut={
        <AccountMenu email={session.user.email}>
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
        </AccountMenu>
      }
    >
      {mustEnrol ? <RequiredMfaSetup /> : children}
    </AppShell>
  );
}

function RequiredMfaSetup() {
  return (
    <main className="mx-auto flex h-full max-w-2xl flex-col gap-4 overflow-y-auto px-4 py-6">
      <h1 className="text-xl font-semibold text-slate-900">Set up two-factor sign-in</h1>
      <p className="text-sm text-slate-600">
        Your administrator requires a code from an authenticator app at every sign-in. Set it up to continue; then reload the page.
      </p>
      <TwoFactorCard enabled={false} recoveryCodesLeft={0} required />
    </main>
  );
}
