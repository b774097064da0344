import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, createTeammate, signIn } from "./helpers";

// What a new team noticed on its first working day, checked the way they saw it: in the browser.

const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };
const stamp = () => Date.now() % 1_000_000;
const number = () => `1555${String(Date.now()).slice(-7)}`;

async function customerWrites(request: APIRequestContext, from: string, name: string, text: string) {
  const token = await adminApiToken(request);
  const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: { from, name, type: "text", text } });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; conversation_id: string };
}

async function signedIn(browser: Browser, viewport: { width: number; height: number }, options: { timezoneId?: string } = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  await signIn(page, firstAdmin.email, firstAdmin.password);
  return page;
}

/** Whether any text of `locator` is cut: wider than its box, or outside its parent's box. */
async function clipped(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((nodes) =>
    nodes
      .filter((node) => {
        const box = node.getBoundingClientRect();
        const parent = node.parentElement!.getBoundingClientRect();
        return node.scrollWidth > node.clientWidth + 1 || box.left < parent.left - 1 || box.right > parent.right + 1 || box.bottom > parent.bottom + 1;
      })
      .map((node) => node.textContent),
  );
}

for (const [name, viewport] of [
  ["desktop", desktop],
  ["phone", phone],
] as const) {
  test(`every filter tab shows its whole name and its count on a ${name}`, async ({ browser, request }) => {
    await customerWrites(request, number(), `Tabita Pestañas ${stamp()}`, "Hola");
    const page = await signedIn(browser, viewport);
    await expect(page.getByRole("status", { name: "Live updates on" })).toBeVisible();
    const tabs = page.getByRole("tablist", { name: "Filter conversations" }).getByRole("tab");
    await expect(tabs).toHaveCount(6);
    await expect(page.getByTestId("count-all")).toBeVisible();
    expect(await clipped(page, "[role=tablist][aria-label='Filter conversations'] > [role=tab]")).toEqual([]);
    for (const [id, label] of [
      ["all", "All"],
      ["mine", "Mine"],
      ["unassigned", "Unassigned"],
      ["snoozed", "Snoozed"],
      ["closed", "Closed"],
      ["mentions", "Mentions"],
    ]) {
      const tab = tabs.filter({ hasText: label });
      await expect(tab).toBeVisible();
      await expect(tab.getByTestId(`count-${id}`)).toHaveText(/^\d+$/);
    }
    // Nothing is hidden behind a sideways scroll either.
    const strip = await page.getByRole("tablist", { name: "Filter conversations" }).evaluate((node) => ({ scroll: node.scrollWidth, client: node.clientWidth }));
    expect(strip.scroll).toBeLessThanOrEqual(strip.client);
    await page.screenshot({ path: shot(`working-day-tabs-${name}`) });
    await page.context().close();
  });
}

/** Opens the inbox on a conversation the customer just started. */
async function openConversation(page: Page, request: APIRequestContext, customer: string, text = "Hola") {
  const { conversation_id } = await customerWrites(request, number(), customer, text);
  await page.goto(`/inbox/${conversation_id}`);
  const thread = page.getByRole("region", { name: "Conversation", exact: true });
  await expect(thread).toContainText(text);
  return { conversationId: conversation_id, thread };
}

