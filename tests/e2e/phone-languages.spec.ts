import { expect, type Page, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminSpeaking, adminApiToken, signIn } from "./helpers";

/*
 * Spanish and Portuguese words are longer than English ones. At 390×844, in `es` and `pt-BR`, no
 * page scrolls sideways and no text the interface wrote is cut short (an ellipsis or a clip):
 * what people typed (names, messages) may be truncated in a list, the product's own words not.
 */

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
  "/docs/v1",
];

/** The page's widest element past the screen's edge (not inside something that scrolls or clips it). */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const width = root.clientWidth;
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
      widest = `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 80)}: ${(element.textContent ?? "").trim().slice(0, 60)}`;
    }
    return { scroll: root.scrollWidth, width, widest };
  });
}

/** Controls past the screen's right edge, even when a card or the page's scroller clips them (not in a strip made to scroll sideways). */
async function controlsOffScreen(page: Page) {
  return page.evaluate(() => {
    const width = (document.scrollingElement ?? document.documentElement).clientWidth;
    const off: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>("select, input:not([type=hidden]), textarea, button, a[href]")) {
      if (!element.checkVisibility() || element.getClientRects().length === 0 || element.closest("[aria-hidden='true'], .sr-only")) continue;
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.right <= width + 1) continue;
      // A strip made to scroll sideways (code, a wide table) may hold controls past the edge.
      if (element.closest("pre, [class*='overflow-x-auto'], [class*='overflow-x-scroll']")) continue;
      off.push(`<${element.tagName.toLowerCase()} ${element.id ? `#${element.id}` : ""}> ${(element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40)} ends at ${Math.round(box.right)} px`);
    }
    return off;
  });
}

/** The interface's own text that is cut short: a visible element clipping its words (ellipsis or hidden overflow). */
async function cutText(page: Page) {
  return page.evaluate(() => {
    const cut: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>("body *")) {
      if (element.closest("[data-user-content], [translate='no'], input, textarea, select, pre, code, time, [aria-hidden='true'], [hidden]")) continue;
      const own = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? "").join("").trim();
      if (!/\p{L}/u.test(own)) continue;
      const style = getComputedStyle(element);
      if (style.overflowX === "visible" && style.textOverflow !== "ellipsis") continue;
      if (!element.checkVisibility() || element.getClientRects().length === 0) continue;
      // Words for screen readers only sit in a 1 px box on purpose.
      if (element.clientWidth <= 1 || style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)") continue;
      if (element.scrollWidth > element.clientWidth + 1) cut.push(`“${own.slice(0, 60)}” (${element.scrollWidth} > ${element.clientWidth} px, <${element.tagName.toLowerCase()} class="${String(element.className).slice(0, 60)}">)`);
    }
    return cut;
  });
}

for (const locale of ["es", "pt-BR"] as const) {
  test(`phone in ${locale}: no page scrolls sideways and none cuts its own words short`, async ({ browser, request }) => {
    test.setTimeout(240_000);
    // A conversation, so the inbox's list and thread have their controls.
    const token = await adminApiToken(request);
    const inbound = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: { from: `4479${String(Date.now()).slice(-8)}`, name: "Lucía Fernández", type: "text", text: "¿Llega mi pedido mañana?" } });
    expect(inbound.status()).toBe(201);
    const conversation = (await inbound.json()).conversation_id as string;

    const admin = await adminSpeaking(request, locale, `Phone ${locale}`);
    const context = await browser.newContext({ viewport: phone });
    const page = await context.newPage();
    await signIn(page, admin.email, admin.password);
    const problems: string[] = [];
    for (const path of [...pages, `/inbox/${conversation}`]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle").catch(() => undefined);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      const sizes = await sidewaysOverflow(page);
      if (sizes.scroll > sizes.width) problems.push(`${path} scrolls sideways (${sizes.scroll} > ${sizes.width}): ${sizes.widest}`);
      for (const text of await cutText(page)) problems.push(`${path}: ${text}`);
      for (const control of await controlsOffScreen(page)) problems.push(`${path}: ${control}`);
      await page.screenshot({ path: shot(`phone-${locale}${path.startsWith("/inbox/") ? "-conversation" : path.replaceAll("/", "-")}`), fullPage: true });
    }
    await context.close();
    expect(problems).toEqual([]);
  });
}
