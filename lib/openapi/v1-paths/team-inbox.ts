import { z } from "zod";
import { paginationQuery } from "@/lib/platform/pagination";
import { contactDetailOutput, listContactsQuery, updateContactInput } from "@/lib/contacts/schemas";
import { conversationOutput, snoozeConversationInput } from "@/lib/conversations/schemas";
import { createLabelInput, labelOutput, setConversationLabelsInput } from "@/lib/labels/schemas";
import { searchQuery, searchResultOutput } from "@/lib/search/schemas";
import { deleted, operationsFor, page, pathIds, type V1Domain } from "../v1-common";

const labelsTag = { name: "Labels", description: "Labels to organise conversations: manage them, put them on conversations, filter by them." };
const searchTag = { name: "Search", description: "Find conversations by the customer's name or number, or by anything written in them." };
const contactsTag = { name: "Contacts", description: "The customers: what the team keeps about them, blocking, and a CSV export." };

const labelOp = operationsFor(labelsTag.name);
const searchOp = operationsFor(searchTag.name);
const contactOp = operationsFor(contactsTag.name);
const conversationOp = operationsFor("Conversations");

export const labelsDomain: V1Domain = {
  tag: labelsTag,
  paths: {
    "/v1/labels": {
      get: labelOp({
        operationId: "listLabels",
        summary: "List labels",
        description: "Oldest first.",
        access: { scope: "config:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of labels.", schema: page(labelOutput) },
      }),
      post: labelOp({
        operationId: "createLabel",
        summary: "Create a label",
        description: "A name already used in the account (ignoring case) answers 409 `conflict`.",
        access: { scope: "config:write" },
        body: createLabelInput,
        success: { status: "201", description: "The new label.", schema: labelOutput },
        errors: [409],
      }),
    },
    "/v1/labels/{id}": {
      delete: labelOp({
        operationId: "deleteLabel",
        summary: "Delete a label",
        description: "Also takes it off every conversation that carried it.",
        access: { scope: "config:write" },
        path: pathIds({ id: "label" }),
        success: deleted,
      }),
    },
    "/v1/conversations/{id}/labels": {
      put: conversationOp({
        operationId: "setConversationLabels",
        summary: "Set a conversation's labels",
        description: "Replaces the conversation's labels with `label_ids`; an id that is not a label of the account is a 400 naming it.",
        access: { scope: "conversations:write" },
        path: pathIds({ id: "conversation" }),
        body: setConversationLabelsInput,
        success: { status: "200", description: "The conversation with its labels.", schema: conversationOutput },
      }),
    },
    "/v1/conversations/{id}/snooze": {
      post: conversationOp({
        operationId: "snoozeConversation",
        summary: "Snooze a conversation",
        description:
          "From `open`, `assigned` or `snoozed` (moves the wake-up) to `snoozed` until `until` (in the future, at most 90 days ahead; else 400). At `until`, or at once when the customer writes, it returns to `open` or `assigned` with `conversation.reopened`. Emits `conversation.snoozed`; a closed conversation answers 409 `invalid_transition`.",
        access: { scope: "conversations:write" },
        path: pathIds({ id: "conversation" }),
        body: snoozeConversationInput,
        success: { status: "200", description: "The snoozed conversation.", schema: conversationOutput },
        errors: [409],
      }),
    },
  },
};

export const searchDomain: V1Domain = {
  tag: searchTag,
  paths: {
    "/v1/search": {
      get: searchOp({
        operationId: "search",
        summary: "Search conversations",
        description:
          "Conversations whose contact name, number or email, or any message text, contains `q`, ignoring case and accents (`gomez` finds `Gómez`). Contact matches come first, then the most recent matching text; each conversation once, with the matching snippet.",
        access: { scope: "conversations:read" },
        query: searchQuery,
        success: { status: "200", description: "A page of matches, best first.", schema: page(searchResultOutput) },
      }),
    },
  },
};

const byContact = pathIds({ id: "contact" });

export const contactsDomain: V1Domain = {
  tag: contactsTag,
  paths: {
    "/v1/contacts": {
      get: contactOp({
        operationId: "listContacts",
        summary: "List contacts",
        description:
          "By latest message, newest first (`sort=last_message`, the default), or by name (`sort=name`); `q` keeps those whose name, number or email contains it. A `cursor` continues the order it came from: given with another `sort` it is a 400.",
        access: { scope: "contacts:read" },
        query: listContactsQuery,
        success: { status: "200", description: "A page of contacts.", schema: page(contactDetailOutput) },
      }),
    },
    "/v1/contacts/export": {
      get: contactOp({
        operationId: "exportContacts",
        summary: "Export contacts as CSV",
        description: "Every contact of the account, newest first, one CSV row each (RFC 4180, UTF-8); `attributes` as a JSON object.",
        access: { scope: "contacts:read" },
        success: {
          status: "200",
          description: "The CSV file.",
          headers: { "Content-Disposition": z.string().meta({ description: "An attachment with a dated file name.", example: 'attachment; filename="contacts-2026-11-22.csv"' }) },
          content: { "text/csv": { schema: { type: "string", description: "id, phone, name, email, notes, blocked, created_at, last_message_at, conversations_count, network_user_id, username, attributes" } } },
        },
      }),
    },
    "/v1/contacts/{id}": {
      get: contactOp({
        operationId: "getContact",
        summary: "Get a contact",
        access: { scope: "contacts:read" },
        path: byContact,
        success: { status: "200", description: "The contact.", schema: contactDetailOutput },
      }),
      patch: contactOp({
        operationId: "updateContact",
        summary: "Update a contact",
        description: "Changes the given fields; emits `contact.updated` when something changed. A name set here is kept when the network later reports another profile name.",
        access: { scope: "contacts:write" },
        path: byContact,
        body: updateContactInput,
        success: { status: "200", description: "The contact after the change.", schema: contactDetailOutput },
      }),
    },
  },
};
