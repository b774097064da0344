import { csatConfigInput, csatConfigOutput } from "@/lib/csat/schemas";
import { operationsFor, type V1Domain } from "../v1-common";

const tag = {
  name: "Satisfaction survey",
  description:
    "When enabled, closing a conversation sends the customer the question as an interactive list with the scores 1 to 5. Their choice, or a reply of a single digit 1–5 within 24 h, becomes the conversation's `csat` and emits `conversation.rated`.",
};
const op = operationsFor(tag.name);

export const csatDomain: V1Domain = {
  tag,
  paths: {
    "/v1/config/csat": {
      get: op({
        operationId: "getCsatConfig",
        summary: "Get the satisfaction survey settings",
        description: "An account that never saved them has the survey off, with a default question.",
        access: { scope: "config:read" },
        success: { status: "200", description: "The settings.", schema: csatConfigOutput },
      }),
      put: op({
        operationId: "updateCsatConfig",
        summary: "Change the satisfaction survey settings",
        description: "Replaces both fields. A conversation is asked at most once per close, and never again once it has a score.",
        access: { scope: "config:write" },
        body: csatConfigInput,
        success: { status: "200", description: "The saved settings.", schema: csatConfigOutput },
      }),
    },
  },
};
