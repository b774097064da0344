import fs from "node:fs";
import path from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { type Messages, pseudoCatalog, readCatalog } from "@/i18n/messages";
import { locales } from "@/lib/platform/i18n/locales";

/**
 * Keys looked up with a computed name, allowed to appear nowhere literally. Each entry is a key
 * prefix; keep the list short and say why.
 */
const DYNAMIC_KEY_PREFIXES = [
  // One sentence per API error code, looked up by the code a response carries (use-api-error.ts).
  "errors.code.",
  // The audit log's name for each action, looked up by the action code an entry carries.
  "settingsAuditLog.action.",
];

const SOURCE_DIRS = ["app", "components", "lib", "i18n"];

function flatten(messages: Messages, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(full, value);
    else for (const [k, v] of flatten(value, full)) out.set(k, v);
  }
  return out;
}

type Element = { type: number; value?: string; options?: Record<string, { value: Element[] }>; children?: Element[] };

/** The argument names (and tags) a message uses, and whether it parses as ICU. */
function placeholders(message: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      // 0 literal, 7 pound: no name; 8 tag: its name and children; others: an argument.
      if (element.type !== 0 && element.type !== 7 && element.value) names.add(element.type === 8 ? `<${element.value}>` : element.value);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
      if (element.children) walk(element.children);
    }
  };
  walk(new IntlMessageFormat(message, locale, undefined, { ignoreTag: false }).getAst() as Element[]);
  return [...names].sort();
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx)$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** Every quoted string literal of each source file. */
const literalsByFile = SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(process.cwd(), dir))).map((file) => {
  const literals = new Set<string>();
  for (const match of fs.readFileSync(file, "utf8").matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`([^`$\\\n]*)`/g)) {
    literals.add(match[1] ?? match[2] ?? match[3]);
  }
  return literals;
});

/**
 * A key is used when one file names a leading part of it (the namespace a component binds with
 * `useTranslations("account.password")`) and the rest (`t("title")`), or the whole key.
 */
function isUsed(key: string): boolean {
  const parts = key.split(".");
  for (const literals of literalsByFile) {
    if (literals.has(key)) return true;
    for (let split = 1; split < parts.length; split++) {
      if (literals.has(parts.slice(0, split).join(".")) && literals.has(parts.slice(split).join("."))) return true;
    }
  }
  return false;
}

const catalogs = Object.fromEntries(locales.map((locale) => [locale, flatten(readCatalog(locale))]));
const english = catalogs.en;

describe("the interface catalogs", () => {
  it("have the same namespaces (files) in every locale", () => {
    const files = (locale: string) => fs.readdirSync(path.join(process.cwd(), "messages", locale)).sort();
    for (const locale of locales) expect(files(locale), locale).toEqual(files("en"));
  });

  it("have every key in every locale, with a non-empty text", () => {
    for (const locale of locales) {
      const keys = catalogs[locale];
      expect([...english.keys()].filter((key) => !keys.has(key)), `missing in ${locale}`).toEqual([]);
      expect([...keys.keys()].filter((key) => !english.has(key)), `only in ${locale}`).toEqual([]);
      expect([...keys].filter(([, text]) => !text.trim()).map(([key]) => key), `empty in ${locale}`).toEqual([]);
    }
  });

  it("are valid ICU, with the same placeholders in every locale", () => {
    const problems: string[] = [];
    for (const [key, text] of english) {
      let expected: string[];
      try {
        expected = placeholders(text, "en");
      } catch (error) {
        problems.push(`en ${key}: ${(error as Error).message}`);
        continue;
      }
      for (const locale of locales) {
        const translated = catalogs[locale].get(key);
        if (translated === undefined) continue;
        try {
          const found = placeholders(translated, locale);
          if (found.join() !== expected.join()) problems.push(`${locale} ${key}: {${found.join(", ")}} instead of {${expected.join(", ")}}`);
        } catch (error) {
          problems.push(`${locale} ${key}: ${(error as Error).message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("have no key the code does not use", () => {
    const unused = [...english.keys()].filter((key) => !DYNAMIC_KEY_PREFIXES.some((prefix) => key.startsWith(prefix)) && !isUsed(key));
    expect(unused).toEqual([]);
  });

  it("make the pseudo-locale by wrapping every English text, placeholders intact", () => {
    const pseudo = flatten(pseudoCatalog(readCatalog("en")));
    expect([...pseudo.keys()]).toEqual([...english.keys()]);
    for (const [key, text] of pseudo) {
      expect(text).toBe(`⟦${english.get(key)}⟧`);
      expect(placeholders(text, "en")).toEqual(placeholders(english.get(key)!, "en"));
    }
  });
});

describe("the catalog check itself", () => {
  it("finds a missing key, a changed placeholder and an unused key", () => {
    expect(isUsed("account.password.title")).toBe(true);
    expect(isUsed("account.password.noSuchKeyAnywhere")).toBe(false);
    expect(placeholders("{count, plural, one {# chat} other {# chats}} for {name}", "en")).toEqual(["count", "name"]);
    expect(() => placeholders("{count, plural, one {# chat}", "en")).toThrow();
  });
});
