"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { requestJson } from "@/lib/client/api";
import type { TemplateOutput } from "@/lib/templates/schemas";

const statusTone: Record<TemplateOutput["status"], string> = {
  PENDING: "bg-amber-50 text-amber-800",
  APPROVED: "bg-emerald-50 text-emerald-800",
  REJECTED: "bg-red-50 text-red-800",
};
// Catalog keys (namespace settingsTemplates).
const statusLabel: Record<TemplateOutput["status"], string> = { PENDING: "status.PENDING", APPROVED: "status.APPROVED", REJECTED: "status.REJECTED" };
const headerFormats = [
  ["", "headerFormat.none"],
  ["TEXT", "headerFormat.TEXT"],
  ["IMAGE", "headerFormat.IMAGE"],
  ["VIDEO", "headerFormat.VIDEO"],
  ["DOCUMENT", "headerFormat.DOCUMENT"],
  ["LOCATION", "headerFormat.LOCATION"],
] as const;
const buttonKinds = [
  ["", "buttonKind.none"],
  ["QUICK_REPLY", "buttonKind.QUICK_REPLY"],
  ["URL", "buttonKind.URL"],
  ["PHONE_NUMBER", "buttonKind.PHONE_NUMBER"],
  ["COPY_CODE", "buttonKind.COPY_CODE"],
] as const;

