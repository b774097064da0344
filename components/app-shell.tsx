import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { Logo } from "@/components/brand";
import { MobileMenu } from "@/components/mobile-menu";
import { NavLink } from "@/components/nav-link";
import { OfflineBanner } from "@/components/pwa/offline-banner";
import { DatabaseBanner } from "@/components/pwa/database-banner";
import { SessionEndedDialog } from "@/components/session-ended-dialog";
import type { Role } from "@/lib/auth/scopes";

// Labels are keys of the `shell` catalog namespace.
type NavItem = { href: string; label: string; adminOnly?: boolean };

const mainNav: NavItem[] = [
  { href: "/inbox", label: "nav.inbox" },
  { href: "/contacts", label: "nav.contacts" },
  { href: "/campaigns", label: "nav.campaigns" },
  { href: "/reports", label: "nav.reports" },
  { href: "/settings", label: "nav.settings" },
  { href: "/docs", label: "nav.apiDocs" },
];

export const settingsNav: NavItem[] = [
  { href: "/settings/profile", label: "settingsNav.businessProfile" },
  { href: "/settings/survey", label: "settingsNav.satisfactionSurvey" },
  { href: "/settings/assistant", label: "settingsNav.answerAssistant" },
  { href: "/settings/number", label: "settingsNav.number", adminOnly: true },
  { href: "/settings/templates", label: "settingsNav.templates" },
  { href: "/settings/users", label: "settingsNav.users", adminOnly: true },
  { href: "/settings/inbox", label: "settingsNav.inbox" },
  { href: "/settings/canned-replies", label: "settingsNav.cannedReplies" },
  { href: "/settings/labels", label: "settingsNav.labels" },
  { href: "/settings/automations", label: "settingsNav.automations" },
  { href: "/settings/macros", label: "settingsNav.macros" },
  { href: "/settings/teams", label: "settingsNav.teams" },
  { href: "/settings/tokens", label: "settingsNav.apiTokens" },
  { href: "/settings/webhooks", label: "settingsNav.webhooks", adminOnly: true },
  { href: "/settings/apps", label: "settingsNav.apps", adminOnly: true },
  { href: "/settings/audit-log", label: "settingsNav.auditLog", adminOnly: true },
  { href: "/settings/notifications", label: "settingsNav.notifications" },
  { href: "/settings/account", label: "settingsNav.account" },
];

export const visibleTo = (role: Role) => (item: NavItem) => !item.adminOnly || role === "admin";

/** A nav list with its labels in the reader's language. */
export async function translatedNav(items: NavItem[]) {
  const t = await getTranslations("shell");
  return items.map((item) => ({ ...item, label: t(item.label) }));
}

export async function AppShell({
  user,
  signOut,
  children,
}: {
  user: { name: string; email: string; role: Role };
  signOut: React.ReactNode;
  children: React.ReactNode;
}) {
  const t = await getTranslations("shell");
  const main = await translatedNav(mainNav);
  return (
    <div className="flex h-full flex-col">
      <header className="flex h-14 shrink-0 items-center gap-3 border-b border-slate-200 bg-white px-3 sm:gap-4 sm:px-4">
        <Link href="/inbox" aria-label={t("home")} className="inline-flex min-h-11 min-w-11 items-center">
          <Logo />
        </Link>
        <MobileMenu main={main} settings={await translatedNav(settingsNav.filter(visibleTo(user.role)))} />
        <nav aria-label={t("mainNavLabel")} className="hidden items-center gap-1 text-sm md:flex">
          {main.map((item) => (
            <NavLink key={item.href} href={item.href} matchPrefix={item.href}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ms-auto flex items-center gap-3 text-sm">
          <span className="hidden text-end leading-tight sm:block">
            <span className="block font-medium text-slate-800" data-user-content>
              {user.name}
            </span>
            <span className="block text-xs text-slate-500">{t(user.role === "admin" ? "role.admin" : "role.agent")}</span>
          </span>
          {signOut}
        </div>
      </header>
      <OfflineBanner />
      <DatabaseBanner />
      {/* Positioned and clipping: a visually hidden input deep in a page's own scroll area must not
          stretch the document into a blank grey area below the app. */}
      <div className="relative min-h-0 flex-1 overflow-hidden">{children}</div>
      <SessionEndedDialog />
    </div>
  );
}
