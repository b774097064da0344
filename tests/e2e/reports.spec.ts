import { expect, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

test.use({ timezoneId: "Europe/Madrid" });

const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const daysBefore = (date: string, days: number) => {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d - days)).toISOString().slice(0, 10);
};

test("the reports page shows the API's numbers in cards, charts and the team table", async ({ page, request }) => {
  await signInAsOwner(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { name: "Reports" })).toBeVisible();

  const token = await adminApiToken(request);
  const query = `from=${daysBefore(today(), 6)}&to=${today()}&tz=Europe/Madrid`;
  const summary = await (await request.get(`/v1/reports/summary?${query}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const series = await (await request.get(`/v1/reports/timeseries?metric=messages_received&interval=day&${query}`, { headers: { authorization: `Bearer ${token}` } })).json();
  expect(series.data).toHaveLength(7);

  await expect(page.getByTestId("stat-conversations-created")).toContainText(String(summary.conversations.created));
  await expect(page.getByTestId("stat-messages-received")).toContainText(String(summary.messages.received));
  await expect(page.getByTestId("stat-messages-received")).toContainText(`${summary.messages.sent} sent, ${summary.messages.automated} automated`);
  await expect(page.getByTestId("stat-open-now")).toContainText(String(summary.conversations.open_now));

  // One point per day on each of the two lines (received, sent).
  await expect(page.getByTestId("chart-messages").locator("svg.recharts-surface").first()).toBeVisible();
  await expect(page.getByTestId("chart-messages").locator(".recharts-line")).toHaveCount(2);
  await expect(page.getByTestId("chart-messages").locator(".recharts-line-dot")).toHaveCount(2 * 7);
  await expect(page.getByTestId("chart-conversations").locator("svg.recharts-surface").first()).toBeVisible();

  const agents = page.getByRole("table", { name: "Agents" });
  for (const agent of summary.agents) {
    await expect(agents.getByRole("row", { name: new RegExp(agent.name) })).toContainText(String(agent.messages_sent));
  }
  await expect(agents).toContainText(firstAdmin.name);
  await page.setViewportSize({ width: 1280, height: 1500 });
  await page.screenshot({ path: shot("reports"), fullPage: true });

  // Another range asks the API again and shows 30 days.
  const thirty = page.waitForResponse((res) => res.url().includes("/v1/reports/summary") && res.url().includes(`from=${daysBefore(today(), 29)}`));
  await page.getByRole("button", { name: "Last 30 days" }).click();
  expect((await thirty).status()).toBe(200);
  await expect(page.getByRole("button", { name: "Last 30 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("chart-messages").locator(".recharts-line-dot")).toHaveCount(2 * 30);

  // A custom range the wrong way round is refused in place.
  await page.getByRole("button", { name: "Custom" }).click();
  await page.getByLabel("From").fill(today());
  await page.getByLabel("To").fill(daysBefore(today(), 3));
  await expect(page.getByText("The start date must not be after the end date.")).toBeVisible();
});

test("the reports page is usable at phone width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsOwner(page);
  await page.goto("/reports");
  await expect(page.getByTestId("chart-messages").locator("svg.recharts-surface").first()).toBeVisible();
  await expect(page.getByTestId("stat-first-response")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: shot("reports-phone"), fullPage: true });
});
