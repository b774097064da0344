import { expect, type Page, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

// Every page at 390×844: nothing scrolls sideways, and the controls a thumb reaches for are at
// least 44 px tall and wide.

const phone = { width: 390, height: 844 };

const pages = [
  "/inbox",
  "/contacts",
  "/campaigns",
  "/reports",
  "/settings",
  "/settings/profile",
  "/settings/survey",
  "/settings/assistant",
  "/settings/number",
  "/settings/templates",
  "/settings/users",
  "/settings/inbox",
  "/settings/canned-replies",
  "/settings/labels",
  "/settings/automations",
  "/settings/macros",
  "/settings/teams",
  "/settings/tokens",
  "/settings/webhooks",
  "/settings/apps",
  "/settings/audit-log",
  "/settings/notifications",
  "/settings/account",
  "/docs",
];

async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const width = root.clientWidth;
    // The element sticking out furthest, to name it when it does.
    let widest = "";
    let right = width;
    for (const element of document.querySelectorAll("body *")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= right + 1) continue;
      let clipped = false;
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX !== "visible" && parent.getBoundingClientRect().right <= width + 1) {
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      right = box.right;
      widest = `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 80)}`;
    }
    return { scroll: root.scrollWidth, body: document.body.scrollWidth, width, widest };
  });
}

/**
 * The controls a thumb reaches for: the header's (menu, home link, account menu), the settings
 * menu's links, the inbox's filter tabs and the buttons above its list.
 */
async function smallHeaderControls(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("body > div header a, body > div header button, nav[aria-label] > a, [role=tablist] > [role=tab], [data-testid=list-toolbar] button")]
      .filter((element) => element.offsetParent !== null)
      .map((element) => ({ name: element.getAttribute("aria-label") ?? element.textContent?.trim() ?? "", box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.height < 44 || box.width < 44)
      .map(({ name, box }) => `${name} (${Math.round(box.width)}×${Math.round(box.height)})`),
  );
}

test("phone: no page scrolls sideways, and the controls a thumb reaches for are thumb-sized", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(phone);
  await signInAsOwner(page);
  const problems: string[] = [];
  for (const path of pages) {
    await page.goto(path);
    await page.waitForLoadState("networkidle").catch(() => undefined);
    await expect(page.locator("body")).toBeVisible();
    const sizes = await sidewaysOverflow(page);
    if (sizes.scroll > sizes.width || sizes.body > sizes.width) problems.push(`${path} scrolls sideways (${sizes.scroll} > ${sizes.width}): ${sizes.widest}`);
    for (const control of await smallHeaderControls(page)) problems.push(`${path}: control ${control} is under 44 px`);
    await page.screenshot({ path: shot(`phone-page${path.replaceAll("/", "-")}`), fullPage: false });
  }
  expect(problems).toEqual([]);
});

test("the inbox's first page of conversations comes with the page, not after a request of its own", async ({ page, request }) => {
  const token = await adminApiToken(request);
  const name = `Sofia Served ${Date.now() % 100000}`;
  const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: { from: `4477${String(Date.now()).slice(-8)}`, name, type: "text", text: "Is the fern pet-safe?" } });
  expect(res.status()).toBe(201);
  await page.setViewportSize(phone);
  await signInAsOwner(page);
  // The HTML the server sends already lists the conversation.
  const html = await (await page.context().request.get("/inbox")).text();
  // (The page also carries the interface's catalogs, the empty list's words among them: look in the list itself.)
  const list = /<ul[^>]*aria-label="Conversation list"[^>]*>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "";
  expect(list).toContain(name);
  // And the script does not ask for that page again. (The inbox the sign-in landed on is left
  // first: its own catch-up request, once its live connection is up, is not this page's.)
  await page.goto("about:blank");
  const listRequests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/inbox/conversations?")) listRequests.push(r.url());
  });
  await page.goto("/inbox");
  await expect(page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) })).toBeVisible();
  // Once the live connection is up the script asks once more, for what arrived between the
  // page's rendering and that moment; never more than that.
  await expect(page.locator('main[data-live="live"]')).toBeAttached();
  await page.waitForLoadState("networkidle").catch(() => undefined);
  expect(listRequests.length).toBeLessThanOrEqual(1);
});
