// What the composer does with canned replies in the browser: kept apart from their schemas so
// that the inbox's bundle does not carry the validation library.

/** A shortcut as the composer compares it: lower case, without accents (`devolucion` finds `/devolución`). */
export function shortcutSearchKey(value: string): string {
  return value.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The variables a canned reply may use, filled in when it is inserted. */
export type CannedReplyVariables = { "contact.name": string; "agent.name": string; "business.name": string };

/** Fills `{{contact.name}}`, `{{agent.name}}`, `{{business.name}}`; unknown placeholders stay as written. */
export function fillCannedReply(template: string, values: CannedReplyVariables): string {
  return template.replace(/\{\{\s*(contact\.name|agent\.name|business\.name)\s*\}\}/g, (_, key: keyof CannedReplyVariables) => values[key]);
}
