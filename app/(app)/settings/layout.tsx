import { getTranslations } from "next-intl/server";
import { settingsNav, translatedNav, visibleTo } from "@/components/app-shell";
import { NavLink } from "@/components/nav-link";
import { requireSession } from "@/lib/auth/current-user";

export default async function SettingsLayout({ children }: { children: React.ReactNode }) {
  const session = await requireSession();
  const t = await getTranslations("shell");
  return (
    <div className="relative mx-auto flex h-full max-w-6xl flex-col gap-6 overflow-y-auto px-4 py-6 md:flex-row">
      {/* On a phone the settings menu is one row that scrolls sideways, so the page starts in view. */}
      <nav aria-label={t("nav.settings")} className="-mx-4 flex shrink-0 gap-1 overflow-x-auto px-4 text-sm md:mx-0 md:w-48 md:flex-col md:overflow-visible md:px-0">
        {(await translatedNav(settingsNav.filter(visibleTo(session.user.role)))).map((item) => (
          <NavLink key={item.href} href={item.href}>
            {item.label}
          </NavLink>
        ))}
      </nav>
      <main className="min-w-0 flex-1">{children}</main>
    </div>
  );
}
