import { expect, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

// Needs the inbound path: POST /api/sandbox/inbound, GET /v1/conversations and their messages.

const week = Object.fromEntries(["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [{ open: "09:00", close: "18:00" }]]));

test("a simulated customer asks 'a que hora abren?' and the automation answers with the weekly hours", async ({ page, request }) => {
  const token = await adminApiToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const put = await request.put("/v1/config/business-profile", {
    headers,
    data: {
      name: firstAdmin.accountName,
      description: "Houseplants and pots.",
      hours: { timezone: "Europe/Madrid", weekly: week },
      auto_reply: { outside_hours: { enabled: true, message: "¡Gracias por escribirnos! Ahora estamos cerrados." }, hours_question: { enabled: true } },
    },
  });
  expect(put.status()).toBe(200);

  const from = `3461${String(Date.now()).slice(-7)}`;
  const inbound = await request.post("/api/sandbox/inbound", { headers, data: { from, name: "Lucía Cliente", type: "text", text: "a que hora abren?" } });
  expect(inbound.status()).toBeLessThan(300);

  let conversationId: string | undefined;
  await expect
    .poll(async () => {
      const list = await (await request.get("/v1/conversations?limit=100", { headers })).json();
      conversationId = (list.data ?? []).find((c: { contact: { phone: string } }) => c.contact.phone === from)?.id;
      return conversationId ?? null;
    })
    .not.toBeNull();

  let reply: { text: string; sender: { type: string }; direction: string } | undefined;
  await expect
    .poll(async () => {
      const messages = await (await request.get(`/v1/conversations/${conversationId}/messages`, { headers })).json();
      reply = (messages.data ?? []).find((m: { sender: { type: string } }) => m.sender.type === "automation");
      return reply?.text ?? null;
    }, { timeout: 15_000 })
    .toContain("Nuestro horario de atención:");
  expect(reply?.direction).toBe("outbound");
  expect(reply?.text).toContain("Lunes: 09:00–18:00");
  expect(reply?.text).toContain("Domingo: Cerrado");
  expect(reply?.text).toContain("Zona horaria: Europe/Madrid");

  await signInAsOwner(page);
  await page.goto("/inbox");
  await page.getByText("Lucía Cliente").first().click();
  await expect(page.getByText(/Nuestro horario de atención/).first()).toBeVisible();
  await page.screenshot({ path: shot("auto-reply"), fullPage: true });
});

test("the reports count the simulated customer's message and the automatic answer", async ({ page, request }) => {
  const token = await adminApiToken(request);
  const summary = await (await request.get("/v1/reports/summary", { headers: { authorization: `Bearer ${token}` } })).json();
  expect(summary.messages.received).toBeGreaterThanOrEqual(1);
  expect(summary.messages.automated).toBeGreaterThanOrEqual(1);
  await signInAsOwner(page);
  await page.goto("/reports");
  await expect(page.getByTestId("stat-messages-received")).toContainText(`${summary.messages.automated} automated`);
});
