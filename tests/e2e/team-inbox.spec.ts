import { type Browser, expect, type Page, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminApiToken, createTeammate, signIn } from "./helpers";

const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

async function openInbox(browser: Browser, email: string, password: string, viewport = desktop) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, email, password);
  await expect(page.getByRole("status", { name: "Live updates on" })).toBeVisible();
  return page;
}

const conversationRow = (page: Page, name: string) => page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });

test("teammates discuss a conversation: a mention reaches the other agent live, typing shows, a canned reply fills the customer's name", async ({ browser, request }) => {
  const token = await adminApiToken(request);
  const auth = { authorization: `Bearer ${token}` };
  const run = Date.now() % 100_000;
  const ana = await createTeammate(request, "agent", `Ana Lima ${run}`);
  const bruno = await createTeammate(request, "agent", `Bruno Costa ${run}`);
  const customer = `Rosa Gómez ${run}`;
  const canned = await request.post("/v1/canned-replies", { headers: auth, data: { shortcut: `greet${run}`, text: "Hola {{contact.name}}, soy {{agent.name}}. ¿En qué te ayudo?" } });
  expect(canned.status()).toBe(201);
  const inbound = await request.post("/api/sandbox/inbound", {
    headers: auth,
    data: { from: `3491${String(run).padStart(7, "0")}`, name: customer, type: "text", text: "¿Tienen macetas de barro grandes?" },
  });
  expect(inbound.status()).toBe(201);
  const bystander = `Otro Cliente ${run}`;
  const other = await request.post("/api/sandbox/inbound", {
    headers: auth,
    data: { from: `3492${String(run).padStart(7, "0")}`, name: bystander, type: "text", text: "Hola" },
  });
  expect(other.status()).toBe(201);

  const anaPage = await openInbox(browser, ana.email, ana.password);
  const brunoPage = await openInbox(browser, bruno.email, bruno.password, phone);
  await conversationRow(anaPage, customer).click();
  await conversationRow(brunoPage, customer).click();
  const anaThread = anaPage.getByRole("log", { name: `Messages with ${customer}` });
  const brunoThread = brunoPage.getByRole("log", { name: `Messages with ${customer}` });
  await expect(anaThread).toContainText("macetas de barro");
  await expect(brunoThread).toContainText("macetas de barro");
  await expect(anaThread.getByTestId("activity-item").first()).toContainText(`${customer} started the conversation`);

  // Ana writes a note and mentions Bruno through the @ suggestions.
  await anaPage.getByRole("radio", { name: "Note" }).click();
  const note = anaPage.getByLabel("Internal note");
  await note.pressSequentially("@Bru");
  const suggestions = anaPage.getByRole("listbox", { name: "Mention a teammate" });
  await expect(suggestions.getByRole("option", { name: new RegExp(bruno.name) })).toBeVisible();
  await note.press("Enter");
  await expect(note).toHaveValue(`@${bruno.name} `);
  await note.pressSequentially("¿puedes mirar el stock?");
  await note.press("Enter");
  await expect(anaThread.getByTestId("note")).toContainText("¿puedes mirar el stock?");
  await expect(note).toHaveValue("");

  // Bruno, on his phone, gets it live: the bell counts it and the note is in the thread, highlighted.
  await expect(brunoPage.getByTestId("notifications-unread")).toHaveText("1");
  await expect(brunoThread.getByTestId("note")).toContainText(`@${bruno.name}`);
  await brunoPage.screenshot({ path: shot("team-inbox-phone-note") });

  // Bruno starts typing a reply; Ana sees that he is replying.
  await brunoPage.getByLabel("Reply", { exact: true }).pressSequentially("Lo miro");
  await expect(anaPage.getByTestId("typing-indicator")).toHaveText(`${bruno.name} is replying…`);
  await anaPage.screenshot({ path: shot("team-inbox-desktop-note-typing") });
  await brunoPage.getByLabel("Reply", { exact: true }).fill("");

  // Ana inserts the canned reply with "/" and sends it: the customer's and her names are filled in,
  // and her reply assigns the conversation to her.
  await anaPage.getByRole("radio", { name: "Reply" }).click();
  const reply = anaPage.getByLabel("Reply", { exact: true });
  await reply.pressSequentially(`/greet${run}`.slice(0, 4));
  await expect(anaPage.getByRole("listbox", { name: "Canned replies" }).getByRole("option", { name: new RegExp(`/greet${run}`) })).toBeVisible();
  await reply.press("Enter");
  await expect(reply).toHaveValue(`Hola ${customer}, soy ${ana.name}. ¿En qué te ayudo?`);
  await reply.press("Enter");
  await expect(anaThread).toContainText(`Hola ${customer}, soy ${ana.name}.`);
  await expect(anaPage.getByTestId("conversation-assignee")).toHaveText("Assigned to you");
  await expect(anaThread.getByTestId("activity-item").last()).toContainText("You replied first and took this conversation");
  await expect(brunoThread.getByTestId("activity-item").last()).toContainText(`${ana.name} replied first and took this conversation`);
  // The reply stays in the thread once the live updates about it have arrived.
  await expect(brunoThread).toContainText(`Hola ${customer}, soy ${ana.name}.`);
  await expect(anaThread).toContainText(`Hola ${customer}, soy ${ana.name}.`);
  await anaPage.screenshot({ path: shot("team-inbox-desktop-thread") });

  // On a phone the bell sits above the list: it lists the mention and opens the conversation.
  await brunoPage.getByRole("button", { name: "Back to conversations" }).click();
  await brunoPage.getByTestId("notifications-bell").click();
  const panel = brunoPage.getByRole("dialog", { name: "Notifications" });
  await expect(panel.getByTestId("notification-item")).toContainText(`${ana.name} mentioned you`);
  const box = await panel.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= phone.width).toBe(true);
  await brunoPage.screenshot({ path: shot("team-inbox-phone-bell") });
  await panel.getByTestId("notification-item").click();
  await expect(brunoThread).toBeVisible();
  await brunoPage.getByRole("button", { name: "Back to conversations" }).click();
  await expect(brunoPage.getByTestId("notifications-unread")).toHaveCount(0);
  await expect(conversationRow(brunoPage, bystander)).toBeVisible();
  await brunoPage.getByRole("tab", { name: "Mentions" }).click();
  await expect(conversationRow(brunoPage, bystander)).toHaveCount(0);
  await expect(conversationRow(brunoPage, customer)).toBeVisible();
  await brunoPage.screenshot({ path: shot("team-inbox-phone-mentions") });

  await anaPage.context().close();
  await brunoPage.context().close();
});

