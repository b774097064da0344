import type { Executor } from "@/db";
import type { messageTemplates } from "@/db/schema";
import type { TemplateButtonContent, TemplateContent } from "@/lib/messages/kinds";
import { validateMedia } from "@/lib/messages/media-rules";
import { findMedia } from "@/lib/messages/store";
import { findTemplateByName } from "./store";
import { ApiError, invalidField } from "@/lib/platform/errors";
import { hasUrlVariable, headerMediaKinds, renderTemplateBody, urlWithSuffix, variableCount } from "./schemas";

export type TemplateSend = {
  name: string;
  language: string;
  variables: string[];
  header?: { media?: { mime_type: string; data: string; filename?: string }; location?: { latitude: number; longitude: number; name?: string; address?: string } };
  buttons?: { index: number; value: string }[];
};

/**
 * The template a send names, checked: unknown → 400 naming `template.name`, not APPROVED →
 * 409 `template_not_approved`, the wrong number of values → 400 naming `template.variables`,
 * a header or button value that does not fit → 400 naming it. Returns the rendered body, the
 * message as the customer sees it (`content`, which also carries each button's value for the
 * network) and the header's file to send.
 */
export async function prepareTemplateSend(
  executor: Executor,
  { accountId, template }: { accountId: string; template: TemplateSend },
): Promise<PreparedTemplateSend> {
  const row = await findTemplateByName(executor, { accountId, name: template.name, language: template.language });
  return prepareWithRow(executor, { accountId, template, row });
}

export type PreparedTemplateSend = { text: string; content: TemplateContent; media?: { bytes: Buffer; mimeType: string; filename?: string } };

/**
 * `prepareTemplateSend` for many sends of one template (a campaign's recipients, each with its
 * own values): the template is read once; each send is checked on its own, so one that does not
 * fit is its own ApiError in the list and the others are prepared.
 */
export async function prepareTemplateSends(
  executor: Executor,
  { accountId, name, language, sends }: { accountId: string; name: string; language: string; sends: Omit<TemplateSend, "name" | "language">[] },
): Promise<(PreparedTemplateSend | ApiError)[]> {
  if (!sends.length) return [];
  const row = await findTemplateByName(executor, { accountId, name, language });
  const out: (PreparedTemplateSend | ApiError)[] = [];
  for (const send of sends) {
    try {
      out.push(await prepareWithRow(executor, { accountId, template: { ...send, name, language }, row }));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      out.push(error);
    }
  }
  return out;
}

async function prepareWithRow(
  executor: Executor,
  { accountId, template, row }: { accountId: string; template: TemplateSend; row: typeof messageTemplates.$inferSelect | undefined },
): Promise<PreparedTemplateSend> {
  if (!row) throw invalidField("template.name", `is not a template of this account in ${template.language}`);
  if (row.status !== "APPROVED") {
    throw new ApiError(409, "template_not_approved", `The template ${row.name} (${row.language}) is ${row.status}; only APPROVED templates can be sent.`);
  }
  const components = row.components;
  const expected = variableCount(components);
  if (template.variables.length !== expected) {
    throw invalidField("template.variables", `must have exactly ${expected} value${expected === 1 ? "" : "s"} (the body's {{1}}…{{${expected}}}), not ${template.variables.length}`);
  }

  const content: TemplateContent = { name: row.name, language: row.language, variables: template.variables, category: row.category };
  let file: { bytes: Buffer; mimeType: string; filename?: string } | undefined;

  const header = components.header;
  const format = header ? (header.format ?? "TEXT") : undefined;
  if (template.header?.media && !(format === "IMAGE" || format === "VIDEO" || format === "DOCUMENT")) {
    throw invalidField("template.header.media", `is only for a template with an IMAGE, VIDEO or DOCUMENT header; ${row.name} has ${format ? `a ${format} header` : "no header"}`);
  }
  if (template.header?.location && format !== "LOCATION") throw invalidField("template.header.location", `is only for a template with a LOCATION header`);
  if (header && format === "TEXT") content.header = { format: "TEXT", ...(header.text ? { text: header.text } : {}) };
  if (format === "LOCATION") {
    const location = template.header?.location ?? header?.location;
    if (!location) throw invalidField("template.header.location", "is required: the template's LOCATION header has no place of its own");
    content.header = { format: "LOCATION", location };
  }
  if (format === "IMAGE" || format === "VIDEO" || format === "DOCUMENT") {
    content.header = { format };
    if (template.header?.media) {
      const checked = validateMedia({ type: headerMediaKinds[format], media: template.header.media });
      if (!checked.ok) throw invalidField(`template.header.${checked.issues[0].path}`, checked.issues[0].message.replace(/^media\.\w+ /, ""));
      file = { bytes: checked.bytes, mimeType: checked.mimeType, ...(template.header.media.filename ? { filename: template.header.media.filename } : {}) };
    } else {
      const stored = header?.media?.id ? await findMedia(executor, { accountId, id: header.media.id }) : undefined;
      if (!stored) throw invalidField("template.header.media", "is required: the template's own header file is no longer stored");
      file = { bytes: stored.bytes, mimeType: stored.mimeType, ...(stored.filename ? { filename: stored.filename } : {}) };
    }
  }
  if (components.footer) content.footer = components.footer.text;

  const buttons = components.buttons ?? [];
  for (const given of template.buttons ?? []) {
    const button = buttons[given.index];
    if (!button) throw invalidField("template.buttons", `names button ${given.index}, but ${row.name} has ${buttons.length} button${buttons.length === 1 ? "" : "s"}`);
    if (button.type === "PHONE_NUMBER") throw invalidField("template.buttons", `button ${given.index} is a PHONE_NUMBER button, which takes no value`);
    if (button.type === "URL" && !hasUrlVariable(button.url)) throw invalidField("template.buttons", `button ${given.index} has a fixed address, which takes no value`);
    if (button.type === "COPY_CODE" && given.value.length > 15) throw invalidField("template.buttons", `button ${given.index}'s code must be at most 15 characters`);
  }
  const valueOf = (index: number) => template.buttons?.find((b) => b.index === index)?.value;
  const shown: TemplateButtonContent[] = [];
  buttons.forEach((button, index) => {
    switch (button.type) {
      case "QUICK_REPLY": {
        // The network sends the button's text back when the send sets no payload.
        const payload = valueOf(index);
        shown.push({ index, type: "QUICK_REPLY", text: button.text, ...(payload !== undefined ? { value: payload } : {}) });
        break;
      }
      case "URL": {
        if (!hasUrlVariable(button.url)) {
          shown.push({ index, type: "URL", text: button.text, url: button.url });
          break;
        }
        const suffix = valueOf(index) ?? button.example;
        if (!suffix) throw invalidField("template.buttons", `needs a value for button ${index} (the suffix of ${button.url})`);
        shown.push({ index, type: "URL", text: button.text, url: urlWithSuffix(button.url, suffix), value: suffix });
        break;
      }
      case "PHONE_NUMBER":
        shown.push({ index, type: "PHONE_NUMBER", text: button.text, phone_number: button.phone_number });
        break;
      case "COPY_CODE": {
        const code = valueOf(index) ?? button.example;
        shown.push({ index, type: "COPY_CODE", text: "Copy code", value: code });
        break;
      }
    }
  });
  if (shown.length > 0) content.buttons = shown;
  return { text: renderTemplateBody(components, template.variables), content, ...(file ? { media: file } : {}) };
}
