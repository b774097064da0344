import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { buildEditPayload, buildInboundPayload, buildQualityUpdatePayload, buildRevokePayload, signHubPayload, startFakeCloudNetwork } from "../support/fake-cloud-network";
import { adminApiToken, signInAsOwner } from "./helpers";

const ACCESS_TOKEN = "EAAG-e2e-network-2026-token";
const APP_SECRET = "e2e-app-secret-network-2026-01";

const conversationRow = (page: Page, name: string) => page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });

async function signedWebhook(request: APIRequestContext, payload: unknown) {
  const rawBody = JSON.stringify(payload);
  const res = await request.post("/api/network/webhook", {
    headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody }) },
    data: rawBody,
  });
  expect(res.status(), await res.text()).toBe(200);
}

test("a customer's edit, deletion and flow answers show in the thread, number health shows in settings, and an oversized image is refused before upload", async ({ page, request }) => {
  const token = await adminApiToken(request);
  const auth = { authorization: `Bearer ${token}` };
  const suffix = String(Date.now()).slice(-6);
  const phoneNumberId = `7065403${suffix}`;
  const business = `1415555${suffix.slice(-4)}`;
  const network = await startFakeCloudNetwork({ accessToken: ACCESS_TOKEN, phoneNumberId });
  try {
    const configured = await request.put("/v1/config/number", {
      headers: auth,
      data: {
        provider: "cloud",
        phone_number: `+${business}`,
        phone_number_id: phoneNumberId,
        business_account_id: "102290129340398",
        access_token: ACCESS_TOKEN,
        app_secret: APP_SECRET,
        verify_token: `e2e-verify-${suffix}`,
        api_base_url: network.apiBaseUrl,
      },
    });
    expect(configured.status(), await configured.text()).toBe(200);

    const customer = `Rosa Forms ${suffix}`;
    const from = `3461${suffix}2`;
    await signedWebhook(
      request,
      buildInboundPayload({
        phoneNumberId,
        messages: [
          { from, name: customer, id: `wamid.E2E-A${suffix}`, type: "text", text: "I need 2 pots" },
          { from, name: customer, id: `wamid.E2E-C${suffix}`, type: "text", text: "my door code is 4711" },
          {
            from,
            name: customer,
            id: `wamid.E2E-B${suffix}`,
            type: "interactive",
            payload: { type: "nfm_reply", nfm_reply: { name: "flow", body: "Sent", response_json: JSON.stringify({ flow_token: "t1", visit_date: "2026-12-01", people: 2 }) } },
          },
        ],
      }),
    );
    await signedWebhook(request, buildEditPayload({ phoneNumberId, from, originalId: `wamid.E2E-A${suffix}`, text: "I need 3 pots" }));
    await signedWebhook(request, buildRevokePayload({ phoneNumberId, from, originalId: `wamid.E2E-C${suffix}` }));
    await signedWebhook(request, buildQualityUpdatePayload({ displayPhoneNumber: business, event: "FLAGGED", currentLimit: "TIER_1K" }));

    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAsOwner(page);
    await conversationRow(page, customer).click();
    const log = page.getByRole("log", { name: `Messages with ${customer}` });
    const edited = log.locator('[data-direction="inbound"]', { hasText: "I need 3 pots" });
    await expect(edited.getByTestId("edited")).toHaveText("edited");
    await expect(log).not.toContainText("2 pots");
    await expect(log.getByText("This message was deleted")).toBeVisible();
    await expect(log).not.toContainText("4711");
    const form = log.getByTestId("flow-response");
    await expect(form).toContainText("Visit date:");
    await expect(form).toContainText("2026-12-01");
    await expect(form).toContainText("People:");
    await expect(form).not.toContainText("t1");

    // The composer refuses a file over the network's limit before uploading it, in words.
    const before = network.requests.length;
    await page.locator("#composer-file").setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(6 * 1024 * 1024, 1)]) });
    await expect(page.getByRole("alert").filter({ hasText: "Images can be at most 5 MB" })).toBeVisible();
    expect(network.requests.length).toBe(before);

    // Settings → Number shows the health the network reported; the drop is a notification.
    await page.goto("/settings/number");
    await expect(page.getByTestId("quality-rating")).toHaveText("Low (red)");
    await expect(page.getByTestId("messaging-limit")).toHaveText("1,000 customers a day");
    const list = await request.get("/v1/notifications", { headers: auth });
    const notifications = (await list.json()).data as { type: string; text: string }[];
    expect(notifications.find((n) => n.type === "number_health")?.text).toContain("quality rating dropped to low");
  } finally {
    await request.put("/v1/config/number", { headers: auth, data: { provider: "sandbox" } });
    await network.close();
  }
});