/** A file as standard Base64, in chunks (a long argument list would overflow the stack). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Lists, creates and deletes templates; statuses refresh while any is in review. */
export function TemplatesManager({ initial, canEdit }: { initial: TemplateOutput[]; canEdit: boolean }) {
  const t = useTranslations("settingsTemplates");
  const errorMessage = useApiErrorMessage();
  const [confirm, confirmDialog] = useConfirm();
  const [templates, setTemplates] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const [pending, setPending] = useState(false);
  const [deleting, setDeleting] = useState<string>();
  const [headerFormat, setHeaderFormat] = useState("");
  const [buttonTypes, setButtonTypes] = useState<string[]>(["", "", ""]);
  const reviewing = templates.some((template) => template.status === "PENDING");

  // The network decides in its own time: poll while a template is in review.
  useEffect(() => {
    if (!reviewing) return;
    const timer = setInterval(async () => {
      const result = await requestJson<{ data: TemplateOutput[] }>("GET", "/v1/templates?limit=100");
      if (result.ok) setTemplates(result.data.data);
    }, 2_000);
    return () => clearInterval(timer);
  }, [reviewing]);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const buttons = buttonTypes.flatMap((type, i): Record<string, string>[] => {
      if (!type) return [];
      const n = i + 1;
      if (type === "URL") return [{ type, text: text(`button${n}`), url: text(`button${n}-target`), ...(text(`button${n}-example`) ? { example: text(`button${n}-example`) } : {}) }];
      if (type === "PHONE_NUMBER") return [{ type, text: text(`button${n}`), phone_number: text(`button${n}-target`) }];
      if (type === "COPY_CODE") return [{ type, example: text(`button${n}-example`) }];
      return [{ type, text: text(`button${n}`) }];
    });
    const file = form.get("header-file");
    let header: Record<string, unknown> | undefined;
    if (headerFormat === "TEXT") header = { format: "TEXT", text: text("header") };
    else if (headerFormat === "LOCATION") header = { format: "LOCATION" };
    else if (headerFormat) {
      header = { format: headerFormat, ...(file instanceof File && file.size > 0 ? { media: { mime_type: file.type, data: await base64Of(file), filename: file.name } } : {}) };
    }
    const body = {
      name: text("name"),
      language: text("language"),
      category: text("category"),
      components: {
        ...(header ? { header } : {}),
        body: { text: text("body") },
        ...(text("footer") ? { footer: { text: text("footer") } } : {}),
        ...(buttons.length ? { buttons } : {}),
      },
    };
    setPending(true);
    setNotice(undefined);
    const result = await requestJson<TemplateOutput>("POST", "/v1/templates", body);
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors);
      setNotice({ tone: "error", text: errorMessage(result) });
      return;
    }
    setErrors({});
    setTemplates((list) => [...list, result.data]);
    formElement.reset();
    setHeaderFormat("");
    setButtonTypes(["", "", ""]);
    setNotice({ tone: "success", text: t("submitted", { name: result.data.name }) });
  }

  async function remove(template: TemplateOutput) {
    const confirmed = await confirm({ title: t("confirmTitle", { name: template.name, language: template.language }), body: t("confirmBody"), confirmLabel: t("confirmAction"), tone: "danger" });
    if (!confirmed) return;
    setDeleting(template.id);
    const result = await requestJson("DELETE", `/v1/templates/${template.id}`);
    setDeleting(undefined);
    if (result.ok) setTemplates((list) => list.filter((other) => other.id !== template.id));
    else setNotice({ tone: "error", text: errorMessage(result) });
  }

  return (
    <div className="flex flex-col gap-6">
      {confirmDialog}
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      <Card className="p-0">
        {templates.length === 0 ? (
          <p className="p-6 text-sm text-slate-600">{t("empty")}</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label={t("list")}>
            {templates.map((template) => (
              <li key={template.id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start" data-testid="template-row">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium" data-user-content>
                      {template.name}
                    </span>
                    <span className="text-xs text-slate-500" translate="no">
                      {template.language} · {template.category.toLowerCase()}
                    </span>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusTone[template.status]}`} data-testid="template-status">
                      {t(statusLabel[template.status])}
                    </span>
                  </p>
                  {template.components.header ? (
                    <p className="mt-1 text-xs text-slate-500">
                      {t("headerLine", {
                        value: template.components.header.format === "TEXT" ? (template.components.header.text ?? "") : (template.components.header.media?.filename ?? template.components.header.format.toLowerCase()),
                      })}
                    </p>
                  ) : null}
                  <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-700" data-user-content>
                    {template.components.body.text}
                  </p>
                  {template.components.buttons?.length ? (
                    <p className="mt-1 text-xs text-slate-500">
                      {t("buttonsLine", { value: template.components.buttons.map((b) => (b.type === "COPY_CODE" ? t("copyCodeButton", { code: b.example ?? "" }) : b.text)).join(" · ") })}
                    </p>
                  ) : null}
                  {template.rejected_reason ? <p className="mt-1 text-xs text-red-700">{t("rejected", { reason: template.rejected_reason })}</p> : null}
                </div>
                {canEdit ? (
                  <Button type="button" variant="secondary" onClick={() => void remove(template)} disabled={deleting === template.id}>
                    {deleting === template.id ? t("deleting") : t("delete")}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
      {canEdit ? (
        <Card>
          <h2 className="text-base font-semibold text-slate-900">{t("new")}</h2>
          <form onSubmit={onSubmit} className="mt-4 grid gap-4 sm:grid-cols-2" noValidate>
            <Field label={t("name")} name="name" placeholder="order_shipped" translate="no" hint={t("nameHint")} error={errors.name} required />
            <Field label={t("language")} name="language" defaultValue="en_US" hint={t("languageHint")} error={errors.language} required />
            <div className="flex flex-col gap-1">
              <label htmlFor="template-category" className="text-sm font-medium text-slate-700">
                {t("category")}
              </label>
              <select id="template-category" name="category" defaultValue="UTILITY" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
                <option value="UTILITY">{t("categoryOption.UTILITY")}</option>
                <option value="MARKETING">{t("categoryOption.MARKETING")}</option>
                <option value="AUTHENTICATION">{t("categoryOption.AUTHENTICATION")}</option>
              </select>
              {errors.category ? <p className="text-xs text-red-600">{errors.category}</p> : null}
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="template-header-format" className="text-sm font-medium text-slate-700">
                {t("header")}
              </label>
              <select id="template-header-format" value={headerFormat} onChange={(e) => setHeaderFormat(e.target.value)} className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
                {headerFormats.map(([value, label]) => (
                  <option key={value} value={value}>
                    {t(label)}
                  </option>
                ))}
              </select>
              {headerFormat === "TEXT" ? <Field label={t("headerText")} name="header" maxLength={60} error={errors["components.header.text"]} /> : null}
              {headerFormat === "IMAGE" || headerFormat === "VIDEO" || headerFormat === "DOCUMENT" ? (
                <>
                  <label htmlFor="template-header-file" className="text-sm font-medium text-slate-700">
                    {t("headerFile")}
                  </label>
                  <input id="template-header-file" name="header-file" type="file" accept={headerFormat === "IMAGE" ? "image/jpeg,image/png" : headerFormat === "VIDEO" ? "video/mp4,video/3gpp" : "application/pdf"} className="text-sm" />
                </>
              ) : null}
              {Object.entries(errors)
                .filter(([key]) => key.startsWith("components.header") && key !== "components.header.text")
                .map(([key, message]) => (
                  <p key={key} className="text-xs text-red-600">
                    {message}
                  </p>
                ))}
            </div>
            <div className="flex flex-col gap-1 sm:col-span-2">
              <label htmlFor="template-body" className="text-sm font-medium text-slate-700">
                {t("body")}
              </label>
              <textarea id="template-body" name="body" rows={3} maxLength={1024} placeholder={t("bodyPlaceholder", { one: "{{1}}", two: "{{2}}" })} className="rounded-md border border-slate-300 px-3 py-2 text-sm" />
              {errors["components.body.text"] ? (
                <p className="text-xs text-red-600">{errors["components.body.text"]}</p>
              ) : (
                <p className="text-xs text-slate-500">{t("bodyHint", { one: "{{1}}", two: "{{2}}" })}</p>
              )}
            </div>
            <Field label={t("footer")} name="footer" maxLength={60} error={errors["components.footer.text"]} />
            <fieldset className="flex flex-col gap-2 sm:col-span-2">
              <legend className="text-sm font-medium text-slate-700">{t("buttons")}</legend>
              {buttonTypes.map((type, i) => {
                const n = i + 1;
                return (
                  <div key={n} className="flex flex-wrap gap-2">
                    <select aria-label={t("buttonKindLabel", { n })} value={type} onChange={(e) => setButtonTypes((list) => list.map((kind, j) => (j === i ? e.target.value : kind)))} className="rounded-md border border-slate-300 bg-white px-2 py-2 text-sm">
                      {buttonKinds.map(([value, label]) => (
                        <option key={value} value={value}>
                          {t(label)}
                        </option>
                      ))}
                    </select>
                    {type && type !== "COPY_CODE" ? <input name={`button${n}`} aria-label={t("buttonLabel", { n })} placeholder={t("labelPlaceholder")} maxLength={25} className="rounded-md border border-slate-300 px-3 py-2 text-sm" /> : null}
                    {type === "URL" || type === "PHONE_NUMBER" ? (
                      <input name={`button${n}-target`} aria-label={type === "URL" ? t("buttonAddress", { n }) : t("buttonPhone", { n })} placeholder={type === "URL" ? "https://shop.example/track/{{1}}" : "+34911234567"} className="min-w-64 flex-1 rounded-md border border-slate-300 px-3 py-2 text-sm" />
                    ) : null}
                    {type === "URL" || type === "COPY_CODE" ? (
                      <input name={`button${n}-example`} aria-label={type === "URL" ? t("buttonExample", { n }) : t("buttonCode", { n })} placeholder={type === "URL" ? t("examplePlaceholder", { one: "{{1}}" }) : t("codePlaceholder")} maxLength={type === "COPY_CODE" ? 15 : 200} className="rounded-md border border-slate-300 px-3 py-2 text-sm" />
                    ) : null}
                  </div>
                );
              })}
              {Object.entries(errors)
                .filter(([key]) => key.startsWith("components.buttons"))
                .map(([key, message]) => (
                  <p key={key} className="text-xs text-red-600">
                    {t("buttonError", { n: Number(key.split(".")[2] ?? 0) + 1 })}
                    {message}
                  </p>
                ))}
            </fieldset>
            <div className="sm:col-span-2">
              <Button type="submit" disabled={pending} aria-busy={pending}>
                {pending ? t("submitting") : t("submit")}
              </Button>
            </div>
          </form>
        </Card>
      ) : (
        <Alert tone="info">{t("adminOnly")}</Alert>
      )}
    </div>
  );
}
