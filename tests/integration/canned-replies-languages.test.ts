import { describe, expect, it } from "vitest";
import * as cannedReplyRoute from "@/app/v1/canned-replies/[id]/route";
import * as cannedRepliesRoute from "@/app/v1/canned-replies/route";
import { shortcutSearchKey } from "@/lib/canned-replies/schemas";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";

const create = (token: string, body: unknown) => call(cannedRepliesRoute.POST, { method: "POST", path: "/v1/canned-replies", token, body });
const patch = (token: string, id: string, body: unknown) => call(cannedReplyRoute.PATCH, { method: "PATCH", path: `/v1/canned-replies/${id}`, token, body, params: { id } });

describe("canned-reply shortcuts in the team's own language", () => {
  it("accepts lower-case letters of any language, with their accents, and keeps them as written", async () => {
    const { adminToken } = await createTestAccount();
    for (const shortcut of ["devolución", "ação", "größe", "配送", "доставка", "entrega_2-días"]) {
      const res = await create(adminToken, { shortcut, text: `Texto de ${shortcut}` });
      expect(res.status, shortcut).toBe(201);
      expect(res.body.shortcut).toBe(shortcut);
    }
    const renamed = await create(adminToken, { shortcut: "envio", text: "Enviamos mañana." });
    expect((await patch(adminToken, renamed.body.id, { shortcut: "envío" })).body.shortcut).toBe("envío");
  });

  it("the same word typed with a combining accent is the same shortcut (409), and 32 letters is the limit whatever their bytes", async () => {
    const { adminToken } = await createTestAccount();
    expect((await create(adminToken, { shortcut: "devolución", text: "x" })).status).toBe(201);
    const decomposed = await create(adminToken, { shortcut: "devolucio\u0301n", text: "y" });
    expect(decomposed.status).toBe(409);
    expect((await create(adminToken, { shortcut: "ç".repeat(32), text: "x" })).status).toBe(201);
    expect((await create(adminToken, { shortcut: "ñ".repeat(33), text: "x" })).status).toBe(400);
  });

  it("still refuses capitals, spaces, punctuation, a leading accent mark and the slash itself", async () => {
    const { adminToken } = await createTestAccount();
    for (const shortcut of ["Devolución", "AÇÃO", "dev olución", "/devolución", "¿qué?", "\u0301a", "emoji😀"]) {
      const res = await create(adminToken, { shortcut, text: "x" });
      expect(res.status, shortcut).toBe(400);
      expect(res.body.error).toMatchObject({ code: "validation_error", details: [{ path: "shortcut" }] });
    }
  });

  it("the composer compares shortcuts without case or accents", () => {
    expect(shortcutSearchKey("devolución").startsWith(shortcutSearchKey("Devolucio"))).toBe(true);
    expect(shortcutSearchKey("ação")).toBe("acao");
  });
});
