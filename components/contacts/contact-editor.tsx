"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";
import type { ContactDetail } from "./types";

type Row = { key: string; value: string };

const rowsOf = (attributes: Record<string, string>): Row[] => Object.entries(attributes).map(([key, value]) => ({ key, value }));

/**
 * Edits what the team keeps about a customer (name, email, notes, attributes) and blocks or
 * unblocks them, through PATCH /v1/contacts/{id}. Used on the contact page and in the
 * conversation's details pane.
 */
export function ContactEditor({ contactId, initial, compact = false, onSaved }: { contactId: string; initial?: ContactDetail; compact?: boolean; onSaved?: (c: ContactDetail) => void }) {
  const [contact, setContact] = useState<ContactDetail | undefined>(initial);
  const [loadError, setLoadError] = useState<string>();
  const [name, setName] = useState(initial?.name ?? "");
  const [email, setEmail] = useState(initial?.email ?? "");
  const [notes, setNotes] = useState(initial?.notes ?? "");
  const [rows, setRows] = useState<Row[]>(initial ? rowsOf(initial.attributes) : []);
  const [saving, setSaving] = useState<"save" | "block" | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string }>();
  const t = useTranslations("contacts.editor");
  const errorMessage = useApiErrorMessage();

  const reset = (c: ContactDetail) => {
    setContact(c);
    setName(c.name ?? "");
    setEmail(c.email ?? "");
    setNotes(c.notes ?? "");
    setRows(rowsOf(c.attributes));
  };

  useEffect(() => {
    if (initial) return;
    let current = true;
    void requestJson<ContactDetail>("GET", `/v1/contacts/${contactId}`).then((result) => {
      if (!current) return;
      if (result.ok) reset(result.data);
      else setLoadError(errorMessage(result));
    });
    return () => {
      current = false;
    };
  }, [contactId, initial, errorMessage]);

  async function patch(body: Record<string, unknown>, kind: "save" | "block") {
    setSaving(kind);
    setErrors({});
    setMessage(undefined);
    const result = await requestJson<ContactDetail>("PATCH", `/v1/contacts/${contactId}`, body);
    setSaving(null);
    if (result.ok) {
      reset(result.data);
      onSaved?.(result.data);
      setMessage({ tone: "ok", text: kind === "block" ? (result.data.blocked ? t("blocked") : t("unblocked")) : t("saved") });
    } else {
      setErrors(result.fieldErrors);
      setMessage({ tone: "error", text: result.status === 400 ? t("checkFields") : errorMessage(result) });
    }
  }

  function save(e: React.FormEvent) {
    e.preventDefault();
    const keys = rows.map((r) => r.key.trim()).filter(Boolean);
    if (new Set(keys).size !== keys.length) {
      setErrors({ attributes: t("attributeOnce") });
      return;
    }
    const attributes = Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]));
    void patch({ name: name.trim() || null, email: email.trim() || null, notes: notes.trim() || null, attributes }, "save");
  }

  if (loadError) return <p className="text-sm text-red-700" role="alert">{t("loadError", { reason: loadError })}</p>;
  if (!contact) return <p className="text-sm text-slate-500" role="status">{t("loading")}</p>;
  const attributeError = errors.attributes ?? Object.entries(errors).find(([path]) => path.startsWith("attributes"))?.[1];

  return (
    <form onSubmit={save} className="flex flex-col gap-3" aria-label={t("form")}>
      {contact.blocked ? (
        <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="contact-blocked">
          {t("blockedNotice")}
        </p>
      ) : null}
      <Field label={t("name")} name="name" id={`contact-name-${contactId}`} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} error={errors.name} />
      <Field label={t("email")} name="email" id={`contact-email-${contactId}`} type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
      <div className="flex flex-col gap-1">
        <label htmlFor={`contact-notes-${contactId}`} className="text-sm font-medium text-slate-700">
          {t("notes")}
        </label>
        <textarea
          id={`contact-notes-${contactId}`}
          value={notes}
          maxLength={5000}
          rows={compact ? 3 : 5}
          onChange={(e) => setNotes(e.target.value)}
          className="rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm"
        />
        {errors.notes ? <p className="text-xs text-red-600">{errors.notes}</p> : null}
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-700">{t("attributes")}</legend>
        {rows.length === 0 ? <p className="text-xs text-slate-500">{t("noAttributes")}</p> : null}
        {rows.map((row, i) => (
          <div key={i} className="flex gap-2">
            <input
              aria-label={t("attributeName", { number: i + 1 })}
              placeholder={t("namePlaceholder")}
              value={row.key}
              maxLength={64}
              onChange={(e) => setRows((list) => list.map((r, j) => (j === i ? { ...r, key: e.target.value } : r)))}
              className="w-2/5 min-w-0 rounded-md border border-slate-300 px-2 py-1.5 text-sm"
            />
            <input
              aria-label={t("attributeValue", { number: i + 1 })}
              placeholder={t("valuePlaceholder")}
              value={row.value}
              maxLength={1000}
              onChange={(e) => setRows((list) => list.map((r, j) => (j === i ? { ...r, value: e.target.value } : r)))}
              className="min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1.5 text-sm"
            />
            <Button type="button" variant="ghost" className="px-2" aria-label={t("removeAttribute", { name: row.key || String(i + 1) })} onClick={() => setRows((list) => list.filter((_, j) => j !== i))}>
              ×
            </Button>
          </div>
        ))}
        {attributeError ? <p className="text-xs text-red-600">{attributeError}</p> : null}
        {rows.length < 50 ? (
          <Button type="button" variant="ghost" className="self-start px-2 py-1" onClick={() => setRows((list) => [...list, { key: "", value: "" }])}>
            {t("addAttribute")}
          </Button>
        ) : null}
      </fieldset>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={saving !== null}>
          {saving === "save" ? t("saving") : t("save")}
        </Button>
        <Button type="button" variant={contact.blocked ? "secondary" : "danger"} disabled={saving !== null} onClick={() => void patch({ blocked: !contact.blocked }, "block")}>
          {saving === "block" ? (contact.blocked ? t("unblocking") : t("blocking")) : contact.blocked ? t("unblock") : t("block")}
        </Button>
        {message ? (
          <span role={message.tone === "error" ? "alert" : "status"} className={`text-sm ${message.tone === "error" ? "text-red-700" : "text-emerald-700"}`}>
            {message.text}
          </span>
        ) : null}
      </div>
    </form>
  );
}
