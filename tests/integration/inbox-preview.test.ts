import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { conversations } from "@/db/schema";
import { sendAutomatedMessage } from "@/lib/messages/send-message";
import { createTestAccount } from "@/tests/support/fixtures";
import { seedConversation } from "@/tests/support/messaging";

describe("inbox preview", () => {
  it("keeps the customer's last words under an automatic answer", async () => {
    const { account } = await createTestAccount();
    const { conversation, contact } = await seedConversation({ accountId: account.id });
    await getDb().update(conversations).set({ lastMessagePreview: "Are you open on Sunday?", unreadCount: 1 }).where(eq(conversations.id, conversation.id));

    await getDb().transaction((tx) => sendAutomatedMessage({ tx, accountId: account.id, conversationId: conversation.id, to: contact.phone, text: "We are closed now; we open Monday at 09:00." }));

    const [row] = await getDb().select().from(conversations).where(eq(conversations.id, conversation.id));
    expect(row.lastMessagePreview).toBe("Are you open on Sunday?");
    expect(row.unreadCount).toBe(1);
    expect(row.lastMessageAt).not.toBeNull();
  });
});
