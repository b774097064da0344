import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { systemContext } from "@/lib/server/context";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as messagesRoute from "@/app/v1/messages/route";
import * as templateRoute from "@/app/v1/templates/[id]/route";
import * as templatesRoute from "@/app/v1/templates/route";
import { eq } from "drizzle-orm";
import { getDb } from "@/db";
import { media } from "@/db/schema";
import { drainJobs } from "@/lib/jobs/runner";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { jobRegistry } from "@/lib/server/job-registry";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { buildTemplateStatusPayload, type FakeCloudNetwork, signHubPayload, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";
import { createTestAccount } from "@/tests/support/fixtures";
import { JPEG, nextPhone, PDF } from "@/tests/support/messaging";

const ACCESS_TOKEN = "EAAG-fake-network-token-rich-templates";
const APP_SECRET = "fake-app-secret-rich-templates-01";
let seq = 0;
let network: FakeCloudNetwork;
let account: Awaited<ReturnType<typeof createTestAccount>>;
let restoreEnv: () => void;

beforeAll(() => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true", NETWORK_APP_ID: undefined });
});
afterAll(() => restoreEnv());

beforeEach(async () => {
  resetRateLimiters();
  seq += 1;
  network = await startFakeCloudNetwork({
    accessToken: ACCESS_TOKEN,
    phoneNumberId: `30654099224${String(seq).padStart(4, "0")}`,
    businessAccountId: `4022901999${String(seq).padStart(5, "0")}`,
    appId: `77001${seq}`,
  });
  account = await createTestAccount();
});
afterEach(async () => {
  await network.close();
});

async function connectCloud() {
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
      verify_token: `verify-rich-${seq}`,
      api_base_url: network.apiBaseUrl,
    },
  });
  expect(res.status).toBe(200);
}

function postWebhook(payload: unknown) {
  const rawBody = JSON.stringify(payload);
  return call(webhookRoute.POST, {
    method: "POST",
    path: "/api/network/webhook",
    rawBody,
    headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody }) },
  });
}

const create = (input: unknown) => call(templatesRoute.POST, { method: "POST", path: "/v1/templates", token: account.adminToken, body: input });
const send = (body: unknown) => call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: account.adminToken, body });
async function approve(name: string, language = "en_US") {
  const template = network.templates.get(`${name}:${language}`)!;
  template.status = "APPROVED";
  expect((await postWebhook(buildTemplateStatusPayload({ businessAccountId: network.businessAccountId, template, event: "APPROVED" }))).status).toBe(200);
}

const spring = {
  name: "spring_sale",
  language: "en_US",
  category: "MARKETING",
  components: {
    header: { format: "IMAGE", media: { mime_type: "image/jpeg", data: JPEG.toString("base64"), filename: "spring.jpg" } },
    body: { text: "Hi {{1}}, our spring sale starts {{2}}.", examples: ["Lucía", "Monday"] },
    footer: { text: "Reply STOP to opt out" },
    buttons: [
      { type: "QUICK_REPLY", text: "Not interested" },
      { type: "URL", text: "Your offer", url: "https://shop.example/offer/{{1}}", example: "A-0001" },
      { type: "PHONE_NUMBER", text: "Call us", phone_number: "+34 911 234 567" },
      { type: "COPY_CODE", example: "SPRING10" },
    ],
  },
};

