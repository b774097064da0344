import type { IssueParams } from "@/lib/platform/errors";
import { plainFieldError } from "./plain-errors";

/**
 * A field's error in the reader's language. The API names each invalid field in `details` with
 * its English `message` plus a machine `code` (the zod issue code) and `params` (limits, format,
 * allowed values); the interface words code and params with the `fieldErrors` catalog, naming the
 * field as the form does. English readers keep the schemas' own English sentences, which are the
 * most specific ("must be 8 to 15 digits"); a rule of its own (`custom`, or no code) reads as a
 * plain "check this field" in the other languages.
 */

export const FIELD_ERRORS_NAMESPACE = "fieldErrors";

export type FieldIssue = { path: string; message: string; code?: string; params?: IssueParams };

/** Translates a key of the `fieldErrors` namespace. */
export type FieldErrorTranslator = (key: string, values?: Record<string, string | number>) => string;

// Wire names of fields (the first part of a dotted path) → how a sentence names them.
const labelKeys: Record<string, string> = {
  name: "field.name",
  account_name: "field.name",
  title: "field.title",
  description: "field.description",
  email: "field.email",
  username: "field.email",
  password: "field.password",
  new_password: "field.password",
  current_password: "field.currentPassword",
  url: "field.url",
  api_base_url: "field.url",
  secret: "field.secret",
  app_secret: "field.secret",
  events: "field.events",
  data: "field.file",
  media: "field.file",
  filename: "field.fileName",
  role: "field.role",
  scopes: "field.permissions",
  allowed_scopes: "field.permissions",
  permissions: "field.permissions",
  expires_in_days: "field.expiry",
  expires_at: "field.expiry",
  text: "field.message",
  body: "field.message",
  to: "field.number",
  from: "field.number",
  phone_number: "field.number",
  color: "field.colour",
  shortcut: "field.shortcut",
  language: "field.language",
  notes: "field.notes",
};

/** How a sentence names the field at `path` ("the name", "el nombre"); "this field" when unknown. */
function fieldLabel(path: string, t: FieldErrorTranslator): string {
  return t(labelKeys[path.split(".")[0]] ?? "field.other");
}

const capitalised = (text: string) => {
  const index = text.search(/\p{L}/u);
  return index < 0 ? text : text.slice(0, index) + text[index].toUpperCase() + text.slice(index + 1);
};

/** One field's problem as a sentence of the catalog, from its code and params. */
export function wordFieldIssue(issue: FieldIssue, t: FieldErrorTranslator): string {
  const field = fieldLabel(issue.path, t);
  const p = issue.params ?? {};
  const sentence = (() => {
    switch (issue.code) {
      case "too_small": {
        const minimum = p.minimum ?? 0;
        if (p.origin === "string") {
          if (p.exact) return t("exactLength", { field, length: minimum });
          return minimum <= 1 ? t("required", { field }) : t("tooShort", { field, minimum });
        }
        if (p.origin === "array" || p.origin === "set") return p.exact ? t("exactItems", { field, count: minimum }) : t("tooFew", { field, minimum });
        if (p.origin === "number" || p.origin === "int" || p.origin === "bigint") return p.inclusive === false ? t("moreThan", { field, minimum }) : t("tooSmall", { field, minimum });
        return t("invalid", { field });
      }
      case "too_big": {
        const maximum = p.maximum ?? 0;
        if (p.origin === "string") return p.exact ? t("exactLength", { field, length: maximum }) : t("tooLong", { field, maximum });
        if (p.origin === "array" || p.origin === "set") return p.exact ? t("exactItems", { field, count: maximum }) : t("tooMany", { field, maximum });
        if (p.origin === "number" || p.origin === "int" || p.origin === "bigint") return p.inclusive === false ? t("lessThan", { field, maximum }) : t("tooBig", { field, maximum });
        if (p.origin === "file") return t("fileTooLarge", { field });
        return t("invalid", { field });
      }
      case "invalid_format":
        if (p.format === "email") return t("format.email", { field });
        if (p.format === "url") return t("format.url", { field });
        return t("format.other", { field });
      case "invalid_type":
        return t("wrongType", { field });
      case "invalid_value":
        return p.values?.length ? t("oneOf", { field, values: p.values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ") }) : t("invalid", { field });
      case "not_multiple_of":
        return p.divisor !== undefined ? t("multipleOf", { field, divisor: p.divisor }) : t("invalid", { field });
      case "unrecognized_keys":
        return t("unknownFields", { field });
      default:
        return t("invalid", { field });
    }
  })();
  return capitalised(sentence);
}

/**
 * The sentence for one field's error: the catalog's in the reader's language when a translator is
 * given, else (English) the schema's own message made a sentence.
 */
export function fieldErrorSentence(issue: FieldIssue, t: FieldErrorTranslator | null): string {
  return t ? wordFieldIssue(issue, t) : plainFieldError(issue.path, issue.message);
}

/** Whether a locale words field errors from the catalog (every locale but plain English). */
export const wordsFieldErrors = (locale: string) => locale !== "en";

// In the browser, the page's translator for `fieldErrors` (set by `FieldErrorWording` in the root
// layout), so every form's API call words its field errors without each form doing it.
let browserTranslator: FieldErrorTranslator | null = null;

export function setBrowserFieldErrorTranslator(t: FieldErrorTranslator | null) {
  browserTranslator = t;
}

/** A field error of an API answer as the browser shows it, in the page's language. */
export function browserFieldError(issue: FieldIssue): string {
  return fieldErrorSentence(issue, browserTranslator);
}
