import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { contactDetailOutput } from "@/lib/contacts/schemas";
import { conversationAssignmentOutput, conversationOutput, conversationSummaryOutput, slaStateOutput } from "@/lib/conversations/schemas";
import { type EventType, streamOnlyEventTypes } from "@/lib/events/types";
import { messageOutput } from "@/lib/messages/schemas";
import { noteOutput } from "@/lib/notes/schemas";
import { newPlantSchema } from "@/lib/plants/schemas";
import { templateOutput } from "@/lib/templates/schemas";
import { userOutput, userRefOutput } from "@/lib/auth/user-identity";
import { idOf, operationsFor, timestamp, type V1Domain } from "../v1-common";
import { webhookDeliveryDescription, webhookDeliveryHeaders } from "../webhook-headers";
import { eventTypeSchema } from "./webhooks";

const tag = { name: "Events", description: "Every change as an event: streamed to the browser and integrators, and delivered to webhooks." };
const op = operationsFor(tag.name);

const byUser = (conversation: z.ZodType) => z.object({ conversation, user: userRefOutput });
const message = z.object({ message: messageOutput });
const user = z.object({ user: userOutput });

/**
 * The `data` of each event type, as the domain verbs record it (the contract test checks
 * every recorded event against these). plant.created is delivered as the NewPlant itself.
 */
const eventDataSchemas: Record<EventType, { summary: string; description?: string; data: z.ZodType }> = {
  "conversation.created": {
    summary: "A conversation started",
    description: "The first message with a new contact, or a send to a number without an open conversation.",
    data: z.object({ conversation: conversationOutput }),
  },
  "conversation.assigned": {
    summary: "A conversation was assigned",
    description: "`user` is the assignee.",
    data: z.object({ conversation: conversationAssignmentOutput, user: userRefOutput }),
  },
  "conversation.unassigned": {
    summary: "A conversation was unassigned",
    description: "By a user, or because its assignee was deleted (then `user` is who deleted them), or handed to the whole team by the answer assistant (no `user`).",
    data: z.object({ conversation: conversationOutput, user: userRefOutput.optional() }),
  },
  "conversation.closed": { summary: "A conversation was closed", data: byUser(conversationOutput) },
  "conversation.reopened": {
    summary: "A conversation was reopened",
    description: "By a user (`user` is who), by a message sent into it, by a customer's message or the end of a snooze (no `user`).",
    data: z.object({ conversation: conversationOutput, user: userRefOutput.optional() }),
  },
  "conversation.snoozed": {
    summary: "A conversation was snoozed",
    description: "`conversation.snoozed_until` is when it wakes (then `conversation.reopened`, without `user`); `user` is who snoozed it.",
    data: z.object({ conversation: conversationOutput, user: userRefOutput }),
  },
  "contact.updated": { summary: "A contact changed", description: "Name, email, notes, attributes or blocked.", data: z.object({ contact: contactDetailOutput }) },
  "conversation.rated": {
    summary: "A customer answered the satisfaction survey",
    description: "The customer chose a score in the survey sent on close, or replied with a single digit 1–5 within 24 h. `conversation.csat` holds the score; a conversation is rated once.",
    data: z.object({ conversation: conversationOutput }),
  },
  "message.received": { summary: "A customer's message arrived", data: z.object({ message: messageOutput, conversation: conversationSummaryOutput }) },
  "message.sent": {
    summary: "The network accepted a message",
    description: "Also follows a `message.failed` with `error.code` `interrupted` (a send cut short by a restart, not known to have reached the network) when the network's status shows it took the message.",
    data: message,
  },
  "message.delivered": { summary: "A message reached the customer's phone", data: message },
  "message.read": { summary: "The customer read a message", data: message },
  "message.failed": {
    summary: "A message could not be sent",
    description: "`message.error` carries the network's error. With `error.code` `interrupted` the send was cut short by a restart and the message is not sent again; a `message.sent` follows if the network reports it took it.",
    data: message,
  },
  "message.updated": {
    summary: "The customer edited a message",
    description: "`message.text` (or `message.media.caption`) is the new version and `message.edited_at` when it changed. The earlier words are kept in the message's `history`, shown to admins only by `GET /v1/messages/{id}`.",
    data: message,
  },
  "message.deleted": {
    summary: "A message was deleted",
    description: "By the customer (deleted for everyone on their phone) or by `DELETE /v1/messages/{id}`: `message.deleted_at` is set and its text, file and content are gone. What the customer deleted stays in the message's `history` for admins.",
    data: message,
  },
  "user.created": { summary: "A user was created", data: user },
  "user.updated": { summary: "A user changed", data: user },
  "user.deleted": { summary: "A user was deleted", data: user },
  "user.online": { summary: "A user opened the inbox", data: user },
  "user.offline": { summary: "A user's last inbox connection closed (after 30 s)", data: user },
  "webhook.verified": {
    summary: "Verification challenge",
    description: "Sent only to the webhook being verified, on registration and by `POST /v1/webhooks/{id}/verify`.",
    data: z.object({
      webhook_id: idOf("webhook"),
      challenge: z.string().meta({ description: "Answer 200 with exactly this text within 10 s." }),
    }),
  },
  "webhook.failed": {
    summary: "A delivery exhausted its retries",
    description: "Sent to the account's other webhooks subscribed to it (never to the failing one).",
    data: z.object({
      webhook_id: idOf("webhook", "The webhook whose delivery failed."),
      event_id: idOf("event", "The event that could not be delivered."),
      delivery_id: idOf("delivery"),
      attempts: z.int().min(1),
      last_error: z.string().meta({ description: "The last attempt's error." }),
    }),
  },
  "plant.created": { summary: "A plant was added to the plant store (New Plant)", data: newPlantSchema },
  "note.created": {
    summary: "A teammate added an internal note",
    description: "Notes are never sent to the customer; `note.mentions` lists the users notified.",
    data: z.object({ note: noteOutput, conversation: conversationSummaryOutput }),
  },
  "agent.typing": {
    summary: "A teammate is writing a reply",
    description:
      "Stream only (`GET /v1/events/stream`): never delivered to webhooks and not a choice of a webhook's `events`. Show “… is replying” for 6 s after the last one.",
    data: z.object({ conversation_id: idOf("conversation"), user: userRefOutput }),
  },
  "template.updated": {
    summary: "A message template's review status changed",
    description: "The network (or the sandbox, about 2 s after creation) approved or rejected it. Needs `config:read` to stream.",
    data: z.object({ template: templateOutput }),
  },
  "automation.triggered": {
    summary: "An automation rule ran its `emit_webhook` action",
    description:
      "Recorded in the transaction of the event the rule reacted to (`trigger`), after the rule's earlier actions: `conversation` shows their effect. Events recorded by a rule's actions never trigger rules again.",
    data: z.object({
      automation: z.object({ id: idOf("automation"), name: z.string() }),
      trigger: z.object({ id: idOf("event"), type: z.string() }).nullable(),
      conversation: conversationOutput,
    }),
  },
  "sla.warning": {
    summary: "An SLA target is near",
    description: "80 % of the running target's time (business hours only, for such policies) has passed without the answer or close it waits for. `sla` is the clock (`status: warning`); the assignee, or the admins while unassigned, are notified in the app.",
    data: z.object({ conversation: conversationOutput, sla: slaStateOutput }),
  },
  "sla.breached": {
    summary: "An SLA target was missed",
    description: "The running target is due without the answer or close it waited for. Recorded once per target; reports count it against the policy and the assignee at that moment.",
    data: z.object({ conversation: conversationOutput, sla: slaStateOutput }),
  },
};

