import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as sandboxInboundRoute from "@/app/api/sandbox/inbound/route";
import * as conversationMessagesRoute from "@/app/v1/conversations/[id]/messages/route";
import { updateInboxSettings } from "@/lib/conversations/inbox-settings";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { JPEG, nextPhone, PNG } from "@/tests/support/messaging";
import { createDispatchFetch } from "@/tests/support/route-table";
import { verbContext } from "@/lib/server/context";

/**
 * Generates TypeScript types from the served documents with openapi-typescript, compiles a
 * small openapi-fetch client against them, and runs it against the real route handlers: a
 * client generated from either document works without hand edits.
 */

const root = path.resolve(import.meta.dirname, "../..");
const dispatch = createDispatchFetch(["v1", "plant-store"]);
let dir: string;

const CLIENT = `import createClient from "openapi-fetch";
import type { components as V1Components, paths as V1 } from "./v1";
import type { components as PlantComponents, paths as PlantStore } from "./plant-store";

type Options = { baseUrl: string; token: string; fetch: (request: Request) => Promise<Response> };

type Message = V1Components["schemas"]["Message"];

/** Lists the open conversations and answers the first one. */
export async function answerFirstOpenConversation(options: Options): Promise<Message | null> {
  const api = createClient<V1>({ baseUrl: options.baseUrl, fetch: options.fetch, headers: { Authorization: \`Bearer \${options.token}\` } });
  const { data, error } = await api.GET("/v1/conversations", { params: { query: { status: "open", limit: 20 } } });
  if (error) throw new Error(\`\${error.error.code}: \${error.error.message}\`);
  const conversation = data.data[0];
  if (!conversation) return null;
  const sent = await api.POST("/v1/messages", {
    params: { header: { "Idempotency-Key": "reply-" + conversation.id } },
    body: { type: "text", text: "Thanks for writing!", conversation_id: conversation.id },
  });
  if (sent.error) throw new Error(sent.error.error.message);
  const status: "queued" | "sent" | "delivered" | "read" | "failed" | "received" = sent.data.status;
  return status === "queued" ? sent.data : null;
}

/** Sends a photo to a number. */
export async function sendPhoto(options: Options, to: string, jpegBase64: string) {
  const api = createClient<V1>({ baseUrl: options.baseUrl, fetch: options.fetch, headers: { Authorization: \`Bearer \${options.token}\` } });
  return api.POST("/v1/messages", { body: { to, type: "image", media: { mime_type: "image/jpeg", data: jpegBase64, caption: "Our menu" } } });
}

/** The account name, through a /v1 route that exists today. */
export async function accountName(options: Options): Promise<string> {
  const api = createClient<V1>({ baseUrl: options.baseUrl, fetch: options.fetch, headers: { Authorization: \`Bearer \${options.token}\` } });
  const { data, error } = await api.GET("/v1/account");
  if (error) throw new Error(error.error.message);
  return data.name;
}

type NewPlant = PlantComponents["schemas"]["NewPlant"];

/** Adds two plants, lists them, deletes one, and collects what the plant store answered. */
export async function tendGarden(options: Options) {
  const store = createClient<PlantStore>({ baseUrl: options.baseUrl + "/plant-store", fetch: options.fetch, headers: { Authorization: \`Bearer \${options.token}\` } });
  const monstera = await store.POST("/plants", { body: { name: "Monstera", tag: "tropical" } });
  const basil = await store.POST("/plants", { body: { name: "Basil" } });
  if (monstera.error || basil.error) throw new Error("could not add plants");
  const id: number = monstera.data.id;
  const listed = await store.GET("/plants", { params: { query: { limit: 10 } } });
  const refused = await store.POST("/plants", { body: { name: "" } });
  const deleted = await store.DELETE("/plants/{id}", { params: { path: { id } } });
  const again = await store.DELETE("/plants/{id}", { params: { path: { id } } });
  const plants: NewPlant[] = listed.data ?? [];
  return {
    created: [monstera.data, basil.data],
    listed: plants,
    refused: refused.error ? { error: refused.error.error, message: refused.error.message } : null,
    deletedStatus: deleted.response.status,
    missing: again.error ? again.error.error : null,
  };
}
`;

// Each line must be refused by the compiler: the types really constrain the client.
const WRONG = `import createClient from "openapi-fetch";
import type { paths as V1 } from "./v1";
import type { paths as PlantStore } from "./plant-store";

const api = createClient<V1>({ baseUrl: "http://localhost" });
const store = createClient<PlantStore>({ baseUrl: "http://localhost/plant-store" });

export async function mistakes() {
  await api.POST("/v1/messages", { body: { type: "text", text: "no recipient" } });
  await api.GET("/v1/conversations", { params: { query: { status: "pending" } } });
  await api.GET("/v1/conversation");
  await store.POST("/plants", { body: { name: 42 } });
  await store.DELETE("/plants/{id}", { params: { path: { id: "abc" } } });
}
`;

