import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, createTeammate, signIn } from "./helpers";

/*
 * The core inbox path in Spanish and in Brazilian Portuguese: the language comes from the
 * browser when a teammate joins, or from their own choice in Settings → Account; the page's
 * lang, the words, a date and a plural follow it.
 */

let run = 0;
const nextPhone = () => `4477${String(Date.now()).slice(-6)}${String(run++ % 100).padStart(2, "0")}`;

/** Two unread messages from a new customer of the shared account. */
async function customerWrites(request: APIRequestContext, name: string, texts: string[]) {
  const token = await adminApiToken(request);
  const from = nextPhone();
  let conversationId = "";
  for (const text of texts) {
    const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: { from, name, type: "text", text } });
    expect(res.status(), await res.text()).toBe(201);
    conversationId = (await res.json()).conversation_id;
  }
  return conversationId;
}

/** An API token of this person, so Settings → Account lists it with its creation date. */
async function tokenOf(request: APIRequestContext, email: string, password: string) {
  const login = await request.post("/v1/auth/login", { data: { email, password } });
  expect(login.status()).toBe(200);
  const session = (await login.json()).token as string;
  const created = await request.post("/v1/auth/tokens", {
    headers: { authorization: `Bearer ${session}` },
    data: { name: "Script", permissions: ["conversations:read"], expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).created_at as string;
}

/** The medium date and short time the reader's locale writes, as the page should show it. */
const intlDateTime = (page: Page, iso: string, locale: string) =>
  page.evaluate(([at, tag]) => new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeStyle: "short" }).format(new Date(at)), [iso, locale] as const);

async function replyInConversation(page: Page, words: {
  inbox: string; all: string; unread: string; log: (name: string) => string; reply: string; send: string; today: string; status: RegExp;
}, customer: string, conversationId: string, answer: string) {
  await expect(page.getByRole("heading", { name: words.inbox, level: 1 })).toBeVisible();
  await expect(page.getByRole("tab", { name: new RegExp(`^${words.all}`) })).toBeVisible();
  const item = page.locator(`[data-conversation-id="${conversationId}"]`);
  await expect(item).toBeVisible();
  // A plural of the reader's language: two unread messages.
  await expect(item.getByLabel(words.unread)).toHaveText("2");
  await item.click();
  const log = page.getByRole("log", { name: words.log(customer) });
  await expect(log.getByText("¿Tienen envío a Córdoba?").or(log.getByText("Vocês entregam em Campinas?"))).toBeVisible();
  // The day separator speaks the reader's language.
  await expect(log.getByRole("separator", { name: words.today })).toBeVisible();
  await expect(page.getByTestId("conversation-status")).toHaveText(words.status);
  await page.getByLabel(words.reply, { exact: true }).fill(answer);
  await page.getByRole("button", { name: words.send, exact: true }).click();
  await expect(log.getByText(answer)).toBeVisible();
  await expect(log.locator(`[data-message-id^="msg_"]`).filter({ hasText: answer })).toBeVisible();
}