export const eventEnvelopeSchema = z
  .object({
    id: idOf("event", "The event id (`evt_...`), the same on every delivery attempt."),
    type: eventTypeSchema,
    created_at: timestamp(),
    data: z.record(z.string(), z.unknown()).meta({ description: "Depends on `type`; see the webhooks of this document." }),
  })
  .meta({ id: "EventEnvelope", description: "Every event, as streamed and as delivered to webhooks (except `plant.created`, delivered as the NewPlant)." });

const envelopeOf = (type: EventType, data: z.ZodType) =>
  z.object({ id: idOf("event"), type: z.literal(type), created_at: timestamp(), data });

function eventWebhooks(): ZodOpenApiPathsObject {
  const webhooks: ZodOpenApiPathsObject = {};
  for (const [type, { summary, description, data }] of Object.entries(eventDataSchemas) as [EventType, (typeof eventDataSchemas)[EventType]][]) {
    const plant = type === "plant.created";
    webhooks[type] = {
      post: {
        operationId: `event_${type.replace(".", "_")}`,
        tags: [tag.name],
        summary: `${type}: ${summary}`,
        description: [
          description,
          plant ? "The body is the NewPlant itself, not an envelope (the plant store's New Plant webhook)." : `The body is the event envelope with \`type\` = \`${type}\`.`,
          type === "webhook.verified"
            ? "Answer 200 with exactly `data.challenge` as the body within 10 s to make the webhook `active`."
            : streamOnlyEventTypes.includes(type)
              ? undefined
              : webhookDeliveryDescription,
        ]
          .filter(Boolean)
          .join(" "),
        security: [],
        requestParams: { header: webhookDeliveryHeaders },
        requestBody: { required: true, content: { "application/json": { schema: plant ? newPlantSchema : envelopeOf(type, data) } } },
        responses:
          type === "webhook.verified"
            ? { "200": { description: "The challenge, verbatim.", content: { "text/plain": { schema: z.string() } } } }
            : { "2XX": { description: "Any 2xx within 30 s acknowledges the delivery." } },
      },
    };
  }
  return webhooks;
}

export const eventsDomain: V1Domain = {
  tag,
  paths: {
    "/v1/events/stream": {
      get: op({
        operationId: "streamEvents",
        summary: "Stream events (Server-Sent Events)",
        description: "Every event envelope the token may read (filtered by its scopes), as `text/event-stream`: each event's `id:` is the event id and its `data:` the JSON envelope; the comment `: connected` marks the moment the stream is live (every event committed after it is sent, after any replay); other comment lines are heartbeats (every 15 s). Reconnect with `Last-Event-ID` (or `?last_event_id=`) to replay what was missed, then continue live. The WebSocket `GET /v1/ws` sends the same envelopes as text messages and `{\"type\":\"ready\"}` once live (events committed between its upgrade and `ready` are replayed before it).",
        access: { auth: "any" },
        headers: z.object({ "Last-Event-ID": idOf("event", "Resume after this event.").optional() }),
        query: z.object({
          last_event_id: idOf("event", "Same as the `Last-Event-ID` header, for clients that cannot set headers.").optional(),
          presence: z.enum(["1"]).optional().meta({ description: "`1` from the inbox: a session counts as online while connected." }),
        }),
        success: {
          status: "200",
          description: "An endless stream of events.",
          content: { "text/event-stream": { schema: z.string().meta({ description: "Server-Sent Events; each `data:` line is an EventEnvelope." }) } },
        },
      }),
    },
  },
  webhooks: eventWebhooks(),
};
