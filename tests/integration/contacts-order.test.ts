import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as sandboxInboundRoute from "@/app/api/sandbox/inbound/route";
import * as contactsRoute from "@/app/v1/contacts/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import { getDb } from "@/db";
import { contacts } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { nextPhone } from "@/tests/support/messaging";

beforeEach(() => resetRateLimiters());

type Contact = { id: string; name: string | null; phone: string; last_message_at: string | null };

async function customerWrites(token: string, from: string, name: string | undefined, text: string) {
  const res = await call(sandboxInboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token, body: { type: "text", from, text, ...(name ? { name } : {}) } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; conversation_id: string };
}

const list = (token: string, query: string) => call(contactsRoute.GET, { path: `/v1/contacts${query}`, token });

/** Every contact, page by page (`limit` a page), following next_cursor. */
async function walk(token: string, query: string, limit: number) {
  const seen: Contact[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 20; pages++) {
    const res = await list(token, `?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status, res.text).toBe(200);
    seen.push(...res.body.data);
    cursor = res.body.pagination.next_cursor;
    if (!cursor) return seen;
  }
  throw new Error("too many pages");
}

const names = (rows: Contact[]) => rows.map((c) => c.name ?? `+${c.phone}`);

describe("contact list order", () => {
  it("lists whoever wrote last first by default, and by name (accents and case ignored, the unnamed last) with sort=name; pages follow each order", async () => {
    const { account, adminToken } = await createTestAccount();
    const zoe = nextPhone();
    const unnamed = nextPhone();
    await customerWrites(adminToken, zoe, "Zoe", "Hi");
    await customerWrites(adminToken, nextPhone(), "ángel", "Hola");
    await customerWrites(adminToken, unnamed, undefined, "Oi");
    await customerWrites(adminToken, nextPhone(), "Bruno", "Olá");
    // A contact the address book synced, who never wrote: placed by when it was added.
    const now = new Date();
    await getDb().insert(contacts).values({ id: newId("contact", now), accountId: account.id, phone: nextPhone(), name: "Carla", createdAt: now, updatedAt: now });
    // Zoe writes again: she is the latest now.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await customerWrites(adminToken, zoe, "Zoe", "¿Sigue en pie?");

    const byActivity = await list(adminToken, "");
    expect(byActivity.status, byActivity.text).toBe(200);
    expect(names(byActivity.body.data)).toEqual(["Zoe", "Carla", "Bruno", `+${unnamed}`, "ángel"]);
    expect(names(await walk(adminToken, "", 2))).toEqual(names(byActivity.body.data));
    expect(names(await walk(adminToken, "&sort=last_message", 1))).toEqual(names(byActivity.body.data));

    const byName = await list(adminToken, "?sort=name");
    expect(names(byName.body.data)).toEqual(["ángel", "Bruno", "Carla", "Zoe", `+${unnamed}`]);
    expect(names(await walk(adminToken, "&sort=name", 2))).toEqual(names(byName.body.data));
    expect(names(await walk(adminToken, "&sort=name", 1))).toEqual(names(byName.body.data));
    expect(names((await list(adminToken, `?q=${zoe}`)).body.data)).toEqual(["Zoe"]);
  });

  it("a cursor only continues the order it came from; an unknown sort is a 400", async () => {
    const { adminToken } = await createTestAccount();
    for (const name of ["Ana", "Beto", "Caio"]) await customerWrites(adminToken, nextPhone(), name, "Hola");
    const byName = await list(adminToken, "?sort=name&limit=1");
    const byActivity = await list(adminToken, "?limit=1");
    const nameCursor = encodeURIComponent(byName.body.pagination.next_cursor);
    const activityCursor = encodeURIComponent(byActivity.body.pagination.next_cursor);
    for (const query of [`?cursor=${nameCursor}`, `?sort=last_message&cursor=${nameCursor}`, `?sort=name&cursor=${activityCursor}`, `?sort=name&cursor=${nameCursor}x`]) {
      const res = await list(adminToken, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.details[0].path).toBe("cursor");
    }
    const bad = await list(adminToken, "?sort=newest");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("sort");
  });

  it("a deleted conversation no longer counts as the contact's latest message", async () => {
    const { account, adminToken } = await createTestAccount();
    const phone = nextPhone();
    await customerWrites(adminToken, phone, "Dani", "Primero");
    await customerWrites(adminToken, nextPhone(), "Eva", "Después");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const latest = await customerWrites(adminToken, phone, "Dani", "Otra vez");
    expect(names((await list(adminToken, "")).body.data)).toEqual(["Dani", "Eva"]);
    const deleted = await call(conversationRoute.DELETE, { method: "DELETE", path: `/v1/conversations/${latest.conversation_id}`, token: adminToken, params: { id: latest.conversation_id } });
    expect(deleted.status, deleted.text).toBe(204);
    const [dani] = await getDb().select().from(contacts).where(and(eq(contacts.accountId, account.id), eq(contacts.phone, phone)));
    expect(dani).toBeDefined();
    const after = (await list(adminToken, "")).body.data as Contact[];
    expect(names(after)).toEqual(["Eva", "Dani"]);
    expect(after[1].last_message_at).toBeNull();
  });
});
