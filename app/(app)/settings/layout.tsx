import { getTranslations } from "next-intl/server";
import { settingsNav, translatedNav, visibleTo } from "@/components/app-shell";
import { NavLink } from "@/components/nav-link";
import { requireSession } from "@/lib/server/session";

export default async function SettingsLayout({ children }: { children: React.ReactNode }) {
  const session = await requireSession();
  const t = await getTranslations("shell");
  return (
    <div className="relative mx-auto flex h-full max-w-6xl flex-col gap-6 overflow-y-auto px-4 py-6 md:flex-row">
      <nav aria-label={t("nav.settings")} className="flex shrink-0 flex-wrap gap-1 text-sm md:w-48 md:flex-col">
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
