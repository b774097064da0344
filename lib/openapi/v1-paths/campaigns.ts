import {
  audiencePreviewInput,
  audiencePreviewOutput,
  campaignOutput,
  campaignSettingsInput,
  campaignSettingsOutput,
  contactLabelsOutput,
  createCampaignInput,
  recipientOutput,
  recipientsQuery,
  scheduleCampaignInput,
  setContactLabelsInput,
  updateCampaignInput,
} from "@/lib/campaigns/schemas";
import { importContactsInput, importContactsOutput } from "@/lib/contacts/import-schemas";
import { deleted, operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

const tag = {
  name: "Campaigns",
  description:
    "Approved templates sent to an audience of consenting contacts, paced to the account's `messages_per_second`, with consent, opt-out keywords, contact labels and CSV import.",
};
const op = operationsFor(tag.name);
const byCampaign = pathIds({ id: "campaign" });
const byContact = pathIds({ id: "contact" });

const action = (verb: string, summary: string, description: string) =>
  op({
    operationId: `${verb}Campaign`,
    summary,
    description: `${description} Any other state is a 409 \`invalid_transition\`.`,
    access: { scope: "config:write" },
    path: byCampaign,
    success: { status: "200", description: "The campaign.", schema: campaignOutput },
    errors: [409],
  });

export const campaignsDomain: V1Domain = {
  tag,
  paths: {
    "/v1/campaigns": {
      get: op({
        operationId: "listCampaigns",
        summary: "List campaigns",
        description: "Newest first.",
        access: { scope: "config:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of campaigns.", schema: page(campaignOutput) },
      }),
      post: op({
        operationId: "createCampaign",
        summary: "Create a campaign (draft)",
        description:
          "A draft of `template` (an APPROVED template of the account, else 409 `template_not_approved`; unknown: 400) to `audience`. Each variable names its source per recipient; an attribute no contact has is a 400, as are labels and contacts that are not the account's. Agents get 403.",
        access: { scope: "config:write" },
        body: createCampaignInput,
        idempotent: true,
        success: { status: "201", description: "The draft, its counts and cost as the audience is now.", schema: campaignOutput },
        errors: [409],
      }),
    },
    "/v1/campaigns/audience-preview": {
      post: op({
        operationId: "previewCampaignAudience",
        summary: "Preview an audience",
        description: "How many contacts the audience holds now, how many would be messaged, why the others would not, up to 10 of them, and (with `template`) the estimated cost.",
        access: { scope: "config:read" },
        body: audiencePreviewInput,
        success: { status: "200", description: "The audience now.", schema: audiencePreviewOutput },
      }),
    },
    "/v1/campaigns/{id}": {
      get: op({
        operationId: "getCampaign",
        summary: "Get a campaign",
        description: "With its counts: a draft's are its audience now; once sending started, its recipients' (statuses from the network move them).",
        access: { scope: "config:read" },
        path: byCampaign,
        success: { status: "200", description: "The campaign.", schema: campaignOutput },
      }),
      patch: op({
        operationId: "updateCampaign",
        summary: "Update a draft or scheduled campaign",
        description: "Checked as on creation. A campaign that started is a 409 `invalid_transition`.",
        access: { scope: "config:write" },
        path: byCampaign,
        body: updateCampaignInput,
        success: { status: "200", description: "The campaign.", schema: campaignOutput },
        errors: [409],
      }),
      delete: op({
        operationId: "deleteCampaign",
        summary: "Delete a campaign",
        description: "A sending or paused campaign must be cancelled first (409). Messages already sent stay in their conversations.",
        access: { scope: "config:write" },
        path: byCampaign,
        success: deleted,
        errors: [409],
      }),
    },
    "/v1/campaigns/{id}/schedule": {
      post: op({
        operationId: "scheduleCampaign",
        summary: "Schedule or send now",
        description:
          "From draft (or scheduled, to move it): `send_at` in the future schedules it; absent or past sends now. When it starts, its audience is fixed: one recipient per contact, the blocked, opted-out and (with require_opt_in) never-asked skipped with the reason. Any other state is a 409 `invalid_transition`.",
        access: { scope: "config:write" },
        path: byCampaign,
        body: scheduleCampaignInput,
        bodyOptional: true,
        success: { status: "200", description: "The campaign.", schema: campaignOutput },
        errors: [409],
      }),
    },
    "/v1/campaigns/{id}/pause": { post: action("pause", "Pause a campaign", "From sending: no further recipient is started.") },
    "/v1/campaigns/{id}/resume": { post: action("resume", "Resume a campaign", "From paused: continues with the first recipient not messaged yet; nobody is messaged twice.") },
    "/v1/campaigns/{id}/cancel": { post: action("cancel", "Cancel a campaign", "From draft, scheduled, sending or paused: recipients not messaged yet are skipped (`cancelled`).") },
    "/v1/campaigns/{id}/recipients": {
      get: op({
        operationId: "listCampaignRecipients",
        summary: "List a campaign's recipients",
        description: "In sending order, each with its status and the reason it was skipped or failed; `status` filters.",
        access: { scope: "config:read" },
        path: byCampaign,
        query: recipientsQuery,
        success: { status: "200", description: "A page of recipients.", schema: page(recipientOutput) },
      }),
    },
    "/v1/config/campaigns": {
      get: op({
        operationId: "getCampaignSettings",
        summary: "Get the campaign settings",
        access: { scope: "config:read" },
        success: { status: "200", description: "The settings (defaults: 80 per second, opt-in required, STOP BAJA PARAR SAIR).", schema: campaignSettingsOutput },
      }),
      put: op({
        operationId: "updateCampaignSettings",
        summary: "Change the campaign settings",
        description: "Changes the fields given. A keyword repeated (ignoring case and accents) is a 400. Audited.",
        access: { scope: "config:write" },
        body: campaignSettingsInput,
        success: { status: "200", description: "The saved settings.", schema: campaignSettingsOutput },
      }),
    },
    "/v1/contacts/{id}/labels": {
      put: op({
        operationId: "setContactLabels",
        summary: "Set a contact's labels",
        description: "Replaces the labels set on the contact itself; a label that is not the account's is a 400 naming it.",
        access: { scope: "contacts:write" },
        path: byContact,
        body: setContactLabelsInput,
        success: { status: "200", description: "The contact's labels.", schema: contactLabelsOutput },
      }),
    },
    "/v1/contacts/import": {
      post: op({
        operationId: "importContacts",
        summary: "Import contacts from CSV",
        description:
          "Each row is checked on its own: a bad row is reported (`errors`, with its line and column) and left out, the rest are imported. Numbers are normalised to E.164 digits; a number already in the account updates that contact. `preview: true` reports without importing. At most 20,000 rows and 5 MiB.",
        access: { scope: "contacts:write" },
        body: importContactsInput,
        bodyLimit: "6 MiB",
        success: { status: "200", description: "What was (or would be) imported.", schema: importContactsOutput },
      }),
    },
  },
};
