import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, signIn } from "./helpers";

const desktop = { width: 1440, height: 900 };
const phoneViewport = { width: 390, height: 844 };
let seq = 0;
const phone = () => `1557${String(Date.now() + ++seq).slice(-7)}`;

async function api(request: APIRequestContext, method: "get" | "post" | "put" | "patch", path: string, data?: unknown) {
  const token = await adminApiToken(request);
  const res = await request[method](path, { headers: { authorization: `Bearer ${token}` }, ...(data === undefined ? {} : { data }) });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

async function signedIn(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, firstAdmin.email, firstAdmin.password);
  return page;
}

async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
}

async function tall(page: Page, selector: ReturnType<Page["getByLabel"]>) {
  if (page.viewportSize()!.width > 500) return;
  expect((await selector.boundingBox())!.height).toBeGreaterThanOrEqual(44);
}

for (const [width, viewport] of [
  ["desktop", desktop],
  ["phone", phoneViewport],
] as const) {
  test(`the inbox sorts by priority, urgent first, within a team (${width})`, async ({ browser, request }) => {
    const stamp = `${width} ${Date.now() % 100000}`;
    const team = await api(request, "post", "/v1/teams", { name: `Priority desk ${stamp}` });
    // The urgent one wrote first; the one without priority wrote last.
    const names = { urgent: `Ugo Urgent ${stamp}`, low: `Lia Low ${stamp}`, none: `Nico None ${stamp}` };
    for (const [key, priority] of [["urgent", "urgent"], ["low", "low"], ["none", null]] as const) {
      const inbound = await api(request, "post", "/api/sandbox/inbound", { from: phone(), name: names[key], type: "text", text: "Hello" });
      await api(request, "patch", `/v1/conversations/${inbound.conversation_id}`, { team_id: team.id, ...(priority ? { priority } : {}) });
    }
    const page = await signedIn(browser, viewport);
    await expect(page.getByRole("status", { name: "Live updates on" })).toBeVisible();
    await page.locator("#inbox-team-filter").selectOption({ label: team.name });
    const list = page.getByRole("list", { name: "Conversation list" });
    const order = () => list.getByRole("button").evaluateAll((rows) => rows.map((r) => (r.textContent ?? "").match(/(Ugo Urgent|Lia Low|Nico None)/)?.[1]).filter(Boolean));
    await expect.poll(order).toEqual(["Nico None", "Lia Low", "Ugo Urgent"]);

    const sort = page.getByLabel("Sort");
    await tall(page, sort);
    await sort.selectOption("priority");
    await expect.poll(order).toEqual(["Ugo Urgent", "Lia Low", "Nico None"]);
    // The priority shows in the row.
    await expect(list.getByRole("button", { name: new RegExp(names.urgent) }).getByTestId("priority-mark")).toHaveText(/urgent/i);
    await page.screenshot({ path: shot(`inbox-sort-priority-${width}`) });
    await noHorizontalScroll(page);
    await sort.selectOption("activity");
    await expect.poll(order).toEqual(["Nico None", "Lia Low", "Ugo Urgent"]);
    await page.context().close();
  });

  test(`Settings → Teams sets each person's capacity and a team's own assignment policy (${width})`, async ({ browser, request }) => {
    const team = await api(request, "post", "/v1/teams", { name: `Round desk ${width} ${Date.now() % 100000}` });
    const me = await api(request, "get", "/v1/users/me");
    const page = await signedIn(browser, viewport);
    await page.goto("/settings/teams");

    const capacity = page.getByRole("form", { name: "Capacity per person" }).getByLabel(me.name, { exact: true });
    await tall(page, capacity);
    await capacity.fill("7");
    await page.getByRole("button", { name: "Save capacities" }).click();
    await expect(page.getByText("Capacities saved.")).toBeVisible();

    const form = page.getByRole("form", { name: `Assignment for ${team.name}` });
    await expect(form.getByLabel("Policy")).toHaveValue("inherit");
    await expect(form.getByLabel("Capacity")).toBeDisabled();
    await form.getByLabel("Policy").selectOption("round_robin");
    await form.getByLabel("Capacity").fill("3");
    await tall(page, form.getByLabel("Capacity"));
    await form.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText(`${team.name}: saved.`)).toBeVisible();
    // What was typed and saved stays on screen (a slow first load does not wipe it).
    await expect(capacity).toHaveValue("7");
    await page.screenshot({ path: shot(`settings-assignment-${width}`), fullPage: true });
    await noHorizontalScroll(page);

    // Saved for real: the API and a fresh page say so.
    expect(await api(request, "get", `/v1/config/assignment?team_id=${team.id}`)).toMatchObject({ inherited: false, mode: "round_robin", capacity: 3 });
    expect((await api(request, "get", "/v1/config/assignment")).agent_capacities[me.id]).toBe(7);
    await page.reload();
    await expect(page.getByRole("form", { name: "Capacity per person" }).getByLabel(me.name, { exact: true })).toHaveValue("7");
    await expect(page.getByRole("form", { name: `Assignment for ${team.name}` }).getByLabel("Policy")).toHaveValue("round_robin");

    // Back to the account's policy, and no capacity of one's own.
    await page.getByRole("form", { name: `Assignment for ${team.name}` }).getByLabel("Policy").selectOption("inherit");
    await page.getByRole("form", { name: `Assignment for ${team.name}` }).getByRole("button", { name: "Save" }).click();
    await expect(page.getByText(`${team.name}: saved.`)).toBeVisible();
    expect(await api(request, "get", `/v1/config/assignment?team_id=${team.id}`)).toMatchObject({ inherited: true });
    await page.getByRole("form", { name: "Capacity per person" }).getByLabel(me.name, { exact: true }).fill("");
    await page.getByRole("button", { name: "Save capacities" }).click();
    await expect(page.getByText("Capacities saved.")).toBeVisible();
    expect((await api(request, "get", "/v1/config/assignment")).agent_capacities[me.id]).toBeUndefined();
    await page.context().close();
  });
}