test("a canned reply saved in Spanish is found from the composer's / as the team types it", async ({ browser, request }) => {
  const run = stamp();
  const shortcut = `devolución${run}`;
  const page = await signedIn(browser, desktop);
  // Saved through the settings page, as an administrator would.
  await page.goto("/settings/canned-replies");
  await page.getByLabel("Shortcut").fill(shortcut);
  await page.getByLabel("Text").fill("Hola {{contact.name}}, la devolución es gratis durante 30 días.");
  await page.getByRole("button", { name: "Add canned reply" }).click();
  await expect(page.locator(`[data-shortcut="${shortcut}"]`)).toContainText("la devolución es gratis");
  // And one in Portuguese through the API.
  const token = await adminApiToken(request);
  const saved = await request.post("/v1/canned-replies", { headers: { authorization: `Bearer ${token}` }, data: { shortcut: `ação${run}`, text: "Uma ação rápida." } });
  expect(saved.status()).toBe(201);

  const customer = `Dora Devolución ${run}`;
  await openConversation(page, request, customer, "Quiero devolver la maceta");
  const reply = page.getByLabel("Reply", { exact: true });
  const suggestions = page.getByRole("listbox", { name: "Canned replies" });
  // Typed with its accent, partly…
  await reply.pressSequentially("/devolu");
  await expect(suggestions.getByRole("option", { name: new RegExp(`/${shortcut}`) })).toBeVisible();
  // …past the accent, and without it (a phone keyboard without the accent at hand).
  await reply.fill("");
  await reply.pressSequentially(`/devolucion${run}`);
  await expect(suggestions.getByRole("option", { name: new RegExp(`/${shortcut}`) })).toBeVisible();
  await reply.press("Enter");
  await expect(reply).toHaveValue(`Hola ${customer}, la devolución es gratis durante 30 días.`);
  await reply.fill("");
  await reply.pressSequentially(`/ação${run}`);
  await expect(suggestions.getByRole("option", { name: new RegExp(`/ação${run}`) })).toBeVisible();
  await reply.press("Tab");
  await expect(reply).toHaveValue("Uma ação rápida.");
  await page.screenshot({ path: shot("working-day-canned-spanish") });
  await page.context().close();
});

test("every inbox menu closes after a choice, on Escape and on a press outside it", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const run = stamp();
  const token = await adminApiToken(request);
  const labelName = `Urgente ${run}`;
  expect((await request.post("/v1/labels", { headers: { authorization: `Bearer ${token}` }, data: { name: labelName, color: "#dc2626" } })).status()).toBe(201);
  const page = await signedIn(browser, desktop);
  const { thread } = await openConversation(page, request, `Mena Menús ${run}`, "Hola, ¿hay envío?");
  const outside = () => page.getByRole("heading", { name: "Inbox" }).click();
  const header = page.getByTestId("conversation-header");

  // Labels: ticking one is the choice; the menu closes and the chip is in the header.
  const labelsButton = page.getByRole("button", { name: "Labels", exact: true });
  const labels = page.getByRole("dialog", { name: "Labels" });
  await labelsButton.click();
  await labels.getByText(labelName).click();
  await expect(labels).toBeHidden();
  await expect(header.getByTestId("label-chip").filter({ hasText: labelName })).toBeVisible();
  // Escape closes it and gives the focus back to its button; so does a press outside.
  await labelsButton.click();
  await expect(labels).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(labels).toBeHidden();
  await expect(labelsButton).toBeFocused();
  await labelsButton.click();
  await outside();
  await expect(labels).toBeHidden();
  // Opening another menu closes the first: never two at once.
  const snoozeButton = page.getByRole("button", { name: "Snooze", exact: true });
  const snooze = page.getByRole("dialog", { name: "Snooze until" });
  await labelsButton.click();
  await snoozeButton.click();
  await expect(snooze).toBeVisible();
  await expect(labels).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(snooze).toBeHidden();

  // Reactions: Escape and a press outside close the emoji menu; an emoji chosen closes it too.
  const bubble = thread.getByText("Hola, ¿hay envío?");
  await bubble.hover();
  const react = thread.getByRole("button", { name: "Add a reaction" }).first();
  const emojis = thread.getByRole("menu");
  await react.click();
  await expect(emojis).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(emojis).toBeHidden();
  await bubble.hover();
  await react.click();
  await expect(emojis).toBeVisible();
  await outside();
  await expect(emojis).toBeHidden();
  await bubble.hover();
  await react.click();
  await emojis.getByRole("menuitem", { name: "React 👍" }).click();
  await expect(emojis).toBeHidden();

  // Polish: a press outside closes it.
  const reply = page.getByLabel("Reply", { exact: true });
  await reply.fill("hola q tal, mañana t lo mando");
  await page.getByRole("button", { name: "Polish" }).click();
  const polish = page.getByRole("dialog", { name: "Polish the reply" });
  await expect(polish).toBeVisible();
  await outside();
  await expect(polish).toBeHidden();
  await reply.fill("");

  // The account menu in the header: Escape, a press outside, and following its link close it.
  const accountButton = page.getByRole("button", { name: "Account", exact: true });
  const account = page.getByRole("group", { name: "Account" });
  await accountButton.click();
  await expect(account).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(account).toBeHidden();
  await accountButton.click();
  await outside();
  await expect(account).toBeHidden();

  // Snooze: a preset chosen closes the menu.
  await snoozeButton.click();
  await snooze.getByRole("button", { name: /^In 1 hour/ }).click();
  await expect(snooze).toBeHidden();
  await expect(page.getByTestId("conversation-status")).toHaveText("Snoozed");
  await page.screenshot({ path: shot("working-day-menus-closed") });

  await accountButton.click();
  await account.getByRole("link", { name: "Password and sign-in" }).click();
  await expect(page).toHaveURL(/\/settings\/account/);
  await expect(account).toBeHidden();
  await page.context().close();
});

