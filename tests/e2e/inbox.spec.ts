import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, createTeammate, signIn } from "./helpers";

async function openInbox(browser: Browser, email: string, password: string, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, email, password);
  await expect(page.getByRole("status", { name: "Live updates on" })).toBeVisible();
  return page;
}

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;
const seriousViolations = (results: AxeResults) =>
  results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);

const conversationRow = (page: Page, name: string) => page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });

test("two teammates work one conversation live: simulated customer, assignment, reply with ticks, close", async ({ browser, request }) => {
  const agent = await createTeammate(request, "agent", "Alex Agent");
  const admin = await openInbox(browser, firstAdmin.email, firstAdmin.password);
  const agentPage = await openInbox(browser, agent.email, agent.password);
  const customer = `Rosa Cliente ${Date.now() % 100000}`;
  const phone = `1555${String(Date.now()).slice(-7)}`;

  // The admin plays the customer; both inboxes show the message without reloading.
  await admin.getByRole("button", { name: "Simulate customer" }).click();
  await admin.getByLabel("Customer number").fill(phone);
  await admin.getByLabel("Customer name").fill(customer);
  await admin.getByLabel("Message", { exact: true }).fill("Hola! Do you deliver ferns to Brooklyn?");
  await admin.getByRole("button", { name: "Send as customer" }).click();
  await expect(conversationRow(admin, customer)).toBeVisible({ timeout: 5000 });
  await expect(conversationRow(agentPage, customer)).toBeVisible({ timeout: 5000 });

  // The agent takes it and replies.
  await conversationRow(agentPage, customer).click();
  await expect(agentPage.getByRole("log", { name: `Messages with ${customer}` })).toContainText("Do you deliver ferns");
  // Opening it reads it: the unread badge goes away.
  await expect(conversationRow(agentPage, customer).getByLabel(/unread/)).toHaveCount(0);
  await agentPage.getByRole("button", { name: "Assign to me" }).click();
  await expect(agentPage.getByTestId("conversation-assignee")).toHaveText(/Assigned to you/);
  await agentPage.getByLabel("Reply").fill("Yes! We deliver ferns across Brooklyn every Tuesday.");
  await agentPage.keyboard.press("Enter");
  await expect(agentPage.getByLabel("Reply")).toHaveValue("");

  // The admin sees the assignment and the reply with the agent's name, ticks advancing to read.
  await conversationRow(admin, customer).click();
  await expect(admin.getByTestId("conversation-assignee")).toHaveText(/Assigned to Alex Agent/);
  const reply = admin.locator('[data-direction="outbound"]', { hasText: "We deliver ferns" });
  await expect(reply).toBeVisible({ timeout: 5000 });
  await expect(reply.getByTestId("sender-name")).toHaveText("Alex Agent");
  await expect(reply.locator('[data-status="read"]')).toBeVisible({ timeout: 15_000 });
  await expect(agentPage.locator('[data-direction="outbound"]', { hasText: "We deliver ferns" }).locator('[data-status="read"]')).toBeVisible({ timeout: 15_000 });
  // Both sides of the thread stay on screen through the live updates.
  for (const page of [admin, agentPage]) {
    const log = page.getByRole("log", { name: `Messages with ${customer}` });
    await expect(log.locator('[data-direction="inbound"]')).toHaveCount(1);
    await expect(log.locator('[data-direction="outbound"]', { hasText: "We deliver ferns" })).toHaveCount(1);
  }
  await admin.screenshot({ path: shot("inbox-desktop-admin") });
  expect(seriousViolations(await new AxeBuilder({ page: admin }).analyze())).toEqual([]);

  // Presence: each sees the other online.
  await expect(admin.getByTestId("teammate").filter({ hasText: "Alex Agent" })).toHaveAttribute("data-online", "true");

  // Closing shows in both.
  await agentPage.getByRole("button", { name: "Close", exact: true }).click();
  await expect(agentPage.getByTestId("conversation-status")).toHaveText("Closed");
  await expect(admin.getByTestId("conversation-status")).toHaveText("Closed", { timeout: 5000 });
  await agentPage.screenshot({ path: shot("inbox-desktop-agent") });

  await admin.context().close();
  await agentPage.context().close();
});

test("the inbox collapses to one pane on a phone and passes an accessibility check", async ({ browser, request }) => {
  const token = await adminApiToken(request);
  const inbound = await request.post("/api/sandbox/inbound", {
    headers: { authorization: `Bearer ${token}` },
    data: { from: "447700900123", name: "Priya Shah", type: "text", text: "Is the monstera still in stock? I'd like two." },
  });
  expect(inbound.status()).toBe(201);
  const page = await openInbox(browser, firstAdmin.email, firstAdmin.password, { width: 390, height: 844 });
  await expect(page.getByRole("region", { name: "Conversations" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Conversation", exact: true })).toBeHidden();
  await page.screenshot({ path: shot("inbox-phone-list") });
  await conversationRow(page, "Priya Shah").click();
  await expect(page.getByRole("region", { name: "Conversations" })).toBeHidden();
  await expect(page.getByRole("log", { name: "Messages with Priya Shah" })).toContainText("monstera");
  await page.screenshot({ path: shot("inbox-phone-conversation") });
  const conversationScan = await new AxeBuilder({ page }).analyze();
  expect(seriousViolations(conversationScan)).toEqual([]);
  await page.getByRole("button", { name: "Back to conversations" }).click();
  const results = await new AxeBuilder({ page }).analyze();
  expect(seriousViolations(results)).toEqual([]);
  await page.context().close();
});
