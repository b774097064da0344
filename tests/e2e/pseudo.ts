import type { Page } from "@playwright/test";

/*
 * The pseudo-locale check: with the `chorus_pseudo_locale` cookie the test server wraps every
 * catalog string in ⟦…⟧ (the en-XA locale), so any visible word outside the markers is one the
 * catalogs did not produce.
 */

/**
 * Visible text (and aria-labels, titles, placeholders) of the page's main area (or `rootSelector`) left once every marked
 * stretch is taken out. Text nodes are joined in document order first, since one catalog string
 * may hold a name or a link in the middle; what a person typed into a field is not looked at, and
 * a `<time>` holds a date the reader's locale formatted.
 */
export async function strayText(page: Page, rootSelector = "main"): Promise<string[]> {
  return page.evaluate((rootSelector) => {
    const skipped = (el: Element | null) =>
      !!el?.closest("[data-user-content], [translate='no'], script, style, noscript, template, textarea, time, [hidden], [aria-hidden='true']");
    const visible = (el: Element) => {
      const box = (el as HTMLElement).getBoundingClientRect();
      const style = getComputedStyle(el);
      return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
    };
    const unmarked = (text: string) => {
      // Markers nest (a catalog string inside another): take out the innermost until none is left.
      let rest = text;
      for (let before = ""; before !== rest; ) {
        before = rest;
        rest = rest.replace(/⟦[^⟦⟧]*⟧/g, " ");
      }
      return rest;
    };
    // Only letters make words: digits, punctuation, symbols and their variation marks (↩︎, ☺︎) do not.
    const words = (text: string) => text.replace(/[^\p{L}]/gu, "");
    const root = document.querySelector(rootSelector) ?? document.body;
    const pieces: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent ?? "";
      if (!parent || !text.trim()) continue;
      // A skipped stretch stands for one word, so a marker around it still closes.
      pieces.push(skipped(parent) || !visible(parent) ? "\u0001" : text);
    }
    const found = unmarked(pieces.join(""))
      .split("\u0001")
      .map((piece) => piece.trim())
      .filter((piece) => words(piece));
    for (const el of root.querySelectorAll("[aria-label], [title], [placeholder]")) {
      if (skipped(el) && el.tagName !== "TEXTAREA") continue;
      for (const attr of ["aria-label", "title", "placeholder"]) {
        const value = el.getAttribute(attr);
        if (value && words(unmarked(value))) found.push(`${attr}="${value.slice(0, 120)}"`);
      }
    }
    return [...new Set(found)].map((text) => text.slice(0, 160));
  }, rootSelector);
}
