import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as searchRoute from "@/app/v1/search/route";
import { getDb } from "@/db";
import { contacts } from "@/db/schema";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { seedConversation, seedMessage } from "@/tests/support/seed";

// Search reads the newest messages first, in windows that widen; the result must be the same as
// ranking every match: the customer first, then each conversation once, by its newest match,
// whether that match is an hour, ten days or two years old, page after page.

let token: string;
const ids: Record<string, string> = {};
const ago = (days: number) => new Date(Date.now() - days * 86_400_000);

beforeAll(async () => {
  const created = await createTestAccount();
  const accountId = created.account.id;
  token = created.adminToken;
  async function conversation(key: string, phone: string, matches: { daysAgo: number; text: string }[]) {
    const seeded = await seedConversation({ accountId, phone, createdAt: ago(800) });
    ids[key] = seeded.conversation.id;
    for (const m of matches) {
      await seedMessage({ accountId, conversationId: seeded.conversation.id, phone, direction: "inbound", text: m.text, createdAt: ago(m.daysAgo) });
    }
    return seeded;
  }
  await conversation("hour", "5511911110001", [{ daysAgo: 0.04, text: "¿Dónde está la maceta azul?" }]);
  // Its newest match is 10 days old; a newer message does not match.
  await conversation("tenDays", "5511911110002", [
    { daysAgo: 10, text: "La maceta llegó rota" },
    { daysAgo: 0.01, text: "Gracias" },
  ]);
  await conversation("hundredDays", "5511911110003", [
    { daysAgo: 600, text: "Quiero una maceta" },
    { daysAgo: 100, text: "Otra maceta, por favor" },
  ]);
  await conversation("twoYears", "5511911110004", [{ daysAgo: 700, text: "maceta grande" }]);
  const named = await conversation("named", "5511911110005", [{ daysAgo: 300, text: "hola" }]);
  await getDb().update(contacts).set({ name: "Maceta Verde SRL" }).where(eq(contacts.id, named.contact.id));
});

describe("search over time", () => {
  it("ranks the customer first, then conversations by their newest match, however old, page after page", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const res = await call(searchRoute.GET, { path: `/v1/search?q=maceta&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, token });
      expect(res.status).toBe(200);
      const body = res.body as { data: { conversation: { id: string } }[]; pagination: { next_cursor: string | null } };
      seen.push(...body.data.map((hit) => hit.conversation.id));
      cursor = body.pagination.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual([ids.named, ids.hour, ids.tenDays, ids.hundredDays, ids.twoYears]);
  });

  it("finds a word that only a two-year-old message has", async () => {
    const res = await call(searchRoute.GET, { path: "/v1/search?q=grande", token });
    expect((res.body as { data: { conversation: { id: string }; match: { field: string } }[] }).data.map((hit) => [hit.conversation.id, hit.match.field])).toEqual([[ids.twoYears, "message"]]);
  });
});
