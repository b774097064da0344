import { eq } from "drizzle-orm";
import { systemContext } from "@/lib/server/context";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as estimateRoute from "@/app/v1/config/pricing/estimate/route";
import * as pricingRoute from "@/app/v1/config/pricing/route";
import * as messageRoute from "@/app/v1/messages/[id]/route";
import * as messagesRoute from "@/app/v1/messages/route";
import * as spendRoute from "@/app/v1/reports/spend/route";
import * as templatesRoute from "@/app/v1/templates/route";
import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { drainJobs } from "@/lib/jobs/runner";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { jobRegistry } from "@/lib/server/job-registry";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { buildInboundPayload, buildTemplateStatusPayload, type FakeCloudNetwork, type InboundStatusInput, signHubPayload, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";

const ACCESS_TOKEN = "EAAG-fake-network-token-pricing";
const APP_SECRET = "fake-app-secret-pricing-0123456";
let seq = 0;
let network: FakeCloudNetwork;
let account: Awaited<ReturnType<typeof createTestAccount>>;
let restoreEnv: () => void;

beforeAll(() => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
});
afterAll(() => restoreEnv());
beforeEach(async () => {
  resetRateLimiters();
  seq += 1;
  network = await startFakeCloudNetwork({
    accessToken: ACCESS_TOKEN,
    phoneNumberId: `30654077224${String(seq).padStart(4, "0")}`,
    businessAccountId: `4022901777${String(seq).padStart(5, "0")}`,
  });
  account = await createTestAccount();
});
afterEach(async () => {
  await network.close();
});

const getPricing = (token = account.adminToken) => call(pricingRoute.GET, { path: "/v1/config/pricing", token });
const putPricing = (body: unknown, token = account.adminToken) => call(pricingRoute.PUT, { method: "PUT", path: "/v1/config/pricing", token, body });

describe("the price table", () => {
  it("ships a documented default, and an admin replaces it with rates or CSV; agents read it", async () => {
    const initial = await getPricing();
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ currency: "EUR", source: "default" });
    expect(initial.body.rates).toContainEqual({ country_code: "34", category: "marketing", price: 0.0572 });
    expect(initial.body.rates).toContainEqual({ country_code: "*", category: "service", price: 0 });

    const put = await putPricing({ currency: "USD", rates: [{ country_code: "1", category: "marketing", price: 0.025 }, { country_code: "*", category: "marketing", price: 0.05 }] });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ currency: "USD", source: "custom", rates: [{ country_code: "*" }, { country_code: "1" }] });
    expect((await getPricing()).body).toEqual(put.body);

    const csv = "country_code,category,price\r\n34,marketing,0.061\n+34,Utility,0.02\n\n\"*\",marketing,0.07\n";
    const replaced = await putPricing({ currency: "EUR", csv });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.rates).toEqual([
      { country_code: "*", category: "marketing", price: 0.07 },
      { country_code: "34", category: "marketing", price: 0.061 },
      { country_code: "34", category: "utility", price: 0.02 },
    ]);

    const agent = await addTestUser(account.account.id, "agent");
    expect((await getPricing(agent.token)).status).toBe(200);
    expect((await putPricing({ currency: "EUR", csv }, agent.token)).status).toBe(403);
  });

  it("refuses a bad CSV row with a 400 naming the line, and keeps the table", async () => {
    expect((await putPricing({ currency: "EUR", csv: "country_code,category,price\n34,marketing,0.06" })).status).toBe(200);
    const cases: [string, RegExp][] = [
      ["country_code,category,price\n34,marketing,0.06\n49,promotions,0.1", /line 3: category must be one of/],
      ["country_code,category,price\n34,marketing,0.06\n49,marketing,abc", /line 3: price must be a number/],
      ["country_code,category,price\n34,marketing,-1", /line 2: price/],
      ["country_code,category,price\nSpain,marketing,0.06", /line 2: country_code must be a country calling code/],
      ["code,category,price\n34,marketing,0.06", /line 1 must be the header/],
      ["country_code,category,price\n34,marketing,0.06\n34,marketing,0.07", /repeats 34 marketing/],
      ["country_code,category,price\n", /no rate/],
    ];
    for (const [csv, message] of cases) {
      const res = await putPricing({ currency: "EUR", csv });
      expect(res.status, csv).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.details[0].path).toBe("csv");
      expect(res.body.error.details[0].message).toMatch(message);
    }
    for (const body of [{ currency: "euro", csv: "x" }, { currency: "EUR" }, { currency: "EUR", rates: [{ country_code: "34", category: "marketing", price: 0.1 }], csv: "x" }]) {
      expect((await putPricing(body)).status).toBe(400);
    }
    expect((await getPricing()).body.rates).toEqual([{ country_code: "34", category: "marketing", price: 0.06 }]);
  });

  it("estimates a message for the recipient's country, falling back to the * row", async () => {
    const estimate = (to: string, category: string) => call(estimateRoute.GET, { path: `/v1/config/pricing/estimate?to=${to}&category=${category}`, token: account.adminToken });
    expect((await estimate("34911234567", "MARKETING")).body).toEqual({ category: "marketing", country_code: "34", price: 0.0572, currency: "EUR", label: "Marketing · ≈ 0.06 EUR" });
    expect((await estimate("819012345678", "utility")).body).toMatchObject({ country_code: "81", price: 0.0072, label: "Utility · ≈ 0.0072 EUR" });
    await putPricing({ currency: "EUR", rates: [{ country_code: "34", category: "marketing", price: 0.06 }] });
    expect((await estimate("4915123456789", "marketing")).body).toMatchObject({ country_code: "49", price: null, label: "Marketing · no price for this country" });
    expect((await estimate("12", "marketing")).status).toBe(400);
    expect((await estimate("34911234567", "promo")).status).toBe(400);
  });
});

