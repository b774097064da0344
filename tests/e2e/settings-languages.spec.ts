import { type APIRequestContext, type Browser, expect, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminSpeaking, adminApiToken, signIn } from "./helpers";

/*
 * The business profile, automations, macros and apps pages in Spanish and in Brazilian
 * Portuguese, for an administrator who chose that language: headings, a saved rule read as a
 * sentence, the builder's controls, weekday names written by Intl and the scopes in words.
 */

/** An administrator of the shared account whose own choice is `locale`. */
/** A switched-off rule (so it acts on no other test's conversations) with a typed value and two actions. */
async function offRule(request: APIRequestContext, name: string) {
  const token = await adminApiToken(request);
  const res = await request.post("/v1/automations", {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name,
      enabled: false,
      event: "message.received",
      conditions: [{ field: "message.text", operator: "contains", value: "envío" }],
      actions: [{ type: "set_priority", priority: "urgent" }, { type: "add_note", text: "Revisar envío" }],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

const words = {
  es: {
    profile: "Perfil del negocio",
    openMonday: "Abierto el lunes",
    save: "Guardar perfil",
    automations: "Automatizaciones",
    rule: "Cuando llega un mensaje de un cliente, si Texto del mensaje contiene «envío», entonces Fijar prioridad Urgente, Agregar nota interna.",
    off: "Desactivada",
    newRule: "Nueva automatización",
    addCondition: "Agregar condición",
    conditionField: "Campo de la condición 1",
    macros: "Macros",
    newMacro: "Nueva macro",
    visibility: "Quién puede usarla",
    apps: "Apps",
    scope: "Leer conversaciones",
    register: "Registrar app",
  },
  "pt-BR": {
    profile: "Perfil da empresa",
    openMonday: "Abre segunda-feira",
    save: "Salvar perfil",
    automations: "Automações",
    rule: "Quando chega uma mensagem de cliente, se Texto da mensagem contém “envío”, então Definir prioridade Urgente, Adicionar nota interna.",
    off: "Desativada",
    newRule: "Nova automação",
    addCondition: "Adicionar condição",
    conditionField: "Campo da condição 1",
    macros: "Macros",
    newMacro: "Nova macro",
    visibility: "Quem pode usar",
    apps: "Apps",
    scope: "Ler conversas",
    register: "Registrar app",
  },
} as const;

async function visitSettings(browser: Browser, request: APIRequestContext, locale: "es" | "pt-BR") {
  const admin = await adminSpeaking(request, locale, `Settings ${locale} Admin`);
  const ruleName = `Envíos ${locale} ${Date.now()}`;
  await offRule(request, ruleName);
  const w = words[locale];
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: "America/Sao_Paulo" });
  const page = await context.newPage();
  await signIn(page, admin.email, admin.password);

  await page.goto("/settings/profile");
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await expect(page.getByRole("heading", { name: w.profile, level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: w.save })).toBeVisible();
  const publish = page.getByRole("checkbox", { name: locale === "es" ? "Publicar el horario de atención" : "Publicar o horário de atendimento" });
  if (!(await publish.isChecked())) await publish.check();
  // Weekday names come from Intl in the reader's language.
  await expect(page.getByRole("checkbox", { name: w.openMonday })).toBeVisible();
  await page.screenshot({ path: shot(`settings-${locale}-profile`), fullPage: true });

  await page.goto("/settings/automations");
  await expect(page.getByRole("heading", { name: w.automations, level: 1 })).toBeVisible();
  const rule = page.getByTestId("automation-rule").filter({ hasText: ruleName });
  await expect(rule).toContainText(w.rule);
  await expect(rule).toContainText(w.off);
  await page.getByRole("button", { name: w.newRule }).click();
  const form = page.getByRole("form", { name: w.newRule });
  await expect(form.getByRole("button", { name: w.addCondition })).toBeVisible();
  await expect(form.getByLabel(w.conditionField)).toBeVisible();
  await page.screenshot({ path: shot(`settings-${locale}-automations`), fullPage: true });

  await page.goto("/settings/macros");
  await expect(page.getByRole("heading", { name: w.macros, level: 1 })).toBeVisible();
  await page.getByRole("button", { name: w.newMacro }).click();
  await expect(page.getByLabel(w.visibility)).toBeVisible();

  await page.goto("/settings/apps");
  await expect(page.getByRole("heading", { name: w.apps, level: 1 })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: new RegExp(w.scope) }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: w.register })).toBeVisible();
  await page.screenshot({ path: shot(`settings-${locale}-apps`), fullPage: true });
  await context.close();
}

test("the last Settings pages speak Spanish", async ({ browser, request }) => {
  test.setTimeout(120_000);
  await visitSettings(browser, request, "es");
});

test("the last Settings pages speak Brazilian Portuguese", async ({ browser, request }) => {
  test.setTimeout(120_000);
  await visitSettings(browser, request, "pt-BR");
});
