import { expect, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminSpeaking, signIn } from "./helpers";

/*
 * A form's field error in the reader's language: the API says what is wrong with a field as a
 * code and its limits (its English message is for integrators), and the interface words it with
 * the field's name. Settings → Webhooks with a signing secret too short to be one.
 */

const cases = [
  { locale: "es", viewport: { width: 1440, height: 900 }, secretLabel: "Secreto de firma (opcional)", all: /Todos los eventos, incluidos/, add: "Agregar y verificar", error: "El secreto de firma debe tener al menos 16 caracteres." },
  { locale: "pt-BR", viewport: { width: 390, height: 844 }, secretLabel: /Segredo de assinatura/, all: /Todos os eventos, inclusive/, add: /Adicionar e verificar/, error: "O segredo de assinatura precisa ter pelo menos 16 caracteres." },
] as const;

for (const c of cases) {
  test(`${c.locale}: a signing secret too short is refused with a sentence in ${c.locale}, under its field`, async ({ browser, request }) => {
    const admin = await adminSpeaking(request, c.locale, `Field errors ${c.locale}`);
    const context = await browser.newContext({ viewport: c.viewport });
    const page = await context.newPage();
    await signIn(page, admin.email, admin.password);
    await page.goto("/settings/webhooks");
    await expect(page.locator("html")).toHaveAttribute("lang", c.locale);

    await page.locator("input[name=url]").fill("https://hooks.example.com/chorus");
    await page.getByLabel(c.all).check();
    const secret = page.getByLabel(c.secretLabel);
    await secret.fill("corto");
    await page.getByRole("button", { name: c.add }).click();

    await expect(secret).toHaveAttribute("aria-invalid", "true");
    const error = page.locator("#field-secret-error");
    await expect(error).toHaveText(c.error);
    // Not the schema's English sentence, nor any English word of it.
    await expect(page.getByText(/must be|characters|signing secret/i)).toHaveCount(0);
    await error.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot(`field-error-${c.locale}-${c.viewport.width}`) });
    await context.close();
  });
}
