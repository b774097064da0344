import "./bench/env";
import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { searchConversations } from "@/lib/search/search";
import { seedSearchData, sizes, vocabulary } from "./bench/search";
import { createBenchAccount, openBenchDatabase } from "./bench/support";
await openBenchDatabase();
const { account, user } = await createBenchAccount();
const words = vocabulary();
await seedSearchData({ accountId: account.id, userId: user.id, size: sizes(false), words });
const db = getDb();
const qs = ["blomanu", "gomez", "ANA", "123456", words[100].normalize("NFD").replace(/\p{M}/gu, ""), "perez"];
for (let round = 0; round < 3; round++) for (const q of qs) {
  const t = performance.now();
  const r = await searchConversations({ ctx: { accountId: account.id }, q, limit: 20 });
  console.log(q, r.data.length, Math.round(performance.now() - t));
}
const t = performance.now(); await db.execute(sql`select 1`); console.log("select 1", performance.now() - t);
