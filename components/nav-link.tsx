"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export function NavLink({ href, matchPrefix, children }: { href: string; matchPrefix?: string; children: React.ReactNode }) {
  const pathname = usePathname();
  const active = pathname === href || pathname.startsWith(`${matchPrefix ?? href}/`) || pathname === matchPrefix;
  return (
    <Link
      href={href}
      aria-current={active ? "page" : undefined}
      className={`inline-flex items-center whitespace-nowrap rounded-md px-3 py-1.5 max-md:min-h-11 ${active ? "bg-brand-50 font-medium text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
    >
      {children}
    </Link>
  );
}
