import {
  automationOutput,
  automationPreviewOutput,
  createAutomationInput,
  createMacroInput,
  macroOutput,
  macroRunOutput,
  previewAutomationInput,
  updateAutomationInput,
  updateMacroInput,
} from "@/lib/automations/schemas";
import { deleted, operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

const tag = {
  name: "Automations and macros",
  description:
    "Rules that run when a conversation starts, a message arrives or a conversation is assigned, closed or reopened, in the transaction of that event; and macros, actions a person runs on a conversation in one click.",
};
const op = operationsFor(tag.name);

const automationId = pathIds({ id: "automation" });
const macroId = pathIds({ id: "macro" });

const references =
  "Every user, label, canned reply and template an action names must belong to the account (400 naming `actions.<i>.<field>` otherwise), and a `matches` condition must be a safe pattern (RE2 syntax, at most 200 characters, no backreferences or lookaround, counted repetitions at most 100); nothing is saved on any error.";

export const automationsDomain: V1Domain = {
  tag,
  paths: {
    "/v1/automations": {
      get: op({
        operationId: "listAutomations",
        summary: "List automations",
        description: "Oldest first; `position` is the order the rules of an event run in.",
        access: { scope: "config:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of automations.", schema: page(automationOutput) },
      }),
      post: op({
        operationId: "createAutomation",
        summary: "Create an automation",
        description: `Saved at \`position\` (default: last); the rules at and after it move down one. ${references} An account has at most 100 automations (409).`,
        access: { scope: "config:write" },
        body: createAutomationInput,
        success: { status: "201", description: "The automation.", schema: automationOutput },
        errors: [409],
      }),
    },
    "/v1/automations/{id}": {
      patch: op({
        operationId: "updateAutomation",
        summary: "Change an automation",
        description: `Send any of the fields. A new \`position\` moves the rule there and the others close up. ${references}`,
        access: { scope: "config:write" },
        path: automationId,
        body: updateAutomationInput,
        success: { status: "200", description: "The automation after the change.", schema: automationOutput },
      }),
      delete: op({
        operationId: "deleteAutomation",
        summary: "Delete an automation",
        access: { scope: "config:write" },
        path: automationId,
        success: deleted,
      }),
    },
    "/v1/automations/preview": {
      post: op({
        operationId: "previewAutomation",
        summary: "Preview an automation's conditions",
        description:
          "How many of the account's last 1,000 conversations the conditions would match as each stands now (`message.*` is its latest customer message). Changes nothing.",
        access: { scope: "config:read" },
        body: previewAutomationInput,
        success: { status: "200", description: "The count.", schema: automationPreviewOutput },
      }),
    },
    "/v1/macros": {
      get: op({
        operationId: "listMacros",
        summary: "List macros",
        description: "The account's macros and the caller's personal ones, oldest first.",
        access: { scope: "conversations:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of macros.", schema: page(macroOutput) },
      }),
      post: op({
        operationId: "createMacro",
        summary: "Create a macro",
        description: `A \`personal\` macro is its owner's; an \`account\` macro is everyone's and only an administrator saves one (403). ${references}`,
        access: { scope: "conversations:write" },
        body: createMacroInput,
        success: { status: "201", description: "The macro.", schema: macroOutput },
      }),
    },
    "/v1/macros/{id}": {
      patch: op({
        operationId: "updateMacro",
        summary: "Change a macro",
        description: `Someone else's personal macro is a 404; an account macro is changed by administrators only (403). ${references}`,
        access: { scope: "conversations:write" },
        path: macroId,
        body: updateMacroInput,
        success: { status: "200", description: "The macro after the change.", schema: macroOutput },
      }),
      delete: op({
        operationId: "deleteMacro",
        summary: "Delete a macro",
        description: "Someone else's personal macro is a 404; an account macro is deleted by administrators only (403).",
        access: { scope: "conversations:write" },
        path: macroId,
        success: deleted,
      }),
    },
    "/v1/conversations/{id}/macros/{macro_id}": {
      post: op({
        operationId: "runMacro",
        summary: "Run a macro on a conversation",
        description:
          "Runs its actions in order as the caller, all in one transaction: an action that is refused (409 for a template that is not approved) changes nothing at all. An action with nothing to do (the label is already there, the conversation is already closed) is `skipped`. A macro that sends (`send_canned_reply`, `send_template`) also needs `messages:write`, as sending by hand does: without it, 403 `insufficient_scope` and nothing runs. No body.",
        access: { scope: "conversations:write" },
        path: pathIds({ id: "conversation", macro_id: "macro" }),
        success: { status: "200", description: "What each action did.", schema: macroRunOutput },
        errors: [409],
      }),
    },
  },
};
