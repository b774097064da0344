import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, signIn } from "./helpers";

const desktop = { width: 1440, height: 900 };
const phoneViewport = { width: 390, height: 844 };
const phone = () => `1556${String(Date.now()).slice(-7)}`;

async function api(request: APIRequestContext, method: "post" | "put" | "patch", path: string, data: unknown) {
  const token = await adminApiToken(request);
  const res = await request[method](path, { headers: { authorization: `Bearer ${token}` }, data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

async function openInbox(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, firstAdmin.email, firstAdmin.password);
  await expect(page.getByRole("status", { name: "Live updates on" })).toBeVisible();
  return page;
}

const row = (page: Page, name: string) => page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });

async function noHorizontalScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** A conversation with a 15-minute first-response SLA applied, in a team of its own. */
async function seed(request: APIRequestContext, name: string) {
  const stamp = Date.now() % 1_000_000;
  const team = await api(request, "post", "/v1/teams", { name: `Sales ${stamp}` });
  const policy = await api(request, "post", "/v1/sla-policies", { name: `Quick ${stamp}`, first_response_s: 900 });
  const inbound = await api(request, "post", "/api/sandbox/inbound", { from: phone(), name, type: "text", text: "How much is the big monstera?" });
  await api(request, "put", `/v1/conversations/${inbound.conversation_id}/sla`, { sla_policy_id: policy.id });
  return { team, conversationId: inbound.conversation_id as string };
}

for (const [width, viewport] of [
  ["desktop", desktop],
  ["phone", phoneViewport],
] as const) {
  test(`the SLA countdown shows in the list and header, and priority and team are set from the header (${width})`, async ({ browser, request }) => {
    const name = `Sol Urgente ${width} ${Date.now() % 100000}`;
    const { team } = await seed(request, name);
    const page = await openInbox(browser, viewport);

    const listed = row(page, name);
    await expect(listed.getByTestId("sla-badge")).toHaveText(/First reply in 1[45]m/);
    await listed.click();
    const header = page.getByTestId("conversation-header");
    await expect(header.getByTestId("sla-badge")).toHaveText(/First reply in 1[45]m/);

    // On a phone the header is one row: its actions, priority and team included, are in the ⋯ menu.
    if (width === "phone") await header.getByRole("button", { name: "Conversation actions" }).click();
    await header.getByLabel("Priority", { exact: true }).selectOption("urgent");
    await expect(header.getByLabel("Priority", { exact: true })).toHaveValue("urgent");
    await header.getByLabel("Team", { exact: true }).selectOption({ label: team.name });
    await expect(header.getByLabel("Team", { exact: true })).toHaveValue(team.id);
    await page.screenshot({ path: shot(`team-workflow-header-${width}`) });
    await noHorizontalScroll(page);

    if (width === "phone") {
      // Touch targets in the header are at least 44 px high.
      for (const control of [header.getByLabel("Priority", { exact: true }), header.getByLabel("Team", { exact: true })]) {
        const box = await control.boundingBox();
        expect(box!.height).toBeGreaterThanOrEqual(44);
      }
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Back to conversations" }).click();
    }

    // The list shows the priority and narrows to the team.
    await expect(listed.getByTestId("priority-mark")).toHaveText("Urgent");
    await page.reload();
    await page.getByRole("region", { name: "Conversations" }).locator("#inbox-team-filter").selectOption({ label: team.name });
    await expect(row(page, name)).toBeVisible();
    await expect(page.getByRole("list", { name: "Conversation list" }).getByRole("button")).toHaveCount(1);
    await page.screenshot({ path: shot(`team-workflow-list-${width}`) });
    await noHorizontalScroll(page);
    await page.context().close();
  });
}

test("availability is switched from the account menu, and teams are managed in Settings → Teams (desktop and phone)", async ({ browser }) => {
  for (const viewport of [desktop, phoneViewport]) {
    const page = await openInbox(browser, viewport);
    await page.getByRole("button", { name: "Account" }).click();
    await page.getByRole("radio", { name: "Busy" }).click();
    await expect(page.getByRole("radio", { name: "Busy" })).toHaveAttribute("aria-checked", "true");
    await page.getByRole("radio", { name: "Online" }).click();
    await expect(page.getByRole("radio", { name: "Online" })).toHaveAttribute("aria-checked", "true");
    const box = await page.getByRole("radio", { name: "Online" }).boundingBox();
    if (viewport === phoneViewport) expect(box!.height).toBeGreaterThanOrEqual(44);

    const teamName = `Support ${viewport.width} ${Date.now() % 100000}`;
    await page.goto("/settings/teams");
    await page.getByLabel("Team name").fill(teamName);
    await page.getByRole("group", { name: "Members" }).first().getByRole("checkbox").first().check();
    await page.getByRole("button", { name: "Create team" }).click();
    await expect(page.getByRole("status")).toContainText(`Team “${teamName}” created.`);
    await expect(page.getByRole("list", { name: "Teams" })).toContainText(teamName);
    await page.getByLabel("Team name").fill(teamName.toLowerCase());
    await page.getByRole("button", { name: "Create team" }).click();
    await expect(page.getByText("A team with this name already exists.")).toBeVisible();
    await page.screenshot({ path: shot(`team-settings-${viewport.width}`), fullPage: true });
    await noHorizontalScroll(page);
    await page.context().close();
  }
});
