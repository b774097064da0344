// One server process's background work on the campaign benchmark's embedded database (its
// folder in PGLITE_DIR), run by bench/campaigns.ts, which kills it with SIGKILL mid-campaign
// and starts another. It also plays an agent: every AGENT_EVERY_MS it sends a text through
// POST /v1/messages stamped with the time it was asked for, so the other process can time
// when the network received it. It reports the campaign's status over IPC:
//   → { type: "status", status, db, uptimeMs }   every second (db: how long the database was held, and by what)
//   → { type: "probe", asked, answeredMs, status }  each agent send, once POST /v1/messages answers
//   ← { type: "notify", id, rawBody, signature }  a notification of the network (its statuses), posted to /api/network/webhook
//   → { type: "notified", id, status, applied }  how the server answered it, and how many of its statuses moved a message
//   ← { type: "stop" }                        finishes the work in flight, closes the database
import { getDbHandle, closeDb } from "@/db";
import { WorkerPglite } from "@/db/pglite-client";
import { POST as sendMessage } from "@/app/v1/messages/route";
import { POST as receiveNotification } from "@/app/api/network/webhook/route";
import { eq } from "drizzle-orm";
import { getDb } from "@/db";
import { campaigns } from "@/db/schema";
import { startBackgroundWork, stopBackgroundWork } from "@/lib/server/background";

const { CAMPAIGN_ID, TOKEN, AGENT_TO } = process.env as Record<string, string>;
const AGENT_EVERY_MS = 400;

async function main() {
  await getDbHandle().migrate();
  await startBackgroundWork();
  let stopping = false;
  const agent = setInterval(() => {
    const asked = Date.now();
    const req = new Request("http://localhost/v1/messages", {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ to: AGENT_TO, type: "text", text: `agent probe ${asked}` }),
    });
    void sendMessage(req, { params: Promise.resolve({}) })
      .then(async (res) => {
        await res.text();
        return res.status;
      })
      .catch(() => 0)
      .then((status) => process.send?.({ type: "probe", asked, answeredMs: Date.now() - asked, status }));
  }, AGENT_EVERY_MS);
  const report = setInterval(async () => {
    if (stopping) return;
    const [campaign] = await getDb().select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, CAMPAIGN_ID));
    const { pglite } = getDbHandle();
    const db = pglite instanceof WorkerPglite ? pglite.usage() : undefined;
    process.send?.({ type: "status", status: campaign?.status, db, uptimeMs: Math.round(performance.now()) });
  }, 1000);
  process.on("message", async (message: { type: string; id?: number; rawBody?: string; signature?: string }) => {
    if (message.type === "notify") {
      const req = new Request("http://localhost/api/network/webhook", {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": message.signature! },
        body: message.rawBody,
      });
      const { status, applied } = await receiveNotification(req, { params: Promise.resolve({}) })
        .then(async (res) => {
          const body = (await res.json().catch(() => ({}))) as { statuses?: number };
          return { status: res.status, applied: body.statuses ?? 0 };
        })
        .catch(() => ({ status: 0, applied: 0 }));
      if (!stopping) process.send?.({ type: "notified", id: message.id, status, applied });
      return;
    }
    if (message.type !== "stop") return;
    stopping = true;
    clearInterval(agent);
    clearInterval(report);
    await stopBackgroundWork();
    await closeDb();
    process.exit(0);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
