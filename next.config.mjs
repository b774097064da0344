// Plain JavaScript, not TypeScript: on Node.js 20 a next.config.ts is compiled with Next.js's
// native compiler (SWC) every time a server starts, which then stays loaded (about 26 MiB resident).
import { createRequire } from "node:module";
import path from "node:path";
import createNextIntlPlugin from "next-intl/plugin";

// The interface language of each request and its catalogs (docs/languages.md).
const withNextIntl = createNextIntlPlugin("./i18n/request.ts");

// next-intl formats messages with one module, aliased here. The browser gets the small formatter
// of compiled messages only (its catalogs are compiled on the server, i18n/messages.ts), not the
// ICU parser (about 10 KB of gzipped JavaScript on every page); the server gets one that formats
// both ICU text and compiled messages (i18n/format-message.ts). Turbopack takes an alias target
// as a path relative to the project, not a package's export.
const formatCompiledOnly = path.relative(import.meta.dirname, createRequire(import.meta.url).resolve("use-intl/format-message/format-only"));

/** @type {import("next").NextConfig} */
const config = {
  poweredByHeader: false,
  turbopack: {
    resolveAlias: {
      "use-intl/format-message": { browser: `./${formatCompiledOnly}`, default: "./i18n/format-message.ts" },
    },
  },
  // Type errors are caught by `npm run typecheck` (part of `npm test`); the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "postgres", "ioredis", "hunspell-asm"],
  experimental: {
    serverActions: { bodySizeLimit: "32mb" },
    // The proxy (proxy.ts) runs before every route and Next.js hands the route a copy of the
    // body that it cuts at this size (10 MB by default), so a larger body would arrive
    // truncated. Routes enforce their own limits (32 MiB at most, answered 413); this is one
    // byte more, so a body the proxy cuts is still over every route's limit and gets the 413.
    // (scripts/server.mjs refuses a body over 32 MiB before Next.js reads any of it.)
    proxyClientMaxBodySize: 32 * 1024 * 1024 + 1,
    // A server loads a page's or a route's code when it is first asked for, not every entry
    // at start: loading all of them took about a second of the main thread after the server
    // began listening, in front of its first answers (a restart's health check among them),
    // and kept pages nobody opened in memory (docs/performance.md, "Restart").
    preloadEntriesOnStart: false,
  },
};

export default withNextIntl(config);
