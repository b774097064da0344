import type { NextConfig } from "next";

const config: NextConfig = {
  poweredByHeader: false,
  // Type errors are caught by `npm run typecheck` (part of `npm test`); the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "postgres", "ioredis", "hunspell-asm"],
  experimental: { serverActions: { bodySizeLimit: "32mb" } },
};

export default config;
