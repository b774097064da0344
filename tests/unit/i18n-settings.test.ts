import { describe, expect, it } from "vitest";
import { readCatalog, type Messages } from "@/i18n/messages";
import { auditActions } from "@/lib/audit/actions";
import { locales } from "@/lib/platform/i18n/locales";

const lookup = (messages: Messages, key: string): unknown => key.split(".").reduce<unknown>((node, part) => (node as Messages | undefined)?.[part], messages);

describe("Settings catalogs", () => {
  it("name every audit-log action in every language, and nothing else under that key", () => {
    for (const locale of locales) {
      const catalog = readCatalog(locale);
      for (const action of auditActions) expect(typeof lookup(catalog, `settingsAuditLog.action.${action}`), `${locale}: ${action}`).toBe("string");
      const named = Object.entries(lookup(catalog, "settingsAuditLog.action") as Messages).flatMap(([area, names]) => Object.keys(names).map((name) => `${area}.${name}`));
      expect(named.sort()).toEqual([...auditActions].sort());
    }
  });
});
