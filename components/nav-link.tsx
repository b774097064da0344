"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";

/**
 * A link of the app's navigation bar (and of the settings pages' list). Its page is fetched ahead
 * when the pointer, the focus or a touch reaches it, not whenever it is on screen: the bar is on
 * every page, and fetching every entry at each load (and again at each change of address, a
 * conversation opened) put five requests on the server's thread in front of the one that opens
 * a conversation.
 */
export function NavLink({ href, matchPrefix, children }: { href: string; matchPrefix?: string; children: React.ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const active = pathname === href || pathname.startsWith(`${matchPrefix ?? href}/`) || pathname === matchPrefix;
  const prefetch = () => router.prefetch(href);
  return (
    <Link
      href={href}
      prefetch={false}
      onMouseEnter={prefetch}
      onFocus={prefetch}
      onTouchStart={prefetch}
      aria-current={active ? "page" : undefined}
      className={`inline-flex items-center whitespace-nowrap rounded-md px-3 py-1.5 max-md:min-h-11 ${active ? "bg-brand-50 font-medium text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
    >
      {children}
    </Link>
  );
}