test("an administrator manages canned replies and the auto-assign setting in settings", async ({ browser, request }) => {
  // Two sign-ins and two page sizes.
  test.setTimeout(120_000);
  const admin = await createTeammate(request, "admin", `Carla Admin ${Date.now() % 100_000}`);
  for (const viewport of [desktop, phone]) {
    const page = await openInbox(browser, admin.email, admin.password, viewport);
    await page.goto("/settings/canned-replies");
    const shortcut = `thanks${viewport.width}`;
    await page.getByLabel("Shortcut").fill(shortcut);
    await page.getByLabel("Text").fill("Gracias, {{contact.name}}. — {{business.name}}");
    await page.getByRole("button", { name: "Add canned reply" }).click();
    await expect(page.locator(`[data-shortcut="${shortcut}"]`)).toContainText("Gracias, {{contact.name}}");
    // The same shortcut again is refused with a plain message.
    await page.getByLabel("Shortcut").fill(shortcut);
    await page.getByLabel("Text").fill("Otra vez");
    await page.getByRole("button", { name: "Add canned reply" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "already exists" })).toContainText(`"/${shortcut}" already exists`);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scroll).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: shot(`team-inbox-canned-settings-${viewport.width}`), fullPage: true });

    await page.goto("/settings/inbox");
    const toggle = page.getByRole("switch", { name: "Assign a conversation to whoever replies first" });
    await expect(toggle).toBeChecked();
    if (viewport === desktop) {
      await toggle.uncheck();
      await expect(page.getByText("Replies no longer assign conversations.")).toBeVisible();
      await page.reload();
      await expect(toggle).not.toBeChecked();
      await toggle.check();
      await expect(page.getByText("Replies now assign unassigned conversations.")).toBeVisible();
    }
    await page.screenshot({ path: shot(`team-inbox-inbox-settings-${viewport.width}`) });
    await page.context().close();
  }
});