test("a Spanish-speaking teammate joins from a Spanish browser and answers a customer in Spanish", async ({ browser, request }) => {
  const token = await adminApiToken(request);
  const email = `lucia.${Date.now()}@greenleaf.example`;
  const invitation = await request.post("/v1/invitations", { headers: { authorization: `Bearer ${token}` }, data: { email, role: "agent" } });
  expect(invitation.status(), await invitation.text()).toBe(201);

  const context = await browser.newContext({ locale: "es-AR", timezoneId: "America/Argentina/Buenos_Aires", viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto((await invitation.json()).url);
  // Signed out, the page follows the browser's language.
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("heading", { name: `Únete a ${firstAdmin.accountName}` })).toBeVisible();
  await page.getByLabel("Tu nombre").fill("Lucía Soporte");
  await page.getByLabel("Contraseña").fill("lucia-password-1");
  await page.getByRole("button", { name: "Unirme al equipo" }).click();
  await expect(page).toHaveURL(/\/inbox$/);
  // Her language was kept from the browser she joined with.
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Conversaciones" })).toBeVisible();

  const conversationId = await customerWrites(request, "Martina Gómez", ["Hola, buenas tardes", "¿Tienen envío a Córdoba?"]);
  await page.reload();
  await replyInConversation(
    page,
    { inbox: "Conversaciones", all: "Todas", unread: "2 mensajes sin leer", log: (name) => `Mensajes con ${name}`, reply: "Respuesta", send: "Enviar", today: "Hoy", status: /^(Abierta|Asignada)$/ },
    "Martina Gómez",
    conversationId,
    "¡Hola Martina! Sí, enviamos a todo el país.",
  );
  await page.screenshot({ path: shot("languages-es-conversation"), fullPage: true });

  // A date as Spanish writes it, in her time zone.
  const createdAt = await tokenOf(request, email, "lucia-password-1");
  await page.goto("/settings/account");
  await expect(page.getByRole("heading", { name: "Cuenta", level: 1 })).toBeVisible();
  await expect(page.getByText(`creado el ${await intlDateTime(page, createdAt, "es")}`)).toBeVisible();
  await expect(page.getByLabel("Idioma de la interfaz")).toHaveValue("es");
  await context.close();
});

test("a teammate chooses Portuguese in Settings → Account and works the inbox in it", async ({ browser, request }) => {
  const mate = await createTeammate(request, "agent", "Rafael Atendimento");
  const context = await browser.newContext({ timezoneId: "America/Sao_Paulo", viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page, mate.email, mate.password);
  // No choice yet: the account's business language (English here).
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  await page.goto("/settings/account");
  await page.getByLabel("Interface language").selectOption("pt-BR");
  // Saved, and the page reloads in it at once.
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
  await expect(page.getByRole("heading", { name: "Conta", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Idioma da interface")).toHaveValue("pt-BR");
  const me = await request.post("/v1/auth/login", { data: { email: mate.email, password: mate.password } });
  expect((await me.json()).user.locale).toBe("pt-BR");

  const conversationId = await customerWrites(request, "Beatriz Souza", ["Oi, tudo bem?", "Vocês entregam em Campinas?"]);
  await page.goto("/inbox");
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
  await replyInConversation(
    page,
    { inbox: "Conversas", all: "Todas", unread: "2 mensagens não lidas", log: (name) => `Mensagens com ${name}`, reply: "Resposta", send: "Enviar", today: "Hoje", status: /^(Aberta|Atribuída)$/ },
    "Beatriz Souza",
    conversationId,
    "Oi, Beatriz! Entregamos sim, em até 3 dias úteis.",
  );
  await page.screenshot({ path: shot("languages-pt-conversation-phone"), fullPage: true });

  const createdAt = await tokenOf(request, mate.email, mate.password);
  await page.goto("/settings/account");
  await expect(page.getByText(`criado em ${await intlDateTime(page, createdAt, "pt-BR")}`)).toBeVisible();
  await context.close();
});

test("in Spanish, the composer's dialogs, the snooze menu, notifications and search speak Spanish too", async ({ browser, request }) => {
  const mate = await createTeammate(request, "agent", "Sofía Ayuda");
  const login = await request.post("/v1/auth/login", { data: { email: mate.email, password: mate.password } });
  const session = (await login.json()).token as string;
  const chosen = await request.patch("/v1/users/me", { headers: { authorization: `Bearer ${session}` }, data: { locale: "es" } });
  expect(chosen.status(), await chosen.text()).toBe(200);
  const conversationId = await customerWrites(request, "Valentina Ruiz", ["Hola", "¿Tienen envío a Córdoba?"]);

  const context = await browser.newContext({ timezoneId: "America/Argentina/Buenos_Aires", viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signIn(page, mate.email, mate.password);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");

  // The notifications panel.
  await page.getByTestId("notifications-bell").click();
  const panel = page.getByRole("dialog", { name: "Notificaciones" });
  await expect(panel.getByText("Todavía no tienes notificaciones.", { exact: false })).toBeVisible();
  await page.keyboard.press("Escape");

  // Search results name the matched field and say when, in Spanish.
  await page.getByLabel("Buscar nombres, números y texto de las conversaciones").fill("Valentina Ruiz");
  const results = page.getByRole("list", { name: "Resultados de búsqueda" });
  await expect(results.locator(`[data-search-result="${conversationId}"]`)).toContainText("Nombre");
  await expect(results.locator(`[data-search-result="${conversationId}"] time`)).toHaveText(/hace|ahora mismo/);
  await results.locator(`[data-search-result="${conversationId}"]`).click();

  // A composer dialog, its fields and its own check before sending.
  await page.getByRole("button", { name: "Ubicación", exact: true }).click();
  const location = page.getByRole("dialog", { name: "Enviar una ubicación" });
  await location.getByLabel("Latitud").fill("95");
  await location.getByLabel("Longitud").fill("-64.18");
  await location.getByRole("button", { name: "Enviar ubicación" }).click();
  await expect(location.getByText("Ingresa una latitud entre -90 y 90.")).toBeVisible();
  await page.screenshot({ path: shot("languages-es-location-dialog") });
  await location.getByRole("button", { name: "Cancelar" }).click();

  // The snooze menu's presets.
  await page.getByRole("button", { name: "Posponer", exact: true }).click();
  const snooze = page.getByRole("dialog", { name: "Posponer hasta" });
  await expect(snooze.getByRole("button", { name: /^En 1 hora/ })).toBeVisible();
  await expect(snooze.getByLabel("Otro momento")).toBeVisible();
  await context.close();
});
