import { describe, expect, it } from "vitest";
import { parseNotification } from "@/lib/network/cloud";

// One notification may batch every kind of change the network sends; the one reader returns each
// in its own list, in the order the network sent them, and skips only what it cannot read.
describe("parseNotification reads every change field of a notification", () => {
  const metadata = { display_phone_number: "15550001111", phone_number_id: "106540352242922" };
  const payload = {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata,
              contacts: [{ profile: { name: "Ana" }, wa_id: "15557654321" }],
              messages: [
                { from: "15557654321", id: "wamid.in1", timestamp: "1795649000", type: "text", text: { body: "Hola" } },
                { from: "15557654321", id: "wamid.edit1", timestamp: "1795649001", type: "edit", edit: { original_message_id: "wamid.in0", message: { type: "text", text: { body: "Hola!" } } } },
              ],
              statuses: [{ id: "wamid.out1", status: "read", timestamp: "1795649002", recipient_id: "15557654321" }],
            },
          },
          { field: "smb_message_echoes", value: { metadata, message_echoes: [{ id: "wamid.echo1", to: "15557654321", timestamp: "1795649003", type: "text", text: { body: "From the phone" } }] } },
          { field: "history", value: { metadata, history: [{ threads: [{ id: "15557654321", messages: [{ from: "15557654321", id: "wamid.h1", timestamp: "1795640000", type: "text", text: { body: "Earlier" } }] }] }] } },
          { field: "smb_app_state_sync", value: { metadata, state_sync: [{ type: "contact", action: "add", contact: { full_name: "Ana López", phone_number: "+15557654321" } }] } },
          { field: "message_template_status_update", value: { event: "APPROVED", message_template_id: 987, message_template_name: "order_ready", message_template_language: "es", reason: "NONE" } },
          { field: "phone_number_quality_update", value: { display_phone_number: "+1 555 000 1111", event: "upgrade", current_limit: "tier_1k" } },
          { field: "account_update", value: { event: "VERIFIED_ACCOUNT" } },
        ],
      },
    ],
  };

  it("returns each change in its own list", () => {
    const notification = parseNotification(payload);
    expect(notification.phoneNumberId).toBe("106540352242922");
    expect(notification.messages.map((m) => [m.networkMessageId, m.type, m.text, m.name])).toEqual([["wamid.in1", "text", "Hola", "Ana"]]);
    expect(notification.revisions).toMatchObject([{ kind: "edit", networkMessageId: "wamid.in0", revisionId: "wamid.edit1", text: "Hola!" }]);
    expect(notification.statuses).toMatchObject([{ networkMessageId: "wamid.out1", status: "read" }]);
    expect(notification.echoes).toMatchObject([{ networkMessageId: "wamid.echo1", to: "15557654321", type: "text", text: "From the phone" }]);
    expect(notification.coexistence).toMatchObject([
      { kind: "history", phoneNumberId: "106540352242922", message: { thread: "15557654321", direction: "inbound", message: { networkMessageId: "wamid.h1" } } },
      { kind: "contact", phoneNumberId: "106540352242922", phone: "15557654321", name: "Ana López" },
    ]);
    expect(notification.templateStatuses).toEqual([{ businessAccountId: "102290129340398", networkTemplateId: "987", name: "order_ready", language: "es", event: "APPROVED" }]);
    expect(notification.qualityUpdates).toEqual([{ businessAccountId: "102290129340398", displayPhoneNumber: "15550001111", event: "UPGRADE", currentLimit: "TIER_1K" }]);
  });

  it("skips a malformed change and keeps the others of the batch", () => {
    const broken = structuredClone(payload);
    broken.entry[0].changes.splice(1, 0, { field: "messages", value: "not an object" } as never, null as never);
    const notification = parseNotification(broken);
    expect(notification.messages).toHaveLength(1);
    expect(notification.echoes).toHaveLength(1);
    expect(notification.qualityUpdates).toHaveLength(1);
  });

  it("refuses a body that is not a notification envelope", () => {
    expect(() => parseNotification({ entry: "nope" })).toThrow();
  });
});
