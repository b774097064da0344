import { expect, test } from "@playwright/test";
import { type FakeCloudNetwork, startFakeCloudNetwork } from "../support/fake-cloud-network";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

let network: FakeCloudNetwork;
test.beforeAll(async () => {
  network = await startFakeCloudNetwork({ accessToken: "EAAG-e2e-access-token", phoneNumberId: "106540352242922", displayPhoneNumber: "+1 415-555-2671" });
});
test.afterAll(async ({ request }) => {
  // Later tests simulate customers, which needs the sandbox back.
  const token = await adminApiToken(request);
  const reset = await request.put("/v1/config/number", { headers: { authorization: `Bearer ${token}` }, data: { provider: "sandbox" } });
  expect(reset.status()).toBe(200);
  await network.close();
});

test("an admin connects a Cloud API number, with the requirements explained, write-only secrets and a connection test", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/settings/number");
  await expect(page.getByText("It must be able to receive an SMS or a voice call")).toBeVisible();
  await expect(page.getByText("Virtual and VoIP numbers may fail")).toBeVisible();
  await expect(page.getByLabel("Coexistence with the business app")).toBeVisible();

  await page.getByLabel("Cloud API").check();
  await page.getByLabel("Phone number", { exact: true }).fill("+1 555");
  await page.getByLabel("Phone number ID").fill("106540352242922");
  await page.getByLabel("Business account ID").fill("102290129340398");
  await page.getByLabel("Access token").fill("EAAG-e2e-access-token");
  await page.getByLabel("App secret").fill("e2e-app-secret");
  await page.getByLabel("Verify token").fill("e2e-verify-token");
  await page.getByLabel("API base URL").fill(network.apiBaseUrl);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.locator("#field-phone_number-error")).toBeVisible();

  await page.getByLabel("Phone number", { exact: true }).fill("+14155552671");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: /saved/i })).toBeVisible();

  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByRole("status").filter({ hasText: "+1 415-555-2671" })).toBeVisible();
  expect(network.requests.some((r) => r.method === "GET" && r.headers.authorization === "Bearer EAAG-e2e-access-token")).toBe(true);

  // Secrets are never shown again: after a reload the fields are empty and say they are set.
  await page.reload();
  await expect(page.getByLabel("Access token")).toHaveValue("");
  await expect(page.getByText("Set — leave blank to keep the current value.").first()).toBeVisible();
  expect(await page.content()).not.toContain("EAAG-e2e-access-token");
  await expect(page.getByLabel("Status: Connected")).toBeVisible();
  await page.screenshot({ path: shot("number-settings"), fullPage: true });
});
