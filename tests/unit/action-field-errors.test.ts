import { createTranslator } from "next-intl";
import { describe, expect, it, vi } from "vitest";
import { readCatalog } from "@/i18n/messages";
import { webhookSecretSchema } from "@/lib/webhooks/schemas";
import { runAction } from "@/lib/server/action";
import { z } from "zod";

// The locale of the person who submitted the form, as next-intl reads it during a request.
const request = vi.hoisted(() => ({ locale: "es" }));
vi.mock("next-intl/server", () => ({
  getLocale: async () => request.locale,
  getTranslations: async (namespace: string) => createTranslator({ locale: request.locale, messages: readCatalog(request.locale as "es"), namespace: namespace as never }),
}));

const submit = () => runAction(async () => z.object({ secret: webhookSecretSchema }).parse({ secret: "short" }));

describe("a server action's field errors speak the submitter's language", () => {
  it("Spanish and Portuguese: the field's error from its code and limit, and the message too", async () => {
    request.locale = "es";
    expect(await submit()).toMatchObject({
      ok: false,
      status: 400,
      code: "validation_error",
      fieldErrors: { secret: "El secreto de firma debe tener al menos 16 caracteres." },
      message: expect.stringContaining("El secreto de firma debe tener al menos 16 caracteres."),
    });
    request.locale = "pt-BR";
    expect(await submit()).toMatchObject({ fieldErrors: { secret: "O segredo de assinatura precisa ter pelo menos 16 caracteres." } });
  });

  it("English keeps the schema's own sentence", async () => {
    request.locale = "en";
    expect(await submit()).toMatchObject({ fieldErrors: { secret: "The signing secret must be 16 to 128 characters." } });
  });
});

describe("a field a domain rule refused, in a server action", () => {
  it("reads in the submitter's language, in the message as under the field", async () => {
    const { invalidField } = await import("@/lib/platform/errors");
    request.locale = "es";
    const result = await runAction(async () => {
      throw invalidField("url", "must use https");
    });
    expect(result).toMatchObject({ ok: false, code: "validation_error", fieldErrors: { url: "Revisa la dirección: no se pudo aceptar tal como está." }, message: "Revisa la dirección: no se pudo aceptar tal como está." });
    request.locale = "en";
    expect(await runAction(async () => {
      throw invalidField("url", "must use https");
    })).toMatchObject({ fieldErrors: { url: "The address must use https." }, message: "The address must use https." });
  });
});
