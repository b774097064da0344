import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { listOnlineUserIds, setPresenceGraceMs } from "@/lib/events/presence";
import { systemContext } from "@/lib/server/context";
import { openEventStream } from "@/tests/support/event-stream";
import { createTestAccount } from "@/tests/support/fixtures";

/** Opens the stream through the route handler; `types` are the event types it sent. */
async function openStream(token: string, query = "") {
  const s = await openEventStream(token, { query });
  return {
    get types() {
      return s.events.map((e) => e.type);
    },
    close: s.close,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What another server process says about its inbox connections (NOTIFY chorus_presence). */
async function otherProcessReports(userId: string, count: number) {
  await getDb().execute(sql`select pg_notify('chorus_presence', ${JSON.stringify({ i: "other-process", u: { [userId]: count } })})`);
  await sleep(100);
}

describe("presence shared by several server processes", () => {
  afterEach(() => setPresenceGraceMs(30_000));

  it("keeps a user online while another process still holds one of their connections", async () => {
    setPresenceGraceMs(100);
    const { account, admin, adminToken } = await createTestAccount();
    const watcher = await openStream(adminToken);
    const inbox = await openStream(adminToken, "?presence=1");
    await sleep(300);
    expect(watcher.types).toEqual(["user.online"]);
    await otherProcessReports(admin.id, 1);
    inbox.close();
    await sleep(500);
    expect(watcher.types).toEqual(["user.online"]);
    expect(await listOnlineUserIds({ accountId: account.id, db: systemContext().db })).toEqual([admin.id]);
    await otherProcessReports(admin.id, 0);
    watcher.close();
  });

  it("does not announce online again when another process already holds a connection", async () => {
    setPresenceGraceMs(100);
    const { admin, adminToken } = await createTestAccount();
    const watcher = await openStream(adminToken);
    await openStream(adminToken, "?presence=1").then((s) => s.close());
    await sleep(400);
    expect(watcher.types).toEqual(["user.online", "user.offline"]);
    await otherProcessReports(admin.id, 1);
    const inbox = await openStream(adminToken, "?presence=1");
    await sleep(300);
    expect(watcher.types).toEqual(["user.online", "user.offline"]);
    inbox.close();
    await otherProcessReports(admin.id, 0);
    // Nobody holds a connection any more: after the grace period the user goes offline once.
    await sleep(300);
    expect(watcher.types).toEqual(["user.online", "user.offline", "user.offline"]);
    watcher.close();
  });
});
