import { describe, expect, it } from "vitest";
import { parseNotification } from "@/lib/network/cloud";

const metadata = { display_phone_number: "15550100199", phone_number_id: "106540352242922" };
const envelope = (value: Record<string, unknown>) => ({
  object: "whatsapp_business_account",
  entry: [{ id: "102290129340398", changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata, ...value } }] }],
});

describe("business-scoped user ids in the cloud webhook", () => {
  it("reads a message from a customer with a username and no phone number", () => {
    const payload = envelope({
      contacts: [{ profile: { name: "Sheena", username: "@sheena.n" }, user_id: "US.13491208655302741918" }],
      messages: [{ from_user_id: "US.13491208655302741918", id: "wamid.bsuid1", timestamp: "1780000000", type: "text", text: { body: "Hi" } }],
    });
    expect(parseNotification(payload).messages).toEqual([
      {
        networkMessageId: "wamid.bsuid1",
        from: "US.13491208655302741918",
        userId: "US.13491208655302741918",
        username: "@sheena.n",
        name: "Sheena",
        timestamp: new Date(1780000000 * 1000),
        type: "text",
        text: "Hi",
        phoneNumberId: metadata.phone_number_id,
      },
    ]);
  });

  it("keeps the number as the address when both come, with the BSUID of the contact entry", () => {
    const payload = envelope({
      contacts: [{ profile: { name: "Sheena" }, wa_id: "16505551234", user_id: "US.ENT.11815799212886844830" }],
      messages: [{ from: "16505551234", id: "wamid.bsuid2", timestamp: "1780000000", type: "text", text: { body: "Hi" } }],
    });
    expect(parseNotification(payload).messages[0]).toMatchObject({ from: "16505551234", userId: "US.ENT.11815799212886844830" });
  });

  it("skips a message naming nobody, and ignores a BSUID that is not one", () => {
    const payload = envelope({
      messages: [
        { id: "wamid.nobody", timestamp: "1780000000", type: "text", text: { body: "?" } },
        { from_user_id: "not a bsuid", id: "wamid.bad", timestamp: "1780000000", type: "text", text: { body: "?" } },
      ],
    });
    expect(parseNotification(payload).messages).toEqual([]);
  });
});
