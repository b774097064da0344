export const eventTypes = [
  "conversation.created",
  "conversation.assigned",
  "conversation.unassigned",
  "conversation.closed",
  "conversation.reopened",
  "conversation.snoozed",
  "conversation.rated",
  "message.received",
  "message.sent",
  "message.delivered",
  "message.read",
  "message.failed",
  "message.updated",
  "message.deleted",
  "note.created",
  "user.created",
  "user.updated",
  "user.deleted",
  "user.online",
  "user.offline",
  "webhook.verified",
  "webhook.failed",
  "plant.created",
  "agent.typing",
  "contact.updated",
  "template.updated",
  "automation.triggered",
  "sla.warning",
  "sla.breached",
] as const;

export type EventType = (typeof eventTypes)[number];

/** Events for the live stream only, never delivered to webhooks: they matter only while they happen. */
export const streamOnlyEventTypes: readonly EventType[] = ["agent.typing"];

/**
 * Event types a webhook may subscribe to (webhook.verified goes only to the webhook being
 * verified; stream-only events to no webhook).
 */
export const subscribableEventTypes = eventTypes.filter((t) => t !== "webhook.verified" && !streamOnlyEventTypes.includes(t));

export type EventEnvelope = { id: string; type: EventType; created_at: string; data: Record<string, unknown> };