describe("rich templates on the cloud network", () => {
  beforeEach(() => connectCloud());

  it("uploads the header through the resumable upload API, submits the network's components, and sends header media and button parameters", async () => {
    const created = await create(spring);
    expect(created.status, created.text).toBe(201);
    expect(created.body.components).toEqual({
      header: { format: "IMAGE", media: { mime_type: "image/jpeg", filename: "spring.jpg", size: JPEG.length } },
      body: { text: "Hi {{1}}, our spring sale starts {{2}}.", examples: ["Lucía", "Monday"] },
      footer: { text: "Reply STOP to opt out" },
      buttons: [
        { type: "QUICK_REPLY", text: "Not interested" },
        { type: "URL", text: "Your offer", url: "https://shop.example/offer/{{1}}", example: "A-0001" },
        { type: "PHONE_NUMBER", text: "Call us", phone_number: "+34911234567" },
        { type: "COPY_CODE", example: "SPRING10" },
      ],
    });
    expect(JSON.stringify(created.body)).not.toContain("4::");

    // The upload: a session on the token's app, then the bytes from offset 0 with the OAuth scheme.
    expect(network.requests.some((r) => r.method === "GET" && r.path.endsWith("/app"))).toBe(true);
    expect(network.resumableUploads).toHaveLength(1);
    const upload = network.resumableUploads[0];
    expect(upload).toMatchObject({ fileName: "spring.jpg", fileLength: JPEG.length, fileType: "image/jpeg", handle: expect.stringMatching(/^4::/) });
    expect(upload.bytes!.equals(JPEG)).toBe(true);
    const sessionCall = network.requests.find((r) => r.path.endsWith(`/${network.appId}/uploads`))!;
    expect(sessionCall.query).toMatchObject({ file_name: "spring.jpg", file_length: String(JPEG.length), file_type: "image/jpeg" });
    const bytesCall = network.requests.find((r) => r.path.includes("/upload:"))!;
    expect(bytesCall.headers).toMatchObject({ authorization: `OAuth ${ACCESS_TOKEN}`, file_offset: "0" });

    expect(network.templates.get("spring_sale:en_US")!.components).toEqual([
      { type: "HEADER", format: "IMAGE", example: { header_handle: [upload.handle] } },
      { type: "BODY", text: "Hi {{1}}, our spring sale starts {{2}}.", example: { body_text: [["Lucía", "Monday"]] } },
      { type: "FOOTER", text: "Reply STOP to opt out" },
      {
        type: "BUTTONS",
        buttons: [
          { type: "QUICK_REPLY", text: "Not interested" },
          { type: "URL", text: "Your offer", url: "https://shop.example/offer/{{1}}", example: ["https://shop.example/offer/A-0001"] },
          { type: "PHONE_NUMBER", text: "Call us", phone_number: "+34911234567" },
          { type: "COPY_CODE", example: "SPRING10" },
        ],
      },
    ]);

    await approve("spring_sale");
    const to = nextPhone();
    const sent = await send({
      to,
      type: "template",
      template: { name: "spring_sale", language: "en_US", variables: ["Ana", "tomorrow"], buttons: [{ index: 1, value: "B-7731" }, { index: 3, value: "ANA15" }] },
    });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({
      type: "template",
      text: "Hi Ana, our spring sale starts tomorrow.",
      media: { mime_type: "image/jpeg" },
      template: {
        name: "spring_sale",
        category: "MARKETING",
        header: { format: "IMAGE" },
        footer: "Reply STOP to opt out",
        buttons: [
          { index: 0, type: "QUICK_REPLY", text: "Not interested" },
          { index: 1, type: "URL", text: "Your offer", url: "https://shop.example/offer/B-7731", value: "B-7731" },
          { index: 2, type: "PHONE_NUMBER", text: "Call us", phone_number: "+34911234567" },
          { index: 3, type: "COPY_CODE", text: "Copy code", value: "ANA15" },
        ],
      },
    });
    await drainJobs(systemContext(), jobRegistry);
    const accepted = network.acceptedMessages.at(-1)!;
    expect(accepted.type).toBe("template");
    const components = (accepted.body.template as { components: Record<string, any>[] }).components;
    const headerId = components[0].parameters[0].image.id;
    expect(network.getMedia(headerId)?.bytes.equals(JPEG)).toBe(true);
    expect(components).toEqual([
      { type: "header", parameters: [{ type: "image", image: { id: headerId } }] },
      { type: "body", parameters: [{ type: "text", text: "Ana" }, { type: "text", text: "tomorrow" }] },
      { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "B-7731" }] },
      { type: "button", sub_type: "copy_code", index: "3", parameters: [{ type: "coupon_code", coupon_code: "ANA15" }] },
    ]);

    // Without button values the examples are sent; another file replaces the header's own.
    const other = await send({
      to,
      type: "template",
      template: { name: "spring_sale", language: "en_US", variables: ["Ana", "today"], header: { media: { mime_type: "image/jpeg", data: Buffer.concat([JPEG, Buffer.from("x")]).toString("base64") } } },
    });
    expect(other.status, other.text).toBe(201);
    await drainJobs(systemContext(), jobRegistry);
    const second = (network.acceptedMessages.at(-1)!.body.template as { components: Record<string, any>[] }).components;
    expect(network.getMedia(second[0].parameters[0].image.id)?.bytes.length).toBe(JPEG.length + 1);
    expect(second.slice(2)).toEqual([
      { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "A-0001" }] },
      { type: "button", sub_type: "copy_code", index: "3", parameters: [{ type: "coupon_code", coupon_code: "SPRING10" }] },
    ]);
  });

  it("sends a document header with its filename and a location header with its place", async () => {
    expect(
      (
        await create({
          name: "invoice_ready",
          language: "en_US",
          category: "UTILITY",
          components: { header: { format: "DOCUMENT", media: { mime_type: "application/pdf", data: PDF.toString("base64"), filename: "invoice.pdf" } }, body: { text: "Your invoice is ready." } },
        })
      ).status,
    ).toBe(201);
    expect((await create({ name: "visit_us", language: "en_US", category: "UTILITY", components: { header: { format: "LOCATION" }, body: { text: "We moved!" } } })).status).toBe(201);
    expect(network.templates.get("visit_us:en_US")!.components[0]).toEqual({ type: "HEADER", format: "LOCATION" });
    await approve("invoice_ready");
    await approve("visit_us");
    const to = nextPhone();
    expect((await send({ to, type: "template", template: { name: "invoice_ready", language: "en_US" } })).status).toBe(201);
    const noPlace = await send({ to, type: "template", template: { name: "visit_us", language: "en_US" } });
    expect(noPlace.status).toBe(400);
    expect(noPlace.body.error.details[0].path).toBe("template.header.location");
    const place = { latitude: 40.4168, longitude: -3.7038, name: "Chorus shop", address: "Gran Vía 1, Madrid" };
    const located = await send({ to, type: "template", template: { name: "visit_us", language: "en_US", header: { location: place } } });
    expect(located.status, located.text).toBe(201);
    expect(located.body.template.header).toEqual({ format: "LOCATION", location: place });
    await drainJobs(systemContext(), jobRegistry);
    const [doc, loc] = network.acceptedMessages.slice(-2).map((m) => (m.body.template as { components: Record<string, any>[] }).components);
    expect(doc[0]).toMatchObject({ type: "header", parameters: [{ type: "document", document: { id: expect.any(String), filename: "invoice.pdf" } }] });
    expect(loc).toEqual([{ type: "header", parameters: [{ type: "location", location: place }] }]);
  });

  it("refuses bad definitions with 400 naming the field, and submits and uploads nothing", async () => {
    const base = { name: "bad_one", language: "en_US", category: "MARKETING" };
    const body = { text: "Hello {{1}}" };
    const cases: [Record<string, unknown>, string][] = [
      [{ body, buttons: [{ type: "CALL_ME", text: "Hi" }] }, "components.buttons.0.type"],
      [{ body, buttons: Array.from({ length: 11 }, (_, i) => ({ type: "QUICK_REPLY", text: `Choice ${i}` })) }, "components.buttons"],
      [{ body, buttons: [1, 2, 3].map((i) => ({ type: "URL", text: `Link ${i}`, url: `https://shop.example/${i}` })) }, "components.buttons"],
      [{ body, buttons: [{ type: "URL", text: "Track", url: "https://shop.example/track/{{1}}" }] }, "components.buttons.0.example"],
      [{ body, buttons: [{ type: "URL", text: "Track", url: "https://shop.example/{{1}}/track", example: "x" }] }, "components.buttons.0.url"],
      [{ body, buttons: [{ type: "COPY_CODE" }] }, "components.buttons.0.example"],
      [{ body, buttons: [{ type: "PHONE_NUMBER", text: "Call" }] }, "components.buttons.0.phone_number"],
      [{ body: { text: "Hello {{1}} and {{2}}", examples: ["Ana"] } }, "components.body.examples"],
      [{ body, header: { format: "IMAGE" } }, "components.header.media"],
      [{ body, header: { format: "VIDEO", media: { mime_type: "image/jpeg", data: JPEG.toString("base64") } } }, "components.header.media.mime_type"],
      [{ body, header: { format: "DOCUMENT", media: { mime_type: "image/jpeg", data: JPEG.toString("base64"), filename: "x.jpg" } } }, "components.header.media.mime_type"],
      [{ body, header: { format: "GIFT" } }, "components.header.format"],
    ];
    for (const [components, field] of cases) {
      const res = await create({ ...base, components });
      expect(res.status, JSON.stringify(components).slice(0, 200)).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.details.map((d: { path: string }) => d.path), JSON.stringify(res.body.error.details)).toContain(field);
    }
    expect(network.requests.filter((r) => r.method === "POST")).toHaveLength(0);
    expect((await call(templatesRoute.GET, { path: "/v1/templates", token: account.adminToken })).body.data).toEqual([]);
  });

  it("refuses send values that do not fit the template", async () => {
    expect((await create(spring)).status).toBe(201);
    await approve("spring_sale");
    const to = nextPhone();
    const tries: [Record<string, unknown>, string][] = [
      [{ buttons: [{ index: 7, value: "x" }] }, "template.buttons"],
      [{ buttons: [{ index: 2, value: "x" }] }, "template.buttons"],
      [{ buttons: [{ index: 3, value: "A-CODE-LONGER-THAN-15" }] }, "template.buttons"],
      [{ header: { location: { latitude: 1, longitude: 1 } } }, "template.header.location"],
      [{ header: { media: { mime_type: "application/pdf", data: PDF.toString("base64") } } }, "template.header.media.mime_type"],
    ];
    const before = network.acceptedMessages.length;
    for (const [extra, field] of tries) {
      const res = await send({ to, type: "template", template: { name: "spring_sale", language: "en_US", variables: ["a", "b"], ...extra } });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error.details[0].path).toBe(field);
    }
    await drainJobs(systemContext(), jobRegistry);
    expect(network.acceptedMessages).toHaveLength(before);
  });

  it("deletes the header's file with the template", async () => {
    const created = await create(spring);
    const files = () => getDb().select({ id: media.id }).from(media).where(eq(media.accountId, account.account.id));
    expect(await files()).toHaveLength(1);
    const deleted = await call(templateRoute.DELETE, { method: "DELETE", path: "/", token: account.adminToken, params: { id: created.body.id } });
    expect(deleted.status).toBe(204);
    expect(await files()).toHaveLength(0);
  });
});

describe("rich templates in the sandbox", () => {
  it("creates and sends a media-header template without the network", async () => {
    const created = await create(spring);
    expect(created.status, created.text).toBe(201);
    await drainJobs(systemContext(), jobRegistry, { now: new Date(Date.now() + 3_000) });
    const sent = await send({ to: nextPhone(), type: "template", template: { name: "spring_sale", language: "en_US", variables: ["Ana", "soon"] } });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.template.buttons[1].url).toBe("https://shop.example/offer/A-0001");
    expect(network.requests).toHaveLength(0);
  });
});
