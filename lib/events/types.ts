export const eventTypes = [
  "conversation.created",
  "conversation.assigned",
  "conversation.unassigned",
  "conversation.closed",
  "conversation.reopened",
  "conversation.rated",
  "message.received",
  "message.sent",
  "message.delivered",
  "message.read",
  "message.failed",
  "user.created",
  "user.updated",
  "user.deleted",
  "user.online",
  "user.offline",
  "webhook.verified",
  "webhook.failed",
  "plant.created",
] as const;

export type EventType = (typeof eventTypes)[number];

/** Event types a webhook may subscribe to (webhook.verified goes only to the webhook being verified). */
export const subscribableEventTypes = eventTypes.filter((t) => t !== "webhook.verified");

export type EventEnvelope = { id: string; type: EventType; created_at: string; data: Record<string, unknown> };