test("opening hours start in the browser's time zone when none is saved yet", async ({ browser, request }) => {
  const token = await adminApiToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const before = await (await request.get("/v1/config/business-profile", { headers })).json();
  const put = (body: unknown) => request.put("/v1/config/business-profile", { headers, data: body });
  const withoutHours = { ...before, hours: null, auto_reply: { ...before.auto_reply, outside_hours: { ...before.auto_reply.outside_hours, enabled: false }, hours_question: { enabled: false } } };
  expect((await put(withoutHours)).status()).toBe(200);
  try {
    const page = await signedIn(browser, desktop, { timezoneId: "America/Sao_Paulo" });
    await page.goto("/settings/profile");
    await page.getByLabel("Publish opening hours").check();
    await expect(page.getByLabel("Time zone", { exact: true })).toHaveValue("America/Sao_Paulo");
    await page.getByLabel("Monday opening time 1").fill("09:00");
    await page.getByLabel("Monday closing time 1").fill("18:00");
    await page.screenshot({ path: shot("working-day-hours-browser-zone") });
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect.poll(async () => (await (await request.get("/v1/config/business-profile", { headers })).json()).hours?.timezone).toBe("America/Sao_Paulo");
    await page.context().close();
  } finally {
    expect((await put(before)).status()).toBe(200);
  }
});

test("every page has exactly one main landmark", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const { conversation_id } = await customerWrites(request, number(), `Marta Landmark ${stamp()}`, "Hola");
  const token = await adminApiToken(request);
  const contacts = await (await request.get("/v1/contacts?limit=1", { headers: { authorization: `Bearer ${token}` } })).json();
  const signedInPages = [
    "/inbox",
    `/inbox/${conversation_id}`,
    "/contacts",
    `/contacts/${contacts.data[0].id}`,
    "/reports",
    "/settings",
    "/settings/profile",
    "/settings/survey",
    "/settings/number",
    "/settings/templates",
    "/settings/users",
    "/settings/inbox",
    "/settings/canned-replies",
    "/settings/labels",
    "/settings/tokens",
    "/settings/webhooks",
    "/settings/apps",
    "/settings/audit-log",
    "/settings/account",
    "/docs",
    "/docs/v1",
    "/docs/plant-store",
    "/oauth/authorize",
    "/no-such-page",
    "/contacts/ctc_00000000000000000000000000",
  ];
  const page = await signedIn(browser, desktop);
  const found: Record<string, number> = {};
  for (const path of signedInPages) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    found[path] = await page.locator("main, [role=main]").count();
  }
  await page.context().close();

  const outsider = await browser.newContext({ viewport: phone });
  const anonymous = await outsider.newPage();
  for (const path of ["/login", "/setup", "/invite/not-a-real-invitation", "/reset-password/not-a-real-token", "/no-such-page"]) {
    await anonymous.goto(path);
    await anonymous.waitForLoadState("networkidle");
    found[`${path} (signed out)`] = await anonymous.locator("main, [role=main]").count();
  }
  await outsider.close();
  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((path) => [path, 1])));
});

