import Link from "next/link";
import { Logo } from "@/components/brand";
import { MobileMenu } from "@/components/mobile-menu";
import { NavLink } from "@/components/nav-link";
import { OfflineBanner } from "@/components/pwa/offline-banner";
import { SessionEndedDialog } from "@/components/session-ended-dialog";
import type { Role } from "@/lib/auth/scopes";

type NavItem = { href: string; label: string; adminOnly?: boolean };

export const mainNav: NavItem[] = [
  { href: "/inbox", label: "Inbox" },
  { href: "/contacts", label: "Contacts" },
  { href: "/campaigns", label: "Campaigns" },
  { href: "/reports", label: "Reports" },
  { href: "/settings", label: "Settings" },
  { href: "/docs", label: "API docs" },
];

export const settingsNav: NavItem[] = [
  { href: "/settings/profile", label: "Business profile" },
  { href: "/settings/survey", label: "Satisfaction survey" },
  { href: "/settings/assistant", label: "Answer assistant" },
  { href: "/settings/number", label: "Number", adminOnly: true },
  { href: "/settings/templates", label: "Templates" },
  { href: "/settings/users", label: "Users", adminOnly: true },
  { href: "/settings/inbox", label: "Inbox" },
  { href: "/settings/canned-replies", label: "Canned replies" },
  { href: "/settings/labels", label: "Labels" },
  { href: "/settings/automations", label: "Automations" },
  { href: "/settings/macros", label: "Macros" },
  { href: "/settings/teams", label: "Teams" },
  { href: "/settings/tokens", label: "API tokens" },
  { href: "/settings/webhooks", label: "Webhooks", adminOnly: true },
  { href: "/settings/apps", label: "Apps", adminOnly: true },
  { href: "/settings/audit-log", label: "Audit log", adminOnly: true },
  { href: "/settings/notifications", label: "Notifications" },
  { href: "/settings/account", label: "Account" },
];

export const visibleTo = (role: Role) => (item: NavItem) => !item.adminOnly || role === "admin";

export function AppShell({
  user,
  signOut,
  children,
}: {
  user: { name: string; email: string; role: Role };
  signOut: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="flex h-full flex-col">
      <header className="flex h-14 shrink-0 items-center gap-3 border-b border-slate-200 bg-white px-3 sm:gap-4 sm:px-4">
        <Link href="/inbox" aria-label="Chorus home" className="inline-flex min-h-11 min-w-11 items-center">
          <Logo />
        </Link>
        <MobileMenu main={mainNav} settings={settingsNav.filter(visibleTo(user.role))} />
        <nav aria-label="Main" className="hidden items-center gap-1 text-sm md:flex">
          {mainNav.map((item) => (
            <NavLink key={item.href} href={item.href} matchPrefix={item.href}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-3 text-sm">
          <span className="hidden text-right leading-tight sm:block">
            <span className="block font-medium text-slate-800">{user.name}</span>
            <span className="block text-xs text-slate-500">{user.role === "admin" ? "Administrator" : "Agent"}</span>
          </span>
          {signOut}
        </div>
      </header>
      <OfflineBanner />
      {/* Positioned and clipping: a visually hidden input deep in a page's own scroll area must not
          stretch the document into a blank grey area below the app. */}
      <div className="relative min-h-0 flex-1 overflow-hidden">{children}</div>
      <SessionEndedDialog />
    </div>
  );
}