type ClientOptions = { baseUrl: string; token: string; fetch: (request: Request) => Promise<Response> };
type SentMessage = { id: string; conversation_id: string; to: string; type: string; text?: string; status: string; media?: { mime_type: string; caption?: string } };
type GeneratedClient = {
  answerFirstOpenConversation(options: ClientOptions): Promise<SentMessage | null>;
  sendPhoto(options: ClientOptions, to: string, jpegBase64: string): Promise<{ data?: SentMessage; error?: { error: { code: string; details?: { path: string }[] } }; response: Response }>;
  accountName(options: ClientOptions): Promise<string>;
  tendGarden(options: ClientOptions): Promise<{
    created: unknown[];
    listed: unknown[];
    refused: { error: number; message: string } | null;
    deletedStatus: number;
    missing: number | null;
  }>;
};

function compile(file: string): ts.Diagnostic[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: [],
    skipLibCheck: true,
  });
  return [...ts.getPreEmitDiagnostics(program)];
}

const describeDiagnostics = (diagnostics: ts.Diagnostic[]) =>
  diagnostics.map((d) => `${d.file ? path.basename(d.file.fileName) + ":" + (d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1) : ""} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "chorus-typed-client-"));
  // The generated client resolves openapi-fetch from the app's dependencies.
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  for (const [name, url] of [
    ["v1", "/v1/openapi.json"],
    ["plant-store", "/plant-store/openapi.json"],
  ]) {
    const res = await dispatch(new Request(`http://localhost${url}`));
    expect(res.status).toBe(200);
    const document = (await res.json()) as OpenAPI3;
    writeFileSync(path.join(dir, `${name}.ts`), astToString(await openapiTS(document)));
  }
  writeFileSync(path.join(dir, "client.ts"), CLIENT);
  writeFileSync(path.join(dir, "wrong.ts"), WRONG);
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a client generated from the served documents", () => {
  it("type-checks against the generated types", () => {
    expect(describeDiagnostics(compile(path.join(dir, "client.ts")))).toEqual([]);
  }, 60_000);

  it("refuses calls the documents do not allow", () => {
    const lines = compile(path.join(dir, "wrong.ts")).map((d) => d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line + 1);
    expect([...new Set(lines)].sort((a, b) => a - b)).toEqual([9, 10, 11, 12, 13]);
  }, 60_000);

  it("lists conversations and sends messages through the real /v1 handlers without hand edits", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    // The client answers the first *open* conversation, twice to show the Idempotency-Key at work;
    // auto-assign on reply would move it out of the open ones after the first answer.
    await updateInboxSettings({ ctx: verbContext({ accountId: account.id }), input: { auto_assign_on_reply: false } });
    const client = (await import(/* @vite-ignore */ path.join(dir, "client.ts"))) as GeneratedClient;
    const options = { baseUrl: "http://localhost", token: adminToken, fetch: dispatch };

    expect(await client.answerFirstOpenConversation(options)).toBeNull();

    const customer = nextPhone();
    const inbound = await call(sandboxInboundRoute.POST, {
      method: "POST",
      path: "/api/sandbox/inbound",
      token: adminToken,
      body: { from: customer, type: "text", text: "Is the fern still available?" },
    });
    expect(inbound.status).toBe(201);

    const answer = await client.answerFirstOpenConversation(options);
    expect(answer).toMatchObject({
      conversation_id: inbound.body.conversation_id,
      to: customer,
      type: "text",
      text: "Thanks for writing!",
      status: "queued",
      direction: "outbound",
      sender: { type: "user", user_id: admin.id },
    });
    // The Idempotency-Key the client sends makes a retry return the same message.
    expect((await client.answerFirstOpenConversation(options))?.id).toBe(answer!.id);
    const thread = await call(conversationMessagesRoute.GET, { path: "/", token: adminToken, params: { id: inbound.body.conversation_id } });
    expect(thread.body.data.map((m: { id: string }) => m.id)).toEqual([answer!.id, inbound.body.id]);

    const photo = await client.sendPhoto(options, nextPhone(), JPEG.toString("base64"));
    expect(photo.response.status).toBe(201);
    expect(photo.data).toMatchObject({ type: "image", status: "queued", media: { mime_type: "image/jpeg", caption: "Our menu" } });
    const notAPhoto = await client.sendPhoto(options, nextPhone(), PNG.toString("base64"));
    expect(notAPhoto.response.status).toBe(400);
    expect(notAPhoto.error?.error.code).toBe("validation_error");
  });

  it("works against the real plant store and /v1 handlers without hand edits", async () => {
    const { account, adminToken } = await createTestAccount();
    const client = (await import(/* @vite-ignore */ path.join(dir, "client.ts"))) as GeneratedClient;
    const options = { baseUrl: "http://localhost", token: adminToken, fetch: dispatch };

    expect(await client.accountName(options)).toBe(account.name);

    const garden = await client.tendGarden(options);
    const [monstera, basil] = garden.created;
    expect(monstera).toEqual({ id: expect.any(Number), name: "Monstera", tag: "tropical" });
    expect(basil).toEqual({ id: expect.any(Number), name: "Basil" });
    expect(garden.listed).toEqual([monstera, basil]);
    expect(garden.refused).toEqual({ error: 400, message: "name is required" });
    expect(garden.deletedStatus).toBe(204);
    expect(garden.missing).toBe(404);
  });
});
