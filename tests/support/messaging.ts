import { and, count, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { contacts, conversations, events, jobs, media, messages } from "@/db/schema";
import { newId } from "@/lib/platform/ids";

let phoneSeq = 0;
/** A distinct, valid-looking customer number per call. */
export function nextPhone() {
  phoneSeq += 1;
  return `4477009${String(phoneSeq).padStart(5, "0")}`;
}

/** Inserts a contact and a conversation directly, for list and transition tests. */
export async function seedConversation({
  accountId,
  phone = nextPhone(),
  status = "open",
  assignedTo = null,
  at = new Date(),
}: {
  accountId: string;
  phone?: string;
  status?: "open" | "assigned" | "closed";
  assignedTo?: string | null;
  at?: Date;
}) {
  const db = getDb();
  const [contact] = await db.insert(contacts).values({ id: newId("contact", at), accountId, phone, name: null, createdAt: at, updatedAt: at }).returning();
  const [conversation] = await db
    .insert(conversations)
    .values({
      id: newId("conversation", at),
      accountId,
      contactId: contact.id,
      status,
      assignedTo,
      assignedAt: assignedTo ? at : null,
      closedAt: status === "closed" ? at : null,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  // Seeded with a number: the contact's phone is known.
  return { contact: { ...contact, phone }, conversation };
}

export async function countRows(accountId?: string) {
  const db = getDb();
  const n = async (table: typeof messages | typeof conversations | typeof contacts | typeof media | typeof events) =>
    (await db.select({ n: count() }).from(table).where(accountId ? eq(table.accountId, accountId) : undefined))[0].n;
  const jobCount = (await db.select({ n: count() }).from(jobs).where(accountId ? eq(jobs.accountId, accountId) : undefined))[0].n;
  return {
    messages: await n(messages),
    conversations: await n(conversations),
    contacts: await n(contacts),
    media: await n(media),
    events: await n(events),
    jobs: jobCount,
  };
}

export async function eventsOf(accountId: string, type?: string) {
  return getDb()
    .select()
    .from(events)
    .where(and(eq(events.accountId, accountId), type ? eq(events.type, type) : undefined))
    .orderBy(events.createdAt, events.id);
}

// Minimal files whose first bytes match their declared types.
export const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(32, 1)]);
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32, 2)]);
export const PDF = Buffer.from("%PDF-1.7\n% a small test document\n%%EOF\n");
export const OGG = Buffer.concat([Buffer.from("OggS"), Buffer.alloc(32, 3)]);
export const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42"), Buffer.alloc(32, 4)]);
