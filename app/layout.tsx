import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Chorus", template: "%s · Chorus" },
  description: "One business number, answered together.",
  appleWebApp: { capable: true, title: "Chorus", statusBarStyle: "default" },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#178059" };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request, so Next.js can put this request's CSP nonce
  // (set by proxy.ts) on its scripts; a prerendered page would carry none and not run.
  await headers();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
