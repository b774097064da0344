import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, signIn } from "./helpers";

const phone = () => `1556${String(Date.now()).slice(-7)}`;

async function api(request: APIRequestContext, method: "get" | "post", path: string, data?: unknown) {
  const token = await adminApiToken(request);
  const res = await request[method](path, { headers: { authorization: `Bearer ${token}` }, ...(data ? { data } : {}) });
  expect(res.ok(), await res.text()).toBe(true);
  return res.json();
}

async function customerWrites(request: APIRequestContext, from: string, name: string, text: string) {
  return (await api(request, "post", "/api/sandbox/inbound", { from, name, type: "text", text })) as { id: string; conversation_id: string };
}

async function openAs(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, firstAdmin.email, firstAdmin.password);
  return page;
}

/** Nothing wider than the screen: the page never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test("an administrator builds a rule that labels price questions, previews its matches, and it labels the next one", async ({ browser, request }) => {
  const stamp = Date.now() % 100000;
  const word = `precio${stamp}`;
  const label = (await api(request, "post", "/v1/labels", { name: `Sales ${stamp}`, color: "#16a34a" })) as { id: string; name: string };
  await customerWrites(request, phone(), `Earlier ${stamp}`, `What is the ${word} of a fern?`);

  const page = await openAs(browser, { width: 1440, height: 900 });
  await page.goto("/settings/automations");
  await page.getByRole("button", { name: "New automation" }).click();
  const form = page.getByRole("form", { name: "New automation" });
  await form.getByLabel("Name").fill(`Price questions ${stamp}`);
  await form.getByLabel("When").selectOption("message.received");
  await form.getByLabel("Condition 1 operator").selectOption("matches");
  // An unsafe pattern is refused in words, and nothing is saved.
  await form.getByLabel("Condition 1 value").fill("(a)\\1");
  await form.getByRole("button", { name: "Save automation" }).click();
  await expect(form.getByRole("alert")).toBeVisible();
  await form.getByLabel("Condition 1 value").fill(`\\b${word}\\b`);
  await form.getByLabel("Action 1 label").selectOption({ label: label.name });
  await form.getByRole("button", { name: "Preview matches" }).click();
  await expect(form.getByTestId("draft-preview")).toHaveText(/Would have matched 1 of the last \d+ conversations\./);
  await page.screenshot({ path: shot("automations-builder-desktop"), fullPage: true });
  await expectNoSidewaysScroll(page);
  await form.getByRole("button", { name: "Save automation" }).click();
  await expect(page.getByRole("status")).toContainText(`Automation “Price questions ${stamp}” saved.`);
  const card = page.getByTestId("automation-rule").filter({ hasText: `Price questions ${stamp}` });
  await expect(card.getByTestId("rule-preview")).toHaveText(/Would have matched 1 of the last \d+ conversations\./);

  const asked = await customerWrites(request, phone(), `Nuevo ${stamp}`, `Hola, ¿${word}?`);
  const conversation = (await api(request, "get", `/v1/conversations/${asked.conversation_id}`)) as { labels: { id: string }[] };
  expect(conversation.labels.map((l) => l.id)).toEqual([label.id]);
  await page.context().close();
});

test("on a phone the builder fits the screen, its controls are large enough to touch, and rules reorder", async ({ browser, request }) => {
  const stamp = Date.now() % 100000;
  const first = `First ${stamp}`;
  const second = `Second ${stamp}`;
  for (const name of [first, second]) {
    await api(request, "post", "/v1/automations", { name, event: "conversation.closed", conditions: [{ field: "contact.name", operator: "equals", value: `nobody ${stamp}` }], actions: [{ type: "emit_webhook" }] });
  }
  const page = await openAs(browser, { width: 390, height: 844 });
  await page.goto("/settings/automations");
  const names = () => page.getByTestId("automation-rule").locator("h3").allTextContents();
  expect((await names()).filter((n) => n.endsWith(String(stamp)))).toEqual([first, second]);
  await page.getByRole("button", { name: `Move ${second} up` }).click();
  await expect(page.getByRole("status")).toContainText(`Moved “${second}” up.`);
  expect((await names()).filter((n) => n.endsWith(String(stamp)))).toEqual([second, first]);
  await expectNoSidewaysScroll(page);

  await page.getByRole("button", { name: "New automation" }).click();
  const form = page.getByRole("form", { name: "New automation" });
  await form.getByRole("button", { name: "Add condition" }).click();
  await form.getByRole("button", { name: "Add action" }).click();
  await expectNoSidewaysScroll(page);
  // Every control, and the label that holds the checkbox (the checkbox's touch target).
  for (const control of [...(await form.locator("button, select, input:not([type=checkbox])").all()), form.locator("label").filter({ hasText: "Enabled" })]) {
    const box = await control.boundingBox();
    expect(box, await control.evaluate((el) => el.outerHTML.slice(0, 80))).not.toBeNull();
    expect(box!.height, await control.evaluate((el) => el.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(44);
  }
  await page.screenshot({ path: shot("automations-builder-phone"), fullPage: true });
  await page.context().close();
});

test("an administrator sends urgent price questions to a team with the priority and team pickers, on desktop and phone", async ({ browser, request }) => {
  const stamp = Date.now() % 100000;
  const word = `cotacao${stamp}`;
  const team = (await api(request, "post", "/v1/teams", { name: `Sales ${stamp}` })) as { id: string; name: string };

  const page = await openAs(browser, { width: 1440, height: 900 });
  await page.goto("/settings/automations");
  await page.getByRole("button", { name: "New automation" }).click();
  const form = page.getByRole("form", { name: "New automation" });
  await form.getByLabel("Name").fill(`Urgent to Sales ${stamp}`);
  await expect(form.getByLabel("When").locator("option", { hasText: "An SLA target is missed" })).toHaveCount(1);
  await form.getByLabel("Condition 1 operator").selectOption("matches");
  await form.getByLabel("Condition 1 value").fill(word);
  await form.getByRole("button", { name: "Add condition" }).click();
  await form.getByLabel("Condition 2 field").selectOption("conversation.team_id");
  await form.getByLabel("Condition 2 operator").selectOption("not_equals");
  await form.getByLabel("Condition 2 value").selectOption({ label: team.name });
  await form.getByLabel("Action 1 type").selectOption("set_priority");
  await form.getByLabel("Action 1 priority").selectOption("urgent");
  await form.getByRole("button", { name: "Add action" }).click();
  await form.getByLabel("Action 2 type").selectOption("assign_team");
  await form.getByLabel("Action 2 team").selectOption({ label: team.name });
  await page.screenshot({ path: shot("automations-team-desktop"), fullPage: true });
  await expectNoSidewaysScroll(page);
  await form.getByRole("button", { name: "Save automation" }).click();
  await expect(page.getByRole("status")).toContainText(`Automation “Urgent to Sales ${stamp}” saved.`);
  const card = page.getByTestId("automation-rule").filter({ hasText: `Urgent to Sales ${stamp}` });
  await expect(card).toContainText(`Team is not “${team.name}”`);
  await expect(card).toContainText(`Set priority Urgent, Assign to team ${team.name}`);
  await page.context().close();

  const asked = await customerWrites(request, phone(), `Cliente ${stamp}`, `Qual é a ${word}?`);
  const conversation = (await api(request, "get", `/v1/conversations/${asked.conversation_id}`)) as { priority: string | null; team_id: string | null };
  expect(conversation).toMatchObject({ priority: "urgent", team_id: team.id });

  const phoneView = await openAs(browser, { width: 390, height: 844 });
  await phoneView.goto("/settings/automations");
  await phoneView.getByRole("button", { name: "New automation" }).click();
  const small = phoneView.getByRole("form", { name: "New automation" });
  await small.getByLabel("Condition 1 field").selectOption("conversation.priority");
  await small.getByLabel("Condition 1 operator").selectOption("equals");
  await small.getByLabel("Action 1 type").selectOption("apply_sla");
  await small.getByRole("button", { name: "Add action" }).click();
  await small.getByLabel("Action 2 type").selectOption("assign_team");
  await expectNoSidewaysScroll(phoneView);
  for (const control of [small.getByLabel("Condition 1 value"), small.getByLabel("Action 1 SLA policy"), small.getByLabel("Action 2 team")]) {
    expect((await control.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  await phoneView.screenshot({ path: shot("automations-team-phone"), fullPage: true });
  await phoneView.context().close();
});

test("a macro runs from the conversation's Macros menu in one click", async ({ browser, request }) => {
  const stamp = Date.now() % 100000;
  const label = (await api(request, "post", "/v1/labels", { name: `Refund ${stamp}`, color: "#dc2626" })) as { id: string; name: string };
  await api(request, "post", "/v1/macros", { name: `Refund and close ${stamp}`, visibility: "account", actions: [{ type: "add_label", label_id: label.id }, { type: "close" }] });
  const name = `Rita Reembolso ${stamp}`;
  const written = await customerWrites(request, phone(), name, "Quiero mi dinero");
  const page = await openAs(browser, { width: 1440, height: 900 });
  await page.goto("/inbox");
  await page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) }).click();
  await page.getByRole("button", { name: "Macros" }).click();
  await page.getByRole("dialog", { name: "Macros" }).getByRole("button", { name: new RegExp(`Refund and close ${stamp}`) }).click();
  await expect(page.getByRole("dialog", { name: "Macros" }).getByRole("status")).toContainText(`Ran “Refund and close ${stamp}”`);
  await page.screenshot({ path: shot("macro-menu-desktop") });
  const conversation = (await api(request, "get", `/v1/conversations/${written.conversation_id}`)) as { status: string; labels: { id: string }[] };
  expect(conversation).toMatchObject({ status: "closed", labels: [{ id: label.id }] });
  await page.context().close();
});

test("on a phone the Macros menu is reachable from the conversation and fits the screen", async ({ browser, request }) => {
  const stamp = Date.now() % 100000;
  await api(request, "post", "/v1/macros", { name: `Note it ${stamp}`, visibility: "account", actions: [{ type: "add_note", text: "Seen on the phone." }] });
  const name = `Pia Telefono ${stamp}`;
  const written = await customerWrites(request, phone(), name, "Hola desde el móvil");
  const page = await openAs(browser, { width: 390, height: 844 });
  await page.goto("/inbox");
  await page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) }).click();
  // On a phone the header is one row: Macros is in its ⋯ menu with the other actions.
  await page.getByRole("button", { name: "Conversation actions" }).click();
  await page.getByRole("button", { name: "Macros" }).click();
  const menu = page.getByRole("dialog", { name: "Macros" });
  const run = menu.getByRole("button", { name: new RegExp(`Note it ${stamp}`) });
  expect((await run.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: shot("macro-menu-phone") });
  await run.click();
  await expect(menu.getByRole("status")).toContainText(`Ran “Note it ${stamp}”`);
  const notes = (await api(request, "get", `/v1/conversations/${written.conversation_id}/notes`)) as { data: { text: string }[] };
  expect(notes.data.map((n) => n.text)).toEqual(["Seen on the phone."]);
  await page.context().close();
});
