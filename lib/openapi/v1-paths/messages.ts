import { z } from "zod";
import { messageOutput, sendMessageInput } from "@/lib/messages/schemas";
import { polishInput, polishOutput } from "@/lib/polish/schemas";
import { dismissSuggestionInput, suggestionsInput, suggestionsOutput } from "@/lib/profile/schemas";
import { deleted, operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

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
          "Other kinds: `location` `{latitude, longitude, name?, address?}`; `reaction` `{message_id, emoji}` (a message of the conversation; `\"\"` removes the reaction; shown on that message's `reactions`, not as a bubble); `interactive` reply buttons `{type: \"button\", body, footer?, buttons: [{id, title}]}` (1 to 3), or a published WhatsApp Flow `{type: \"flow\", flow_id, cta, body, footer?, screen?, flow_token?}` (sent as the network's flow message; `flow_token` defaults to the message's id and comes back in the answers' `flow_response.data`); `template` `{name, language, variables}` (an APPROVED template, 409 `template_not_approved` otherwise; exactly as many variables as its body has, 400 otherwise; `text` of the answer is the rendered body). `context.message_id` replies to a message of the conversation (quoted).",
          "The customer-service window: once the customer has written, anything but a template sent after `service_window_expires_at` of the conversation (their last message + 24 h) is a 409 `outside_service_window` and nothing is sent.",
          "Text: 1 to 4,096 characters. Media, as the network limits them (1 MB = 1,048,576 bytes): `image` jpeg/png ≤ 5 MB; `audio` aac/mp4/mpeg/amr/ogg ≤ 16 MB (no caption); `video` mp4/3gpp ≤ 16 MB; `document` pdf, doc(x), xls(x), ppt(x), txt ≤ 100 MB with `filename`. Captions ≤ 1,024 characters. A file over its kind's limit is a 413 `media_too_large` whose message names the limit (\"Images can be at most 5 MB\").",
          "The body itself is at most 32 MiB (413 `payload_too_large`), and Base64 makes a file a third larger: through this API a file can be at most about 23.9 MB (25,116,672 bytes), so documents between that and the network's 100 MB cannot be sent through Chorus today.",
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
        description:
          "A message the customer edited has `edited_at` (and its new text or caption); one they deleted has `deleted_at` and no content. For admins only, `history` lists the earlier versions (what the customer wrote before each edit or deletion); agents never see it.",
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
        success: deleted,
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
          "Rewrites a draft in one of three styles. The built-in rules answer at once (`engine: \"rules\"`); when a language model is configured it is used with the business profile as context (`engine: \"llm\"`), falling back to the rules on error or after 3 s. The draft keeps its language (`language`, detected when absent): Portuguese stays Portuguese, Spanish keeps or gets its accents. The rules fix spelling (Hunspell dictionaries for English, Spanish and Portuguese, once loaded), restore accents, write chat abbreviations out and write names with their capitals: the team's, the places the business profile names, and the contact's when `conversation_id` is given. Numbers, prices, links, e-mail addresses and phone numbers are never changed. An unknown `conversation_id` is a 404.",
        access: { scope: "messages:write" },
        body: polishInput,
        success: { status: "200", description: "The polished text.", schema: polishOutput },
        errors: [404],
      }),
    },
    "/v1/conversations/{id}/suggestions": {
      post: op({
        operationId: "suggestAnswers",
        summary: "Suggest answers from the business's knowledge",
        description:
          "Passages of the business profile's description and of the uploaded PDFs' text that answer the customer's last text message, ranked with PostgreSQL full-text search in that message's language (English, Spanish or Portuguese; accents ignored). Each passage is at most about 300 characters, cut at paragraph and sentence ends. When a matching passage is written in the customer's language, passages in other languages are left out. No external service is involved. An empty list when the customer has written no text, nothing matches, or the 24-hour window is closed (`window_open: false`); passages marked not helpful in this conversation are left out.",
        access: { scope: "messages:read" },
        path: pathIds({ id: "conversation" }),
        body: suggestionsInput,
        success: { status: "200", description: "The suggestions, best first.", schema: suggestionsOutput },
      }),
    },
    "/v1/conversations/{id}/suggestions/dismissals": {
      post: op({
        operationId: "dismissSuggestion",
        summary: "Mark a suggestion not helpful",
        description: "The passage is no longer suggested in this conversation, also after the documents are indexed again (the choice is kept for the passage's text).",
        access: { scope: "messages:write" },
        path: pathIds({ id: "conversation" }),
        body: dismissSuggestionInput,
        success: { status: "204", description: "Hidden in this conversation." },
      }),
    },
  },
};
