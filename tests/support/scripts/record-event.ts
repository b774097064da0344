// Records one event from a separate process, as another server instance would.
import { openPostgres } from "@/db";
import { runAutomations } from "@/lib/automations/engine";
import { recordEvent } from "@/lib/events/record-event";

const [url, accountId, type] = process.argv.slice(2);
const handle = openPostgres(url, { max: 1 });
const event = await handle.db.transaction((tx) => recordEvent({ db: tx, react: runAutomations }, { accountId, type: type as "conversation.created", data: { from: "another process" } }));
console.log(event.id);
await handle.close();
