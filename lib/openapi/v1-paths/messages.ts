import { z } from "zod";
import { messageOutput, sendMessageInput } from "@/lib/messages/schemas";
import { polishInput, polishOutput } from "@/lib/polish/schemas";
import { suggestionsInput, suggestionsOutput } from "@/lib/profile/schemas";
import { operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

const tag = { name: "Messages", description: "Send and read messages; media travel as Base64." };
const op = operationsFor(tag.name);

const byId = pathIds({ id: "message" });

export const messagesDomain: V1Domain = {
  tag,
  paths: {
    "/v1/conversations/{id}/messages": {
      get: op({
        operationId: "listConversationMessages",
        summary: "List a conversation's messages",
        description: "Newest first.",
        access: { scope: "messages:read" },
        path: pathIds({ id: "conversation" }),
        query: paginationQuery,
        success: { status: "200", description: "A page of messages.", schema: page(messageOutput) },
      }),
    },
    "/v1/messages": {
      post: op({
        operationId: "sendMessage",
        summary: "Send a message",
        description: [
          "Stored as `queued` with you as its sender, then sent by the background runner: `message.sent`, later `message.delivered` and `message.read`, or `message.failed`.",
          "The recipient is exactly one of `to` (a number), `to_user_id` (a business-scoped user id, for a customer known without a number) or `conversation_id` (none or two is a 400). With `conversation_id` the message goes to that conversation's customer, by number when known, else by business-scoped user id (a closed conversation is reopened); an unknown `conversation_id` is a 404. With `to` or `to_user_id` the customer's open or assigned conversation is used, or a new one is started (`conversation.created`).",
          "Other kinds: `location` `{latitude, longitude, name?, address?}`; `reaction` `{message_id, emoji}` (a message of the conversation; `\"\"` removes the reaction; shown on that message's `reactions`, not as a bubble); `interactive` reply buttons `{type: \"button\", body, footer?, buttons: [{id, title}]}` (1 to 3); `template` `{name, language, variables}` (an APPROVED template, 409 `template_not_approved` otherwise; exactly as many variables as its body has, 400 otherwise; `text` of the answer is the rendered body). `context.message_id` replies to a message of the conversation (quoted).",
          "The customer-service window: once the customer has written, anything but a template sent after `service_window_expires_at` of the conversation (their last message + 24 h) is a 409 `outside_service_window` and nothing is sent.",
          "Text: 1 to 4,096 characters. Media: `image` jpeg/png ≤ 5 MiB; `audio` aac/mp4/mpeg/amr/ogg ≤ 16 MiB (no caption); `video` mp4/3gpp ≤ 16 MiB; `document` pdf, doc(x), xls(x), ppt(x), txt ≤ 20 MiB with `filename`. Captions ≤ 1,024 characters.",
        ].join("\n\n"),
        access: { scope: "messages:write" },
        body: sendMessageInput,
        bodyLimit: "32 MiB",
        idempotent: true,
        success: { status: "201", description: "The queued message.", schema: messageOutput },
        errors: [404],
      }),
    },
    "/v1/messages/{id}": {
      get: op({
        operationId: "getMessage",
        summary: "Get a message",
        access: { scope: "messages:read" },
        path: byId,
        success: { status: "200", description: "The message.", schema: messageOutput },
      }),
      delete: op({
        operationId: "deleteMessage",
        summary: "Delete a message",
        description: "Soft delete: the text and the media bytes are erased for good and `deleted_at` is set; the message stays in the thread. Deleting it again changes nothing.",
        access: { scope: "messages:delete" },
        path: byId,
        success: { status: "204", description: "Deleted." },
      }),
    },
    "/v1/messages/{id}/media": {
      get: op({
        operationId: "getMessageMedia",
        summary: "Download a message's media",
        description: "The bytes with their own `Content-Type` (e.g. `image/jpeg`, `application/pdf`). Documents come as attachments, other media inline. A message without media (or a deleted one) is a 404.",
        access: { scope: "messages:read" },
        path: byId,
        success: {
          status: "200",
          description: "The bytes, with their Content-Type.",
          headers: {
            "Content-Disposition": z.string().meta({ description: "`attachment` for documents, else `inline`; with the file name when known.", example: 'inline; filename="photo.jpg"' }),
          },
          content: { "*/*": { schema: { type: "string", contentMediaType: "application/octet-stream", description: "The media bytes." } } },
        },
      }),
    },
    "/v1/messages/polish": {
      post: op({
        operationId: "polishText",
        summary: "Polish a draft",
        description:
          "Rewrites a draft in one of three styles. The built-in rules answer at once (`engine: \"rules\"`); when a language model is configured it is used with the business profile as context (`engine: \"llm\"`), falling back to the rules on error or after 3 s. The draft keeps its language (`language`, detected when absent): Portuguese stays Portuguese, Spanish keeps or gets its accents.",
        access: { scope: "messages:write" },
        body: polishInput,
        success: { status: "200", description: "The polished text.", schema: polishOutput },
      }),
    },
    "/v1/conversations/{id}/suggestions": {
      post: op({
        operationId: "suggestAnswers",
        summary: "Suggest answers from the business's knowledge",
        description:
          "Passages of the business profile's description and of the uploaded PDFs' text that answer the customer's last text message, ranked with PostgreSQL full-text search in that message's language (English, Spanish or Portuguese; accents ignored). No external service is involved. An empty list when the customer has written no text or nothing matches.",
        access: { scope: "messages:read" },
        path: pathIds({ id: "conversation" }),
        body: suggestionsInput,
        success: { status: "200", description: "The suggestions, best first.", schema: suggestionsOutput },
      }),
    },
  },
};
