import { expect, type Page, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

test.use({ timezoneId: "Europe/Madrid" });

const conversationRow = (page: Page, name: string) => page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });
const QUESTION = "How happy are you with our help today?";

test("closing sends the satisfaction survey; the simulated customer's choice moves the CSAT card", async ({ page, request }) => {
  test.setTimeout(120_000);
  const token = await adminApiToken(request);
  const auth = { authorization: `Bearer ${token}` };
  await signInAsOwner(page);

  // Turn the survey on in settings.
  await page.goto("/settings/survey");
  await expect(page.getByRole("heading", { name: "Satisfaction survey" })).toBeVisible();
  await page.getByRole("checkbox", { name: /Ask for a rating/ }).check();
  await page.getByLabel("Question").fill(QUESTION);
  await expect(page.getByText("What the customer receives").locator("..")).toContainText(QUESTION);
  await page.getByRole("button", { name: "Save survey" }).click();
  await expect(page.getByText("Saved. Closed conversations now get the survey.")).toBeVisible();
  await page.screenshot({ path: shot("settings-survey"), fullPage: true });
  expect(await (await request.get("/v1/config/csat", { headers: auth })).json()).toEqual({ enabled: true, question: QUESTION });

  // The CSAT card before the answer.
  await page.goto("/reports");
  await expect(page.getByTestId("stat-csat")).toBeVisible();
  const before = Number(await page.getByTestId("csat-responses").textContent());
  const fourBefore = Number(await page.getByTestId("csat-score-4").textContent());

  // A customer writes; the admin closes the conversation; the survey appears in the thread.
  const customer = `Survey Cliente ${Date.now() % 100000}`;
  const phone = `1556${String(Date.now()).slice(-7)}`;
  await page.goto("/inbox");
  await page.getByRole("button", { name: "Simulate customer" }).click();
  await page.getByLabel("Customer number").fill(phone);
  await page.getByLabel("Customer name").fill(customer);
  await page.getByLabel("Message", { exact: true }).fill("Thanks, the fern arrived!");
  await page.getByRole("button", { name: "Send as customer" }).click();
  await conversationRow(page, customer).click();
  await page.getByRole("button", { name: "Close", exact: true }).click();
  await expect(page.getByTestId("conversation-status")).toHaveText("Closed");
  const log = page.getByRole("log", { name: `Messages with ${customer}` });
  await expect(log.locator('[data-direction="outbound"]', { hasText: QUESTION })).toBeVisible({ timeout: 10_000 });
  // The survey is the interactive list the customer sees: the question and its five choices.
  const survey = log.locator('[data-direction="outbound"]', { hasText: QUESTION }).getByTestId("interactive-message");
  await expect(survey).toBeVisible();
  await expect(survey.getByRole("listitem")).toHaveText(["1 - Very poor", "2 - Poor", "3 - Okay", "4 - Good", "5 - Excellent"]);

  // The customer picks "4 - Good" from the list.
  await page.getByRole("button", { name: "Simulate customer" }).click();
  await page.getByLabel("Customer number").fill(phone);
  await page.getByLabel("Customer name").fill(customer);
  await page.getByLabel("The customer sends").selectOption("survey");
  await page.getByLabel("Survey choice").selectOption("4");
  await page.getByRole("button", { name: "Send as customer" }).click();
  await expect(log.locator('[data-direction="inbound"]', { hasText: "4 - Good" })).toBeVisible({ timeout: 10_000 });
  // A rating does not reopen the conversation.
  await expect(page.getByTestId("conversation-status")).toHaveText("Closed");
  await page.screenshot({ path: shot("survey-inbox") });

  // The CSAT card counts it, as the API does.
  await page.goto("/reports");
  await expect(page.getByTestId("csat-responses")).toHaveText(String(before + 1));
  await expect(page.getByTestId("csat-score-4")).toHaveText(String(fourBefore + 1));
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(new Date());
  const [y, m, d] = today.split("-").map(Number);
  const from = new Date(Date.UTC(y, m - 1, d - 6)).toISOString().slice(0, 10);
  const summary = await (await request.get(`/v1/reports/summary?from=${from}&to=${today}&tz=Europe/Madrid`, { headers: auth })).json();
  expect(summary.csat.responses).toBe(before + 1);
  await expect(page.getByTestId("csat-average")).toHaveText(summary.csat.average.toLocaleString("en", { maximumFractionDigits: 2 }));

  // Leave the survey off for the other tests.
  expect((await request.put("/v1/config/csat", { headers: auth, data: { enabled: false, question: QUESTION } })).status()).toBe(200);
});
