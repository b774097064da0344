import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://localhost:${PORT}`;

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    // The first-run test needs the empty database, so it runs before everything else.
    { name: "first-run", testMatch: /setup\.spec\.ts/, use: { ...devices["Desktop Chrome"] } },
    { name: "app", testIgnore: /setup\.spec\.ts/, dependencies: ["first-run"], use: { ...devices["Desktop Chrome"] } },
  ],
  webServer: {
    command: `node scripts/server.mjs`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(PORT),
      PGLITE_DIR: "memory://",
      APP_URL: baseURL,
      AUTH_SECRET: "e2e-secret-for-chorus-browser-tests-0123456789",
      JOBS_POLL_MS: "100",
      WEBHOOK_ALLOW_INSECURE_TARGETS: "true",
      WEBHOOK_RETRY_SCHEDULE: "1,1,1,1",
      DATABASE_URL: "",
      // The pseudo-locale cookie is honoured (tests/e2e/pseudo-locale.spec.ts).
      CHORUS_PSEUDO_LOCALE: "1",
    },
  },
});
