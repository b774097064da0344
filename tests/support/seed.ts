import { getDb } from "@/db";
import { contacts, conversations, type Message, messages } from "@/db/schema";
import { newId } from "@/lib/platform/ids";

export const BUSINESS_NUMBER = "15550100199";

/** A contact and a conversation with them, written directly (the data other features produce). */
export async function seedConversation({
  accountId,
  phone = `34${Math.floor(600_000_000 + Math.random() * 99_999_999)}`,
  createdAt = new Date(),
  status = "open",
  assignedTo = null,
  closedAt = null,
}: {
  accountId: string;
  phone?: string;
  createdAt?: Date;
  status?: "open" | "assigned" | "closed";
  assignedTo?: string | null;
  closedAt?: Date | null;
}) {
  const db = getDb();
  const [contact] = await db
    .insert(contacts)
    .values({ id: newId("contact", createdAt), accountId, phone, name: "Customer", createdAt, updatedAt: createdAt })
    .onConflictDoUpdate({ target: [contacts.accountId, contacts.phone], set: { updatedAt: createdAt } })
    .returning();
  const [conversation] = await db
    .insert(conversations)
    .values({ id: newId("conversation", createdAt), accountId, contactId: contact.id, status, assignedTo, assignedAt: assignedTo ? createdAt : null, closedAt, createdAt, updatedAt: createdAt })
    .returning();
  // Seeded with a number: the contact's phone is known.
  return { contact: { ...contact, phone }, conversation };
}

export async function seedMessage({
  accountId,
  conversationId,
  phone,
  direction,
  senderType = direction === "inbound" ? "contact" : "user",
  senderUserId = null,
  text = "hello",
  createdAt = new Date(),
  status,
}: {
  accountId: string;
  conversationId: string;
  phone: string;
  direction: "inbound" | "outbound";
  senderType?: "user" | "contact" | "automation";
  senderUserId?: string | null;
  text?: string | null;
  createdAt?: Date;
  status?: Message["status"];
}): Promise<Message> {
  const [row] = await getDb()
    .insert(messages)
    .values({
      id: newId("message", createdAt),
      accountId,
      conversationId,
      direction,
      fromNumber: direction === "inbound" ? phone : BUSINESS_NUMBER,
      toNumber: direction === "inbound" ? BUSINESS_NUMBER : phone,
      type: "text",
      text,
      status: status ?? (direction === "inbound" ? "received" : "sent"),
      senderType,
      senderUserId,
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  return row;
}
