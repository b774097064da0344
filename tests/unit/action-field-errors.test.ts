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
