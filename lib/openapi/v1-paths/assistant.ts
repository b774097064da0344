import { assistantConfigInput, assistantConfigOutput, draftInput, draftOutput } from "@/lib/assistant/schemas";
import { operationsFor, pathIds, type V1Domain } from "../v1-common";

const tag = {
  name: "Answer assistant",
  description:
    "Optional, bring your own model: with `LLM_BASE_URL`, `LLM_API_KEY` and `LLM_MODEL` naming any OpenAI-compatible chat-completions server (a hosted one, or a local llama.cpp or Ollama), replies are drafted from the passages of the business's documents that answer the customer, with their sources. Every number, price, date and link in an answer must appear in a cited passage, or the answer is discarded. Without a model the assistant is off.",
};
const op = operationsFor(tag.name);

export const assistantDomain: V1Domain = {
  tag,
  paths: {
    "/v1/conversations/{id}/draft": {
      post: op({
        operationId: "draftReply",
        summary: "Draft a reply from the business's documents",
        description:
          "Writes an answer to the customer's last text message from the passages retrieved for it (as `POST /v1/conversations/{id}/suggestions` finds them), in the customer's language, and returns it with the passages it cites. Nothing is sent. 409 `no_answer` when nothing grounded can be said: the customer wrote no text, no passage matches, the model has no answer or cites none, or the answer states a number, price, date or link that no cited passage contains. 409 `assistant_off` without a configured model; 502 `assistant_unavailable` when the model fails or takes over 20 s.",
        access: { scope: "messages:write" },
        path: pathIds({ id: "conversation" }),
        body: draftInput,
        errors: [409, 502],
        success: { status: "200", description: "The drafted reply and its sources.", schema: draftOutput },
      }),
    },
    "/v1/config/assistant": {
      get: op({
        operationId: "getAssistantConfig",
        summary: "Get the answer assistant's settings",
        description: "An account that never saved them does not answer outside opening hours; `min_score` defaults to 0.1. `available` says whether a language model is configured.",
        access: { scope: "config:read" },
        success: { status: "200", description: "The settings.", schema: assistantConfigOutput },
      }),
      put: op({
        operationId: "updateAssistantConfig",
        summary: "Change the answer assistant's settings",
        description:
          "With `answer_outside_hours` on (and a language model configured), a customer's message received while the business is closed is answered from its documents when the best passage's score reaches `min_score` and the answer is grounded; otherwise, or when the customer asks for a person, the customer is told \"A person will answer as soon as we open\" in their language (English, Spanish or Portuguese) and the conversation is left unassigned with a `handed_off` activity saying why. Audited as `assistant.updated`.",
        access: { scope: "config:write" },
        body: assistantConfigInput,
        success: { status: "200", description: "The saved settings.", schema: assistantConfigOutput },
      }),
    },
  },
};
