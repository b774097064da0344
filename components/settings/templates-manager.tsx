"use client";

import { useEffect, useState } from "react";
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
const statusLabel: Record<TemplateOutput["status"], string> = { PENDING: "In review", APPROVED: "Approved", REJECTED: "Rejected" };

/** Lists, creates and deletes templates; statuses refresh while any is in review. */
export function TemplatesManager({ initial, canEdit }: { initial: TemplateOutput[]; canEdit: boolean }) {
  const [confirm, confirmDialog] = useConfirm();
  const [templates, setTemplates] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const [pending, setPending] = useState(false);
  const [deleting, setDeleting] = useState<string>();
  const reviewing = templates.some((t) => t.status === "PENDING");

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
    const buttons = [text("button1"), text("button2"), text("button3")].filter(Boolean).map((t) => ({ type: "QUICK_REPLY", text: t }));
    const body = {
      name: text("name"),
      language: text("language"),
      category: text("category"),
      components: {
        ...(text("header") ? { header: { text: text("header") } } : {}),
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
      setNotice({ tone: "error", text: result.message });
      return;
    }
    setErrors({});
    setTemplates((list) => [...list, result.data]);
    formElement.reset();
    setNotice({ tone: "success", text: `${result.data.name} was submitted for review.` });
  }

  async function remove(template: TemplateOutput) {
    const confirmed = await confirm({ title: `Delete the template ${template.name} (${template.language})?`, body: "It is deleted at the network too; messages already sent keep their text.", confirmLabel: "Delete template", tone: "danger" });
    if (!confirmed) return;
    setDeleting(template.id);
    const result = await requestJson("DELETE", `/v1/templates/${template.id}`);
    setDeleting(undefined);
    if (result.ok) setTemplates((list) => list.filter((t) => t.id !== template.id));
    else setNotice({ tone: "error", text: result.message });
  }

  return (
    <div className="flex flex-col gap-6">
      {confirmDialog}
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      <Card className="p-0">
        {templates.length === 0 ? (
          <p className="p-6 text-sm text-slate-600">No templates yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Templates">
            {templates.map((template) => (
              <li key={template.id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start" data-testid="template-row">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{template.name}</span>
                    <span className="text-xs text-slate-500">
                      {template.language} · {template.category.toLowerCase()}
                    </span>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusTone[template.status]}`} data-testid="template-status">
                      {statusLabel[template.status]}
                    </span>
                  </p>
                  <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-700">{template.components.body.text}</p>
                  {template.rejected_reason ? <p className="mt-1 text-xs text-red-700">Rejected: {template.rejected_reason}</p> : null}
                </div>
                {canEdit ? (
                  <Button type="button" variant="secondary" onClick={() => void remove(template)} disabled={deleting === template.id}>
                    {deleting === template.id ? "Deleting…" : "Delete"}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
      {canEdit ? (
        <Card>
          <h2 className="text-base font-semibold text-slate-900">New template</h2>
          <form onSubmit={onSubmit} className="mt-4 grid gap-4 sm:grid-cols-2" noValidate>
            <Field label="Name" name="name" placeholder="order_shipped" hint="Lower-case letters, digits and _." error={errors.name} required />
            <Field label="Language" name="language" defaultValue="en_US" hint="For example en_US, es_AR, pt_BR." error={errors.language} required />
            <div className="flex flex-col gap-1">
              <label htmlFor="template-category" className="text-sm font-medium text-slate-700">
                Category
              </label>
              <select id="template-category" name="category" defaultValue="UTILITY" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
                <option value="UTILITY">Utility (orders, appointments)</option>
                <option value="MARKETING">Marketing</option>
                <option value="AUTHENTICATION">Authentication (codes)</option>
              </select>
              {errors.category ? <p className="text-xs text-red-600">{errors.category}</p> : null}
            </div>
            <Field label="Header (optional)" name="header" maxLength={60} error={errors["components.header.text"]} />
            <div className="flex flex-col gap-1 sm:col-span-2">
              <label htmlFor="template-body" className="text-sm font-medium text-slate-700">
                Body
              </label>
              <textarea id="template-body" name="body" rows={3} maxLength={1024} placeholder="Hi {{1}}, your order {{2}} has shipped." className="rounded-md border border-slate-300 px-3 py-2 text-sm" />
              {errors["components.body.text"] ? (
                <p className="text-xs text-red-600">{errors["components.body.text"]}</p>
              ) : (
                <p className="text-xs text-slate-500">{"Variables are {{1}}, {{2}}… in order; each send fills them in."}</p>
              )}
            </div>
            <Field label="Footer (optional)" name="footer" maxLength={60} error={errors["components.footer.text"]} />
            <div className="flex flex-col gap-2">
              <span className="text-sm font-medium text-slate-700">Quick-reply buttons (optional)</span>
              {[1, 2, 3].map((n) => (
                <input key={n} name={`button${n}`} aria-label={`Quick reply ${n}`} maxLength={25} className="rounded-md border border-slate-300 px-3 py-2 text-sm" />
              ))}
            </div>
            <div className="sm:col-span-2">
              <Button type="submit" disabled={pending} aria-busy={pending}>
                {pending ? "Submitting…" : "Submit for review"}
              </Button>
            </div>
          </form>
        </Card>
      ) : (
        <Alert tone="info">Only administrators can create or delete templates.</Alert>
      )}
    </div>
  );
}
