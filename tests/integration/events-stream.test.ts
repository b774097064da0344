import { afterEach, describe, expect, it } from "vitest";
import * as stream from "@/app/v1/events/stream/route";
import * as tokens from "@/app/v1/auth/tokens/route";
import { spawnSync } from "node:child_process";
import { getDb, getDbHandle } from "@/db";
import { recordEvent } from "@/lib/events/record-event";
import { listOnlineUserIds, setPresenceGraceMs } from "@/lib/events/presence";
import type { EventType } from "@/lib/events/types";
import { call } from "@/tests/support/api";
import { openEventStream } from "@/tests/support/event-stream";
import { createTestAccount } from "@/tests/support/fixtures";
import { systemContext } from "@/lib/server/context";

const openStream = openEventStream;

const emit = (accountId: string, type: EventType, data: Record<string, unknown> = {}) =>
  getDb().transaction((tx) => recordEvent({ ...systemContext(), db: tx }, { accountId, type, data }));

async function apiToken(sessionToken: string, permissions: string[]) {
  const res = await call(tokens.POST, {
    method: "POST",
    path: "/v1/auth/tokens",
    token: sessionToken,
    body: { name: "stream", permissions, expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString() },
  });
  return res.body.token as string;
}

describe("GET /v1/events/stream", () => {
  afterEach(() => setPresenceGraceMs(30_000));

  it("delivers committed events of the account live, and nothing of other accounts", async () => {
    const { account, adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const s = await openStream(adminToken);
    await emit(other.account.id, "conversation.created", { n: 0 });
    const first = await emit(account.id, "conversation.created", { n: 1 });
    const second = await emit(account.id, "message.received", { n: 2 });
    const got = await s.waitFor(2);
    s.close();
    expect(got.map((e) => e.id)).toEqual([first.id, second.id]);
    expect(got[0]).toEqual(first);
  });

  it("filters events by the token's scopes", async () => {
    const { account, adminToken } = await createTestAccount();
    const messagesOnly = await apiToken(adminToken, ["messages:read"]);
    const s = await openStream(messagesOnly);
    await emit(account.id, "conversation.created");
    await emit(account.id, "user.created");
    const message = await emit(account.id, "message.received");
    const plant = await emit(account.id, "plant.created");
    const got = await s.waitFor(2);
    await new Promise((r) => setTimeout(r, 200));
    s.close();
    expect(got.map((e) => e.id)).toEqual([message.id, plant.id]);
  });

  it("resumes after Last-Event-ID, then continues live without duplicates", async () => {
    const { account, adminToken } = await createTestAccount();
    const a = await emit(account.id, "conversation.created", { n: "a" });
    const b = await emit(account.id, "conversation.assigned", { n: "b" });
    const c = await emit(account.id, "conversation.closed", { n: "c" });
    const s = await openStream(adminToken, { lastEventId: a.id });
    await s.waitFor(2);
    const d = await emit(account.id, "conversation.reopened", { n: "d" });
    const got = await s.waitFor(3);
    s.close();
    expect(got.map((e) => e.id)).toEqual([b.id, c.id, d.id]);
  });

  it("never streams webhook.verified, live or on a Last-Event-ID replay", async () => {
    const { account, adminToken } = await createTestAccount();
    const live = await openStream(adminToken);
    await emit(account.id, "webhook.verified", { webhook_id: "wh_live", challenge: "secret-challenge-live" });
    const after = await emit(account.id, "webhook.failed", { webhook_id: "wh_live" });
    await live.waitFor(1);
    await new Promise((r) => setTimeout(r, 200));
    live.close();
    expect(live.events.map((e) => e.id)).toEqual([after.id]);
    expect(live.raw.join("\n")).not.toContain("secret-challenge-live");

    const before = await emit(account.id, "conversation.created", { n: "before" });
    await emit(account.id, "webhook.verified", { webhook_id: "wh_replay", challenge: "secret-challenge-replay" });
    const next = await emit(account.id, "conversation.closed", { n: "next" });
    const replay = await openStream(adminToken, { lastEventId: before.id });
    await replay.waitFor(1);
    await new Promise((r) => setTimeout(r, 200));
    replay.close();
    expect(replay.events.map((e) => e.id)).toEqual([next.id]);
    expect(replay.raw.join("\n")).not.toContain("secret-challenge-replay");
  });

  it("refuses a malformed Last-Event-ID with a 400 naming it", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(stream.GET, { path: "/v1/events/stream", token: adminToken, headers: { "last-event-id": "42; drop table" } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("Last-Event-ID");
  });

  it("requires a valid token", async () => {
    const res = await call(stream.GET, { path: "/v1/events/stream" });
    expect(res.status).toBe(401);
  });

  it.runIf(process.env.TEST_DB === "postgres")("receives events committed by another server process (LISTEN/NOTIFY)", async () => {
    const { account, adminToken } = await createTestAccount();
    const s = await openStream(adminToken);
    const url = (getDbHandle().sql as unknown as { options: { host: string[]; port: number[]; database: string; user: string; pass: string } }).options;
    const dsn = `postgres://${url.user}:${encodeURIComponent(url.pass)}@${url.host[0]}:${url.port[0]}/${url.database}`;
    const child = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "tests/support/scripts/record-event.ts", dsn, account.id, "conversation.created"], { encoding: "utf8" });
    expect(child.status, child.stderr).toBe(0);
    const got = await s.waitFor(1);
    s.close();
    expect(got.map((e) => e.id)).toEqual([child.stdout.trim()]);
    expect(got[0].data).toEqual({ from: "another process" });
  });

  it("announces presence for signed-in sessions: online on the first connection, offline after the grace period", async () => {
    setPresenceGraceMs(100);
    const { account, admin, adminToken } = await createTestAccount();
    const watcher = await openStream(adminToken);
    const inbox1 = await openStream(adminToken, { query: "?presence=1" });
    const inbox2 = await openStream(adminToken, { query: "?presence=1" });
    await watcher.waitFor(1);
    expect(await listOnlineUserIds({ accountId: account.id, db: systemContext().db })).toEqual([admin.id]);
    inbox1.close();
    await new Promise((r) => setTimeout(r, 300));
    expect(watcher.events.map((e) => e.type)).toEqual(["user.online"]);
    inbox2.close();
    await watcher.waitFor(2);
    watcher.close();
    expect(watcher.events.map((e) => e.type)).toEqual(["user.online", "user.offline"]);
    expect(watcher.events[1].data).toMatchObject({ user: { id: admin.id } });
    expect(await listOnlineUserIds({ accountId: account.id, db: systemContext().db })).toEqual([]);
  });
});
