import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  // "server-only" refuses to load outside a React Server bundle; tests import server modules directly.
  resolve: { alias: { "@": root, "server-only": `${root}tests/support/server-only.ts` } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
          setupFiles: ["tests/support/env.ts"],
          // Starting an embedded database, or building a 100 MB document to check the size limit,
          // takes seconds on a busy machine: a timeout here means a hang, not slowness.
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/support/global-setup.ts"],
          setupFiles: ["tests/support/env.ts", "tests/support/setup-db.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