test("a teammate typing a reply is never shown as Offline", async ({ browser, request }) => {
  const run = stamp();
  const bruno = await createTeammate(request, "agent", `Bruno Tecleo ${run}`);
  // Bruno answers from a phone app through the API: no inbox of his is open in a browser.
  const login = await request.post("/v1/auth/login", { data: { email: bruno.email, password: bruno.password } });
  expect(login.status()).toBe(200);
  const brunoToken = (await login.json()).token as string;

  const page = await signedIn(browser, desktop);
  const { conversationId } = await openConversation(page, request, `Paula Presencia ${run}`, "¿Siguen abiertos?");
  const team = page.getByRole("region", { name: "Team" });
  const brunoRow = team.getByTestId("teammate").filter({ hasText: bruno.name });
  await expect(brunoRow).toContainText("Offline");

  const typesOnce = async () => {
    const typing = await request.post(`/v1/conversations/${conversationId}/typing`, { headers: { authorization: `Bearer ${brunoToken}` }, data: {} });
    expect(typing.status()).toBe(204);
  };
  // He keeps typing while the panel is looked at, as a person typing does (his app says so
  // every 2 s), so a slow machine does not see the 6 s display window run out mid-check.
  await typesOnce();
  let stillTyping = true;
  const typingGoesOn = (async () => {
    while (stillTyping) {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      if (stillTyping) await typesOnce();
    }
  })();
  try {
    await expect(page.getByTestId("typing-indicator")).toHaveText(`${bruno.name} is replying…`);
    await expect(brunoRow).toHaveAttribute("data-online", "true");
    await expect(brunoRow).not.toContainText("Offline");
    await expect(brunoRow.getByTestId("presence")).toHaveText("Replying…");
    await page.screenshot({ path: shot("working-day-presence-typing") });
  } finally {
    stillTyping = false;
    await typingGoesOn;
  }
  // Once he stops, the panel shows what his connection says again.
  await expect(page.getByTestId("typing-indicator")).toHaveText("", { timeout: 15_000 });
  await expect(brunoRow).toContainText("Offline");
  await page.context().close();
});

test("contacts list whoever wrote last first, and sort by name on request", async ({ browser, request }) => {
  const run = stamp();
  const word = `Orden${run}`;
  const zoe = number();
  await customerWrites(request, zoe, `Zoe ${word}`, "Hola");
  await customerWrites(request, `1556${String(Date.now()).slice(-7)}`, `Álvaro ${word}`, "Buenas");
  await customerWrites(request, `1557${String(Date.now()).slice(-7)}`, `bruno ${word}`, "Oi");
  await customerWrites(request, zoe, `Zoe ${word}`, "¿Me ayudan?");

  for (const [name, viewport] of [
    ["desktop", desktop],
    ["phone", phone],
  ] as const) {
    const page = await signedIn(browser, viewport);
    await page.goto("/contacts");
    await page.getByLabel("Search contacts").fill(word);
    const rows = page.getByRole("list", { name: "Contacts" }).getByRole("link");
    await expect(rows).toHaveCount(3);
    await expect(page.getByLabel("Sort by")).toHaveValue("last_message");
    await expect(rows).toContainText([`Zoe ${word}`, `bruno ${word}`, `Álvaro ${word}`]);
    await page.getByLabel("Sort by").selectOption({ label: "Name (A–Z)" });
    await expect(rows).toContainText([`Álvaro ${word}`, `bruno ${word}`, `Zoe ${word}`]);
    await page.screenshot({ path: shot(`working-day-contacts-by-name-${name}`) });
    await page.context().close();
  }
});
