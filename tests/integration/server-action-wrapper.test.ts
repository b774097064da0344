import { createServer } from "node:net";
import { createTranslator } from "next-intl";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getDbHandle, openPostgres, setDbHandle } from "@/db";
import { readCatalog } from "@/i18n/messages";
import { action, formInput, formText } from "@/lib/server/action";
import { createCannedReplyInput } from "@/lib/canned-replies/schemas";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { sessionCookie } from "@/tests/support/oauth";

// A server action reads the browser's sign-in cookie and the page it was called from from the
// request headers, and the submitter's language from next-intl; this test stands in for both.
const request = vi.hoisted(() => ({ cookie: "", page: "", locale: "en" }));
vi.mock("next/headers", () => ({ headers: async () => new Headers({ cookie: request.cookie, "x-chorus-page": request.page }) }));
vi.mock("next-intl/server", () => ({
  getLocale: async () => request.locale,
  getTranslations: async (namespace: string) => createTranslator({ locale: request.locale, messages: readCatalog(request.locale as "es"), namespace: namespace as never }),
}));
const revalidated = vi.hoisted(() => [] as unknown[][]);
vi.mock("next/cache", () => ({ revalidatePath: (...args: unknown[]) => void revalidated.push(args) }));

beforeEach(() => {
  request.cookie = "";
  request.page = "";
  request.locale = "en";
  revalidated.length = 0;
});

/** What a redirect thrown by Next.js names as its target. */
const redirectOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: { digest?: string }) => error.digest?.split(";")[2] ?? error,
  );

const ran: unknown[] = [];
const saveReply = action({ role: "admin", schema: createCannedReplyInput, revalidate: "/settings/canned-replies" }, async (input, ctx) => {
  ran.push(input);
  return { shortcut: input.shortcut, by: ctx.user.id };
});
const renameThing = action({ args: [z.string(), z.object({ name: z.string().min(1) })], revalidate: { layout: "/settings/things" } }, async ([id, input], ctx) => ({
  id,
  name: input.name,
  account: ctx.accountId,
}));
const joinWithForm = action({ role: "anyone", schema: formInput(z.object({ name: z.string().min(2) }), (form) => formText(form, "name")) }, async (input, ctx) => ({ name: input.name, caller: "accountId" in ctx, verbs: typeof ctx.react === "function" }));

async function signedIn(role: "admin" | "agent") {
  const { account, admin } = await createTestAccount();
  const user = role === "admin" ? admin : (await addTestUser(account.id, "agent")).user;
  request.cookie = (await sessionCookie(user)).cookie;
  return { account, user };
}

describe("one server-action wrapper", () => {
  it("signed out: to the sign-in page, coming back to the page after, and nothing runs", async () => {
    ran.length = 0;
    request.page = "/settings/canned-replies";
    expect(await redirectOf(saveReply({ shortcut: "hi", text: "Hello" }))).toBe("/login?next=%2Fsettings%2Fcanned-replies");
    expect(ran).toEqual([]);
    expect(revalidated).toEqual([]);
  });

  it("an agent calling an administrator's action: a 403 result, before its input is even read", async () => {
    ran.length = 0;
    await signedIn("agent");
    expect(await saveReply({ shortcut: "", text: "" })).toMatchObject({ ok: false, status: 403, code: "forbidden", fieldErrors: {} });
    expect(ran).toEqual([]);
    expect(revalidated).toEqual([]);
  });

  it("a refused field: a 400 naming it in the submitter's language, and nothing runs", async () => {
    ran.length = 0;
    await signedIn("admin");
    request.locale = "es";
    const result = await saveReply({ shortcut: "hi", text: "" });
    expect(result).toMatchObject({ ok: false, status: 400, code: "validation_error", fieldErrors: { text: expect.stringMatching(/mensaje/i) } });
    request.locale = "en";
    expect(await saveReply({ shortcut: "hi", text: "" })).toMatchObject({ ok: false, status: 400, fieldErrors: { text: expect.any(String) } });
    // Hostile input (not even an object) is refused the same way.
    expect(await saveReply(null as never)).toMatchObject({ ok: false, status: 400, code: "validation_error" });
    expect(ran).toEqual([]);
    expect(revalidated).toEqual([]);
  });

  it("success: the verb's answer, and the page refreshed", async () => {
    const { user } = await signedIn("admin");
    expect(await saveReply({ shortcut: "hi", text: "Hello" })).toEqual({ ok: true, data: { shortcut: "hi", by: user.id } });
    expect(revalidated).toEqual([["/settings/canned-replies"]]);
  });

  it("several arguments: each parsed by its own schema, a field named as the form names it; a layout refreshed", async () => {
    const { account } = await signedIn("agent");
    expect(await renameThing("thing_1", { name: "" })).toMatchObject({ ok: false, status: 400, fieldErrors: { name: expect.any(String) } });
    expect(await renameThing(42 as never, { name: "x" })).toMatchObject({ ok: false, status: 400 });
    expect(revalidated).toEqual([]);
    expect(await renameThing("thing_1", { name: "New" })).toEqual({ ok: true, data: { id: "thing_1", name: "New", account: account.id } });
    expect(revalidated).toEqual([["/settings/things", "layout"]]);
  });

  it("a form for anyone: read from its fields, anything but a form refused", async () => {
    const form = new FormData();
    form.set("name", "Sam");
    // No caller: the verbs get only the process's part of their context (the pool and the automation rules).
    expect(await joinWithForm(form)).toEqual({ ok: true, data: { name: "Sam", caller: false, verbs: true } });
    form.set("name", "S");
    expect(await joinWithForm(form)).toMatchObject({ ok: false, status: 400, fieldErrors: { name: expect.any(String) } });
    expect(await joinWithForm({ name: "Sam" } as never)).toMatchObject({ ok: false, status: 400, code: "validation_error" });
  });
});

describe("a server action while the database cannot be reached", () => {
  const previous = getDbHandle();
  afterEach(() => setDbHandle(previous));

  it("answers the outage (503) in words, never as being signed out, and nothing runs", async () => {
    await signedIn("admin");
    // A port nothing listens on: every connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const handle = openPostgres(`postgres://chorus@127.0.0.1:${port}/chorus`, { max: 1 });
    setDbHandle(handle);
    ran.length = 0;
    try {
      const result = await saveReply({ shortcut: "hi", text: "Hello" });
      expect(result).toMatchObject({ ok: false, status: 503, code: "service_unavailable", message: expect.stringMatching(/database/), fieldErrors: {} });
      expect(ran).toEqual([]);
      expect(revalidated).toEqual([]);
    } finally {
      await handle.sql?.end({ timeout: 0 });
    }
  });
});
