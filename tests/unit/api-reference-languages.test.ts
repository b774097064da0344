import { NextIntlClientProvider } from "next-intl";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ApiReference } from "@/components/docs/api-reference";
import { pseudoCatalog, readCatalog } from "@/i18n/messages";
import { buildReference, type OpenApiDoc } from "@/lib/openapi/reference";
import { buildPlantStoreDocument } from "@/lib/openapi/plant-store";
import { buildV1Document } from "@/lib/openapi/v1";
import { withIntl } from "@/tests/support/intl";

/*
 * The API reference pages in the reader's language: the page's own words come from the
 * `apiReference` catalog, while what the OpenAPI document says (summaries, descriptions, names,
 * types, values) stays as written and is marked as such (`lang="en"` content or `translate="no"`).
 */

const documents = {
  "/docs/v1": { doc: buildV1Document() as unknown as OpenApiDoc, url: "/v1/openapi.json" },
  "/docs/plant-store": { doc: buildPlantStoreDocument() as unknown as OpenApiDoc, url: "/plant-store/openapi.json" },
};

function page(path: keyof typeof documents) {
  const { doc, url } = documents[path];
  return createElement(ApiReference, { reference: buildReference(doc, { origin: "https://chorus.example.com" }), documentUrl: url });
}

type ProviderProps = { locale: string; messages: ReturnType<typeof readCatalog>; timeZone: string; children?: ReactNode };
const pseudo = (element: ReactNode) =>
  createElement(NextIntlClientProvider as (props: ProviderProps) => ReactNode, { locale: "en-XA", messages: pseudoCatalog(readCatalog("en")), timeZone: "UTC" }, element);

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const decode = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");

/**
 * The text of rendered HTML outside ⟦…⟧, as the browser check reads a page: skipping what is marked
 * as content (`data-user-content`), codes (`translate="no"`) and `<time>`. Returns each stray piece.
 */
function strayText(html: string): string[] {
  const stray: string[] = [];
  const stack: boolean[] = [];
  let depth = 0;
  const tag = /<(\/?)([a-zA-Z0-9]+)([^>]*?)(\/?)>/g;
  let last = 0;
  const text = (piece: string) => {
    if (stack.some(Boolean)) return;
    let outside = "";
    for (const char of decode(piece)) {
      if (char === "⟦") depth++;
      else if (char === "⟧") depth = Math.max(0, depth - 1);
      else if (depth === 0) outside += char;
    }
    if (/\p{L}/u.test(outside)) stray.push(outside.trim());
  };
  for (let match = tag.exec(html); match; match = tag.exec(html)) {
    text(html.slice(last, match.index));
    last = match.index + match[0].length;
    const [, closing, name, attributes, selfClosing] = match;
    if (closing) stack.pop();
    else if (!selfClosing && !VOID.has(name.toLowerCase())) {
      stack.push(/\bdata-user-content\b|\btranslate="no"/.test(attributes) || name === "time" || name === "script" || name === "style");
    }
  }
  text(html.slice(last));
  return stray;
}

describe("the API reference pages speak the reader's language", () => {
  it.each(Object.keys(documents) as (keyof typeof documents)[])("%s shows no page text the catalogs did not produce (pseudo-locale)", (path) => {
    const html = renderToString(pseudo(page(path)));
    expect(html).toContain("⟦");
    expect(strayText(html)).toEqual([]);
  });

  it("the checker finds English the page says on its own", () => {
    expect(strayText('<p>⟦Responses⟧</p><p>Request body</p><p lang="en" data-user-content="true">Send a message</p>')).toEqual(["Request body"]);
  });

  it("words the chrome in Spanish and keeps the document's own texts English, marked as English", () => {
    const html = renderToString(withIntl(page("/docs/v1"), "es"));
    const text = decode(html.replace(/<[^>]+>/g, ""));
    for (const phrase of ["Referencia de Chorus API", "Parámetros de ruta", "Cuerpo de la solicitud", "Respuestas", "Scopes requeridos:", "Ejemplo de solicitud (curl)", "Envíos de webhooks", "Respuestas de error", "Esquemas", "obligatorio", "opcional"]) {
      expect(text, phrase).toContain(phrase);
    }
    for (const english of ["Path parameters", "Request body", "Required scopes:", "Example request", "Error responses", "Every error answers"]) expect(text, english).not.toContain(english);
    // The operation's summary is the document's English, marked so screen readers pronounce it as English.
    expect(html).toMatch(/<p lang="en" data-user-content="true"[^>]*>Send a message<\/p>/);
    expect(html).toContain('aria-label="Copiar curl de POST /v1/messages"');
  });

  it("gathers untagged operations under the page's own word for “Other”", () => {
    const doc: OpenApiDoc = { openapi: "3.1.0", info: { title: "Shop", version: "1" }, paths: { "/health": { get: { operationId: "health", summary: "Health", responses: { "204": { description: "Fine." } } } } } };
    const reference = buildReference(doc, { origin: "https://chorus.example.com" });
    expect(reference.tags[0]).toMatchObject({ name: "Other", untagged: true });
    const html = renderToString(withIntl(createElement(ApiReference, { reference, documentUrl: "/shop.json" }), "es"));
    expect(html).toMatch(/<h2 id="tag-other-title"[^>]*>Otras<\/h2>/);
    expect(strayText(renderToString(pseudo(createElement(ApiReference, { reference, documentUrl: "/shop.json" }))))).toEqual([]);
  });

  it("writes limits in the reader's words and numbers", () => {
    const plants = decode(renderToString(withIntl(page("/docs/plant-store"), "es")).replace(/<[^>]+>/g, ""));
    expect(plants).toContain("de 1 a 200 caracteres");
    const portuguese = decode(renderToString(withIntl(page("/docs/plant-store"), "pt-BR")).replace(/<[^>]+>/g, ""));
    expect(portuguese).toContain("de 1 a 200 caracteres");
    expect(portuguese).toContain("Corpo da solicitação");
    const english = decode(renderToString(withIntl(page("/docs/plant-store"))).replace(/<[^>]+>/g, ""));
    expect(english).toContain("1 to 200 characters");
  });
});
