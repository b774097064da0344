import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { withIntl } from "@/tests/support/intl";
import { describe, expect, it, vi } from "vitest";
import DocsPage from "@/app/(app)/docs/page";
import PlantStoreReferencePage from "@/app/(app)/docs/plant-store/page";
import V1ReferencePage from "@/app/(app)/docs/v1/page";
import * as plantsRoute from "@/app/plant-store/plants/route";
import { createSession } from "@/lib/auth/sessions";
import { getEnv } from "@/lib/platform/env";
import { slug } from "@/lib/openapi/reference";
import { plantStoreDocument } from "@/lib/openapi/plant-store";
import { v1Document } from "@/lib/openapi/v1";
import { proxy } from "@/proxy";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { systemContext } from "@/lib/server/context";

// The guide is a server component: its catalogs come from next-intl's server API, here without a request.
vi.mock("next-intl/server", async () => (await import("@/tests/support/intl")).serverTranslations());

const COOKIE = "authjs.session-token";
const METHODS = ["get", "put", "post", "delete", "patch"];

/** The browser's sign-in cookie for a fresh session of the account's administrator. */
async function signedInCookie() {
  const { admin } = await createTestAccount();
  const session = await createSession(systemContext().db, { user: admin });
  const value = await encode({ token: { sub: admin.id, tid: session.id, acc: admin.accountId }, secret: getEnv().AUTH_SECRET, salt: COOKIE });
  return `${COOKIE}=${value}`;
}

const decode = (text: string) =>
  text
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();

/** The text of the element with this id, tags removed. */
function textOf(html: string, id: string): string | undefined {
  const start = html.indexOf(` id="${id}"`);
  if (start < 0) return undefined;
  const open = html.lastIndexOf("<", start);
  const tag = /^<(\w+)/.exec(html.slice(open))![1];
  // Sections nest other elements of their kind only as far as the next one of the same id prefix.
  let depth = 0;
  const pattern = new RegExp(`<(/?)${tag}\\b[^>]*>`, "g");
  pattern.lastIndex = open;
  for (let match = pattern.exec(html); match; match = pattern.exec(html)) {
    depth += match[1] ? -1 : 1;
    if (depth === 0) return decode(html.slice(open, match.index + match[0].length));
  }
  return undefined;
}

function operationsOf(doc: { paths: Record<string, Record<string, any>> }) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method: method.toUpperCase(), path, op: item[method] })),
  );
}

describe("the /docs overview", () => {
  it("says X-Service-Signature is keyed by the secret string as shown, a Standard Webhooks library takes the secret as is, and a mismatch is answered 400", async () => {
    const text = decode(renderToString(withIntl(await DocsPage())));
    expect(text).toMatch(/X-Service-Signature uses the secret string as the key/);
    expect(text).toContain("new Webhook(secret)");
    expect(text).not.toContain('Buffer.from(secret).toString("base64")');
    expect(text).toContain("return 400;");
    expect(text).not.toMatch(/return 401/);
  });
});

describe("API reference pages", () => {
  it.each(["/docs", "/docs/v1", "/docs/plant-store"])("%s sends signed-out visitors to /login and back", (page) => {
    const res = proxy(new NextRequest(`http://localhost${page}`));
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe(`http://localhost/login?next=${encodeURIComponent(page)}`);
  });

  it("/docs/v1 renders every operation of the served document, with scopes, bodies, answers and a curl example", () => {
    const html = renderToString(withIntl(createElement(V1ReferencePage)));
    const doc = v1Document() as unknown as { paths: Record<string, Record<string, any>>; webhooks: Record<string, unknown>; components: { schemas: Record<string, unknown> } };

    for (const { method, path, op } of operationsOf(doc)) {
      const anchor = `op-${slug(op.operationId)}`;
      expect(textOf(html, `${anchor}-title`), `${method} ${path}`).toBe(`${method} ${path}`);
      expect(html, `${method} ${path} in the contents`).toContain(`href="#${anchor}"`);
      const section = textOf(html, anchor)!;
      expect(section).toContain(op.summary);
      for (const scope of op["x-required-scopes"]) expect(section, `${method} ${path}`).toContain(`Required scopes:${scope}`);
      for (const status of Object.keys(op.responses)) expect(section, `${method} ${path} ${status}`).toContain(status);
      expect(section).toContain("curl -X " + method);
    }
    for (const type of Object.keys(doc.webhooks)) expect(textOf(html, `webhook-${slug(`event_${type.replace(".", "_")}`)}-title`)).toBe(`POST ${type}`);
    for (const name of Object.keys(doc.components.schemas)) expect(html).toContain(`id="schema-${slug(name)}"`);

    const send = textOf(html, "op-sendmessage")!;
    // The request body is SendMessage, spelled out field by field.
    expect(send).toContain("tostringrequired");
    expect(send).toContain("typestringrequiredOne oftextimagedocumentaudiovideo");
    expect(send).toContain("image: image/jpeg, image/png (at most 5 MB)");
    expect(send).toContain("Idempotency-Key");
    expect(send).toContain(`curl -X POST '${getEnv().APP_URL}/v1/messages'`);
    expect(send).toContain(`"to": "15551234567"`);
    expect(send).toContain("messages:write");
    // The 201 answer resolves the Message reference into its fields, and the errors name their body.
    expect(send).toContain("conversation_id");
    expect(send).toContain("sender");
    expect(send).toMatch(/404.*not_found/);
    expect(html).toContain('href="#response-notfound"');
    expect(html).toContain('href="/v1/openapi.json"');

    const received = textOf(html, "webhook-event-message-received")!;
    expect(received).toContain("X-Service-Signature");
    expect(received).toContain("ConversationSummary");
  });

  it("/docs/plant-store renders the plant store's operations and its New Plant webhook", () => {
    const html = renderToString(withIntl(createElement(PlantStoreReferencePage)));
    const doc = plantStoreDocument() as unknown as { paths: Record<string, Record<string, any>> };
    for (const { method, path, op } of operationsOf(doc)) {
      expect(textOf(html, `op-${slug(op.operationId)}-title`)).toBe(`${method} ${path}`);
    }
    const create = textOf(html, "op-createplant")!;
    expect(create).toContain(`curl -X POST '${getEnv().APP_URL}/plant-store/plants'`);
    expect(create).toContain("namestringrequired");
    expect(create).toContain("1 to 200 characters");
    expect(textOf(html, "op-deleteplant")).toContain("int64");
    expect(textOf(html, "webhook-newplant-title")).toBe("POST /plant/webhook");
    expect(textOf(html, "webhook-newplant")).toContain("New Plant");
    expect(html).toContain('href="/plant-store/openapi.json"');
  });

  it("the plant store accepts the browser's sign-in cookie as well as a bearer token", async () => {
    const cookie = await signedInCookie();
    const created = await call(plantsRoute.POST, { method: "POST", path: "/plant-store/plants", body: { name: "Pilea" }, headers: { cookie } });
    expect(created.status).toBe(200);
    const listed = await call(plantsRoute.GET, { path: "/plant-store/plants", headers: { cookie } });
    expect(listed.body).toEqual([created.body]);
  });
});
