import { createTemplateInput, templateOutput } from "@/lib/templates/schemas";
import { operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

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
        ].join("\n\n"),
        access: { scope: "config:write" },
        body: createTemplateInput,
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
        success: { status: "204", description: "Deleted." },
        errors: [502],
      }),
    },
  },
};
