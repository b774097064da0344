import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pseudoCatalog, readCatalog } from "@/i18n/messages";
import { FIELD_ERRORS_NAMESPACE, type FieldErrorTranslator, fieldErrorSentence, type FieldIssue, wordFieldIssue } from "@/lib/client/field-errors";
import { zodDetails } from "@/lib/platform/errors";
import type { Locale } from "@/lib/platform/i18n/locales";
import { createLabelInput } from "@/lib/labels/schemas";
import { webhookSecretSchema } from "@/lib/webhooks/schemas";

const translator = (locale: Locale | "en-XA"): FieldErrorTranslator =>
  createTranslator({
    locale,
    messages: locale === "en-XA" ? pseudoCatalog(readCatalog("en")) : readCatalog(locale),
    namespace: FIELD_ERRORS_NAMESPACE as never,
  }) as unknown as FieldErrorTranslator;

/** The details the API answers for a value that fails a schema. */
function detailsOf(schema: z.ZodType, value: unknown): FieldIssue[] {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected the value to fail");
  return zodDetails(result.error) as FieldIssue[];
}

describe("field errors carry a machine code and params beside the English message", () => {
  it("a label name too long: too_big, a string of at most 40 characters", () => {
    const [detail] = detailsOf(createLabelInput, { name: "x".repeat(41), color: "#16a34a" });
    expect(detail).toEqual({ path: "name", message: "must be at most 40 characters", code: "too_big", params: { origin: "string", maximum: 40, inclusive: true } });
  });

  it("an address that is not one: invalid_format with its format", () => {
    expect(detailsOf(z.object({ url: z.url() }), { url: "not a url" })[0]).toMatchObject({ path: "url", code: "invalid_format", params: { format: "url" } });
  });

  it("a value outside a list: invalid_value with the allowed values", () => {
    expect(detailsOf(z.object({ role: z.enum(["admin", "agent"]) }), { role: "boss" })[0]).toMatchObject({ code: "invalid_value", params: { values: ["admin", "agent"] } });
  });
});

describe("the interface words code and params in the reader's language", () => {
  const long = { path: "name", message: "must be at most 40 characters", code: "too_big", params: { origin: "string", maximum: 40, inclusive: true } };

  it("in Spanish and Portuguese, naming the field", () => {
    expect(wordFieldIssue(long, translator("es"))).toBe("El nombre admite como máximo 40 caracteres.");
    expect(wordFieldIssue(long, translator("pt-BR"))).toBe("O nome aceita no máximo 40 caracteres.");
    expect(wordFieldIssue(long, translator("en"))).toBe("The name must be at most 40 characters long.");
  });

  it("every code, with plurals and numbers of the locale", () => {
    const es = translator("es");
    const word = (issue: Partial<FieldIssue>) => wordFieldIssue({ path: "secret", message: "x", ...issue }, es);
    expect(word({ code: "too_small", params: { origin: "string", minimum: 16, inclusive: true } })).toBe("El secreto de firma debe tener al menos 16 caracteres.");
    expect(word({ path: "name", code: "too_small", params: { origin: "string", minimum: 1, inclusive: true } })).toBe("Completa el nombre.");
    expect(word({ path: "events", code: "too_small", params: { origin: "array", minimum: 1, inclusive: true } })).toBe("La lista de eventos debe tener al menos 1 elemento.");
    expect(word({ path: "expires_in_days", code: "too_big", params: { origin: "number", maximum: 36500, inclusive: true } })).toMatch(/^El vencimiento no puede ser mayor que 36\.?500\.$/);
    expect(word({ path: "url", code: "invalid_format", params: { format: "url" } })).toBe("La dirección debe ser una dirección web, como https://ejemplo.com.");
    expect(word({ path: "email", code: "invalid_format", params: { format: "email" } })).toBe("El correo electrónico debe ser un correo electrónico, como nombre@ejemplo.com.");
    expect(word({ path: "role", code: "invalid_value", params: { values: ["admin", "agent"] } })).toBe("El rol debe ser uno de estos valores: admin, agent.");
    expect(word({ path: "display_name", code: "invalid_type", params: { expected: "string" } })).toBe("Falta este campo o no tiene el tipo de valor esperado.");
    // A rule of its own: its English message cannot be translated, so the field is named for checking.
    expect(word({ path: "url", code: "custom" })).toBe("Revisa la dirección: no se pudo aceptar tal como está.");
    expect(word({ path: "url", code: undefined })).toBe("Revisa la dirección: no se pudo aceptar tal como está.");
  });

  it("English readers keep the schema's own sentence; the pseudo-locale shows every word from the catalog", () => {
    expect(fieldErrorSentence(long, null)).toBe("The name must be at most 40 characters.");
    const pseudo = fieldErrorSentence(long, translator("en-XA"));
    expect(pseudo.replace(/⟦[^⟦⟧]*⟧/g, "").replace(/⟦[^⟦⟧]*⟧/g, "")).toBe("");
  });

  it("a real schema's error, end to end, in Portuguese", () => {
    const [detail] = detailsOf(z.object({ secret: webhookSecretSchema }), { secret: "short" });
    expect(wordFieldIssue(detail, translator("pt-BR"))).toBe("O segredo de assinatura precisa ter pelo menos 16 caracteres.");
  });
});

describe("a form's API call in the browser shows field errors in the page's language", () => {
  it("requestJson words the answer's details with the page's translator, and in English keeps the schema's sentence", async () => {
    const { requestJson } = await import("@/lib/client/api");
    const { setBrowserFieldErrorTranslator } = await import("@/lib/client/field-errors");
    const answer = {
      error: {
        code: "validation_error",
        message: "name: must be at most 40 characters",
        details: [{ path: "name", message: "must be at most 40 characters", code: "too_big", params: { origin: "string", maximum: 40, inclusive: true } }],
      },
      request_id: "req_1",
    };
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async () => new Response(JSON.stringify(answer), { status: 400, headers: { "content-type": "application/json" } })) as typeof fetch;
    try {
      setBrowserFieldErrorTranslator(translator("es"));
      const spanish = await requestJson("POST", "/v1/labels", { name: "x".repeat(41), color: "#16a34a" });
      expect(spanish).toMatchObject({ ok: false, status: 400, code: "validation_error", fieldErrors: { name: "El nombre admite como máximo 40 caracteres." } });
      setBrowserFieldErrorTranslator(null);
      const english = await requestJson("POST", "/v1/labels", { name: "x".repeat(41), color: "#16a34a" });
      expect(english).toMatchObject({ fieldErrors: { name: "The name must be at most 40 characters." } });
    } finally {
      globalThis.fetch = realFetch;
      setBrowserFieldErrorTranslator(null);
    }
  });
});
