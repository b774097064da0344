import { createTemplateInput, templateOutput } from "@/lib/templates/schemas";
import { deleted, operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

const tag = { name: "Templates", description: "Message templates: reviewed by the network, the only messages allowed outside the 24-hour customer-service window." };
const op = operationsFor(tag.name);

const templateId = pathIds({ id: "template" });

export const templatesDomain: V1Domain = {
  tag,
  paths: {
    "/v1/templates": {
      get: op({
        operationId: "listTemplates",
        summary: "List templates",
        description: "Oldest first, with their review status.",
        access: { scope: "config:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of templates.", schema: page(templateOutput) },
      }),
      post: op({
        operationId: "createTemplate",
        summary: "Submit a template for review",
        description: [
          "Stored as `PENDING` and submitted to the network (cloud: `POST /{business_account_id}/message_templates`); the network's verdict arrives by its `message_template_status_update` webhook and is announced as `template.updated`. The sandbox approves about 2 s later, or rejects a body containing \"REJECT\".",
          "The body's variables are `{{1}}`, `{{2}}`… without gaps; header and footer have none. The same name in the same language twice is a 409; the network refusing it is a 502 with its message.",
          "The header is TEXT, IMAGE, VIDEO, DOCUMENT (its file in the body, Base64) or LOCATION. A media header's file is uploaded through the network's resumable upload API (`POST /{app_id}/uploads`, then the bytes) and submitted as `example.header_handle`; Chorus keeps the file and sends it with each message unless the send gives another. Buttons: up to 10, of which at most 2 URL (an address that may end in `{{1}}`, with an `example` suffix), 1 PHONE_NUMBER and 1 COPY_CODE (with an `example` code). An unknown button type, too many buttons or a missing example is a 400 naming the field, and nothing is submitted.",
        ].join("\n\n"),
        access: { scope: "config:write" },
        body: createTemplateInput,
        bodyLimit: "32 MiB",
        success: { status: "201", description: "The template, `PENDING` review.", schema: templateOutput },
        errors: [409, 502],
      }),
    },
    "/v1/templates/{id}": {
      get: op({
        operationId: "getTemplate",
        summary: "Get a template",
        access: { scope: "config:read" },
        path: templateId,
        success: { status: "200", description: "The template.", schema: templateOutput },
      }),
      delete: op({
        operationId: "deleteTemplate",
        summary: "Delete a template",
        description: "Deleted here and at the network; when the network refuses, nothing is deleted (502). Messages already sent from it keep their text.",
        access: { scope: "config:write" },
        path: templateId,
        success: deleted,
        errors: [502],
      }),
    },
  },
};
