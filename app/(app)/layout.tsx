import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { AccountMenu } from "@/components/account-menu";
import { AppShell } from "@/components/app-shell";
import { ServiceWorker } from "@/components/pwa/service-worker";
import { AvailabilitySwitch } from "@/components/team/availability-switch";
import { getMe } from "@/lib/teams/availability";
import { Button } from "@/components/ui/button";
import { requireSession } from "@/lib/server/session";
import { signOutAction, signOutEverywhereAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  // A user the account requires a second factor of, who has none yet, is sent to set it up first.
  const session = await requireSession();
  const t = await getTranslations("shell");
  return (
    <AppShell
      user={session.user}
      signOut={
        <AccountMenu email={session.user.email}>
          <AvailabilitySwitch initial={(await getMe({ ctx: session })).availability} />
          <Link href="/settings/account" className="block rounded-md px-3.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
            {t("account.passwordAndSignIn")}
          </Link>
          <form action={signOutAction}>
            <Button type="submit" variant="ghost" className="w-full justify-start">
              {t("account.signOut")}
            </Button>
          </form>
          <form action={signOutEverywhereAction}>
            <Button type="submit" variant="ghost" className="w-full justify-start">
              {t("account.signOutEverywhere")}
            </Button>
          </form>
        </AccountMenu>
      }
    >
      <ServiceWorker userId={session.user.id} />
      {children}
    </AppShell>
  );
}
