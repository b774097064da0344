import formatCompiledOnly from "use-intl/format-message/format-only";
import { _createCache, _createIntlFormatters, createTranslator } from "use-intl/core";
import { describe, expect, it } from "vitest";
import serverFormat from "@/i18n/format-message";
import { compiledMessages, type CompiledMessages, loadMessages, type Messages } from "@/i18n/messages";
import { type AppLocale, locales, PSEUDO_LOCALE } from "@/lib/platform/i18n/locales";

// The browser formats the catalogs it is sent compiled, with next-intl's small formatter; the
// server formats both those and its own ICU text (i18n/format-message.ts). Every message of every
// catalog must read the same either way as next-intl's own formatter makes of the ICU text.

type Leaf = { key: string; raw: string; compiled: unknown };

function leaves(raw: Messages, compiled: CompiledMessages, prefix = ""): Leaf[] {
  return Object.entries(raw).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === "string" ? [{ key: path, raw: value, compiled: compiled[key] }] : leaves(value, compiled[key] as CompiledMessages, path);
  });
}

/** Values for every argument and tag a compiled message names: numbers for plurals and numbers, a date for dates, text otherwise. */
function valuesFor(node: unknown, values: Record<string, unknown> = {}): Record<string, unknown> {
  if (!Array.isArray(node)) return values;
  const [name, type, options] = node as [unknown, unknown, unknown];
  if (typeof name === "string" && node.length >= 1 && (type === undefined || typeof type === "number" || typeof type === "string" || Array.isArray(type))) {
    if (type === undefined) values[name] ??= `«${name}»`;
    else if (type === 2 || type === 3 || type === 4) values[name] = 3;
    else if (type === 5 || type === 6) values[name] = new Date(Date.UTC(2026, 10, 24, 15, 30));
    else if (type === 1) values[name] = Object.keys(options as object).find((key) => key !== "other") ?? "other";
    else values[name] = (chunks: string[] | string) => `<${name}>${Array.isArray(chunks) ? chunks.join("") : chunks}</${name}>`;
  }
  for (const child of node) {
    if (Array.isArray(child)) valuesFor(child, values);
    else if (child && typeof child === "object") for (const option of Object.values(child)) valuesFor(option, values);
  }
  return values;
}

type Formatter = (...args: Parameters<typeof formatCompiledOnly>) => ReturnType<typeof formatCompiledOnly>;

function format(locale: AppLocale, formatter: Formatter, message: unknown, values: Record<string, unknown>) {
  const options = { cache: _createCache(), formatters: _createIntlFormatters(_createCache()), locale, timeZone: "UTC", globalFormats: undefined, formats: undefined };
  const result = formatter("key", message as never, values as never, options as never);
  return Array.isArray(result) ? result.join("") : String(result);
}

const allPlain = (value: unknown): boolean =>
  value === null || typeof value !== "object" || ((Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype) && Object.values(value).every(allPlain));

describe.each([...locales, PSEUDO_LOCALE] as AppLocale[])("the %s catalog compiled for the browser", (locale) => {
  const raw = loadMessages(locale);
  const compiled = compiledMessages(locale);
  const all = leaves(raw, compiled);

  it("holds only plain objects and arrays, which a server component can hand to the browser", () => {
    expect(allPlain(compiled)).toBe(true);
  });

  it("reads, in the browser and on the server, as next-intl reads the ICU text", () => {
    expect(all.length).toBeGreaterThan(500);
    const translate = createTranslator({ locale, messages: raw, timeZone: "UTC" });
    const differ: string[] = [];
    for (const { key, raw: text, compiled: message } of all) {
      const values = valuesFor(message);
      const expected = translate.markup(key as never, values as never);
      for (const [where, formatter, input] of [
        ["browser", formatCompiledOnly, message],
        ["server, compiled", serverFormat, message],
        ["server, ICU text", serverFormat, text],
      ] as const) {
        const got = format(locale, formatter, input, values);
        if (got !== expected) differ.push(`${where} ${key}: ${JSON.stringify(got)} ≠ ${JSON.stringify(expected)}`);
      }
    }
    expect(differ).toEqual([]);
  });
});
