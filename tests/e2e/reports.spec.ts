import { expect, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

test.use({ timezoneId: "Europe/Madrid" });

// The business keeps its hours in another zone than the browser's: the page speaks the business's.
const BUSINESS_ZONE = "Pacific/Auckland";
const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: BUSINESS_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const daysBefore = (date: string, days: number) => {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d - days)).toISOString().slice(0, 10);
};

test("the reports page shows the API's numbers in cards, charts, the agents table and the heatmap", async ({ page, request }) => {
  const token = await adminApiToken(request);
  const auth = { authorization: `Bearer ${token}` };
  const profile = await (await request.get("/v1/config/business-profile", { headers: auth })).json();
  const keep = { name: profile.name, description: profile.description, hours: profile.hours, auto_reply: profile.auto_reply };
  const zoned = await request.put("/v1/config/business-profile", { headers: auth, data: { ...keep, hours: { ...(profile.hours ?? { weekly: {} }), timezone: BUSINESS_ZONE } } });
  expect(zoned.status(), await zoned.text()).toBe(200);
  try {
    await reportsMatchTheApi(page, request, token);
  } finally {
    expect((await request.put("/v1/config/business-profile", { headers: auth, data: keep })).status()).toBe(200);
  }
});

async function reportsMatchTheApi(page: import("@playwright/test").Page, request: import("@playwright/test").APIRequestContext, token: string) {
  await signInAsOwner(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { name: "Reports" })).toBeVisible();
  await expect(page.getByText(`counted in the business's time zone (${BUSINESS_ZONE})`)).toBeVisible();

  // Without tz the API reads the range in the business's zone too: the page and the API agree.
  const query = `from=${daysBefore(today(), 6)}&to=${today()}`;
  const summary = await (await request.get(`/v1/reports/summary?${query}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const series = await (await request.get(`/v1/reports/timeseries?metric=messages_received&interval=day&${query}`, { headers: { authorization: `Bearer ${token}` } })).json();
  expect(summary.tz).toBe(BUSINESS_ZONE);
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

  // Resolution and satisfaction, as the API counts them.
  await expect(page.getByTestId("stat-resolution")).toContainText(`${summary.resolution_time.count} resolved`);
  await expect(page.getByTestId("csat-responses")).toHaveText(String(summary.csat.responses));
  for (const score of ["1", "2", "3", "4", "5"]) await expect(page.getByTestId(`csat-score-${score}`)).toHaveText(String(summary.csat.distribution[score]));

  // Every agent's row holds the agents report's numbers.
  const agentsReport = await (await request.get(`/v1/reports/agents?${query}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const agents = page.getByRole("table", { name: "Agents" });
  await expect(agents.locator("tbody tr")).toHaveCount(agentsReport.data.length);
  for (const agent of agentsReport.data) {
    const row = page.getByTestId(`agent-${agent.user.id}`);
    await expect(row).toContainText(agent.user.name);
    for (const column of ["assigned", "closed", "messages_sent"]) await expect(row.locator(`[data-col="${column}"]`)).toHaveText(String(agent[column]));
  }
  await expect(agents).toContainText(firstAdmin.name);

  // The heatmap: its total and every cell equal the API's.
  const heatmap = await (await request.get(`/v1/reports/heatmap?${query}`, { headers: { authorization: `Bearer ${token}` } })).json();
  await expect(page.getByTestId("heatmap-total")).toHaveText(String(heatmap.total));
  const cells = await page.getByTestId("heatmap").locator("td[data-cell]").evaluateAll((tds) => tds.map((td) => `${td.getAttribute("data-cell")}=${td.getAttribute("data-count")}`));
  expect(cells).toEqual(heatmap.data.flatMap((row: { weekday: string; hours: number[] }) => row.hours.map((n, hour) => `${row.weekday}-${hour}=${n}`)));

  // Export downloads the same range as CSV: a header and one row per conversation created in it.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const file = await download;
  // Named by the days on the business's clock, the last one (today there) included.
  expect(file.suggestedFilename()).toBe(`conversations-${daysBefore(today(), 6)}-${today()}.csv`);
  const { readFile } = await import("node:fs/promises");
  const csv = await readFile((await file.path())!, "utf8");
  const lines = csv.split("\r\n").filter(Boolean);
  expect(lines[0]).toBe("id,contact_phone,contact_name,created_at,first_response_s,closed_at,resolution_s,assignee,labels,csat");
  expect(lines).toHaveLength(1 + summary.conversations.created);
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
}

test("the reports page is usable at phone width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsOwner(page);
  await page.goto("/reports");
  await expect(page.getByTestId("chart-messages").locator("svg.recharts-surface").first()).toBeVisible();
  await expect(page.getByTestId("stat-first-response")).toBeVisible();
  await expect(page.getByTestId("stat-csat")).toBeVisible();
  await expect(page.getByTestId("heatmap")).toBeVisible();
  await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: shot("reports-phone"), fullPage: true });
});