describe("pricing from the network's statuses, and monthly spend", () => {
  beforeEach(async () => {
    const res = await call(numberRoute.PUT, {
      method: "PUT",
      path: "/v1/config/number",
      token: account.adminToken,
      body: {
        provider: "cloud",
        phone_number: "+14155552671",
        phone_number_id: network.phoneNumberId,
        business_account_id: network.businessAccountId,
        access_token: ACCESS_TOKEN,
        app_secret: APP_SECRET,
        verify_token: `verify-pricing-${seq}`,
        api_base_url: network.apiBaseUrl,
      },
    });
    expect(res.status).toBe(200);
  });

  function postStatuses(list: InboundStatusInput[]) {
    const rawBody = JSON.stringify(buildInboundPayload({ phoneNumberId: network.phoneNumberId, businessAccountId: network.businessAccountId, statuses: list }));
    return call(webhookRoute.POST, {
      method: "POST",
      path: "/api/network/webhook",
      rawBody,
      headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody }) },
    });
  }

  async function sendTemplate(name: string, to: string) {
    const sent = await call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: account.adminToken, body: { to, type: "template", template: { name, language: "en_US" } } });
    expect(sent.status, sent.text).toBe(201);
    await drainJobs(systemContext(), jobRegistry);
    const accepted = network.acceptedMessages.at(-1)!;
    return { id: sent.body.id as string, networkId: accepted.id };
  }

  it("stores pricing {category, billable, pricing_model} from statuses and reports monthly spend by category", async () => {
    for (const [name, category] of [["spring_offer", "MARKETING"], ["order_update", "UTILITY"]] as const) {
      const created = await call(templatesRoute.POST, { method: "POST", path: "/v1/templates", token: account.adminToken, body: { name, language: "en_US", category, components: { body: { text: `${name} text` } } } });
      expect(created.status).toBe(201);
      const template = network.templates.get(`${name}:en_US`)!;
      template.status = "APPROVED";
      const rawBody = JSON.stringify(buildTemplateStatusPayload({ businessAccountId: network.businessAccountId, template, event: "APPROVED" }));
      await call(webhookRoute.POST, { method: "POST", path: "/api/network/webhook", rawBody, headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody }) } });
    }
    const spain = "34911234567";
    const a = await sendTemplate("spring_offer", spain);
    const b = await sendTemplate("spring_offer", spain);
    const c = await sendTemplate("order_update", "14155550123");
    const d = await sendTemplate("order_update", spain);

    expect(
      (
        await postStatuses([
          { id: a.networkId, status: "sent", recipientId: spain, pricing: { category: "marketing", billable: true } },
          { id: b.networkId, status: "delivered", recipientId: spain, pricing: { category: "marketing", billable: true } },
          { id: c.networkId, status: "sent", recipientId: "14155550123", pricing: { category: "utility", billable: true } },
          // A utility template answered inside the customer-service window is free.
          { id: d.networkId, status: "sent", recipientId: spain, pricing: { category: "utility", billable: false } },
        ])
      ).status,
    ).toBe(200);
    const message = await call(messageRoute.GET, { path: "/", token: account.adminToken, params: { id: a.id } });
    expect(message.body.pricing).toEqual({ category: "marketing", billable: true, pricing_model: "PMP", country_code: "34" });
    expect((await call(messageRoute.GET, { path: "/", token: account.adminToken, params: { id: d.id } })).body.pricing).toMatchObject({ category: "utility", billable: false });

    // A late `sent` after `delivered` moves nothing but still carries the pricing.
    await postStatuses([{ id: b.networkId, status: "sent", recipientId: spain, pricing: { category: "marketing", billable: true } }]);
    expect((await call(messageRoute.GET, { path: "/", token: account.adminToken, params: { id: b.id } })).body).toMatchObject({ status: "delivered", pricing: { category: "marketing" } });

    // One of the marketing messages went out last month.
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12));
    await getDb().update(messages).set({ createdAt: lastMonth }).where(eq(messages.id, b.id));
    const monthOf = (date: Date) => date.toISOString().slice(0, 7);

    const from = new Date(lastMonth.getTime() - 20 * 86_400_000).toISOString();
    const to = new Date(now.getTime() + 60_000).toISOString();
    const spend = await call(spendRoute.GET, { path: `/v1/reports/spend?from=${from}&to=${to}&tz=UTC`, token: account.adminToken });
    expect(spend.status, spend.text).toBe(200);
    expect(spend.body).toMatchObject({
      currency: "EUR",
      months: [
        { month: monthOf(lastMonth), categories: [{ category: "marketing", messages: 1, amount: 0.0572 }], total: 0.0572 },
        {
          month: monthOf(now),
          categories: [
            { category: "marketing", messages: 1, amount: 0.0572 },
            { category: "utility", messages: 1, amount: 0.0037 },
          ],
          total: 0.0609,
        },
      ],
      total: 0.1181,
      unpriced_messages: 0,
    });

    // Priced by the current table.
    await putPricing({ currency: "USD", rates: [{ country_code: "34", category: "marketing", price: 0.1 }] });
    const repriced = await call(spendRoute.GET, { path: `/v1/reports/spend?from=${from}&to=${to}&tz=UTC`, token: account.adminToken });
    expect(repriced.body).toMatchObject({ currency: "USD", total: 0.2, unpriced_messages: 1 });
  });
});
