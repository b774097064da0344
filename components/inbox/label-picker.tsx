"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";
import { Popover } from "./popover";
import type { ConversationItem } from "./types";
import { useLabels } from "./use-labels";

/** The conversation header's Labels menu: tick a label on or off; the change is saved at once and the menu closes. */
export function LabelPicker({ conversation, onConversation }: { conversation: ConversationItem; onConversation: (c: ConversationItem) => void }) {
  const t = useTranslations("inbox.labels");
  const l = useTranslations("inboxTools.labels");
  const apiError = useApiErrorMessage();
  const [open, setOpen] = useState(false);
  const [reload, setReload] = useState(0);
  // Fetched when the menu opens, so a label made a moment ago is there.
  const { labels, loading, error: loadError } = useLabels(reload, open);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  // Ticked at once; the answer (or a failure) settles it.
  const [pending, setPending] = useState<string[] | null>(null);
  const current = new Set(pending ?? (conversation.labels ?? []).map((l) => l.id));

  async function toggle(id: string) {
    const next = current.has(id) ? [...current].filter((x) => x !== id) : [...current, id];
    setSaving(true);
    setPending(next);
    setError(undefined);
    const result = await requestJson<ConversationItem>("PUT", `/v1/conversations/${conversation.id}/labels`, { label_ids: next });
    setSaving(false);
    setPending(null);
    // A choice closes the menu; a failure keeps it open with the reason.
    if (result.ok) {
      onConversation(result.data);
      setOpen(false);
    } else setError(result.status === 400 ? l("gone") : apiError(result));
    if (!result.ok && result.status === 400) setReload((n) => n + 1);
  }

  return (
    <div className="relative">
      <Button type="button" variant="secondary" data-popover-trigger aria-expanded={open} onClick={() => setOpen((o) => !o)} className="px-2.5 py-1.5">
        {t("button")}
      </Button>
      <Popover open={open} onClose={() => setOpen(false)} label={l("title")}>
        <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{l("title")}</p>
        {loading ? <p className="text-sm text-slate-500">{l("loading")}</p> : null}
        {loadError ? <p className="text-sm text-red-700">{l("loadError", { error: loadError })}</p> : null}
        {!loading && !loadError && labels.length === 0 ? (
          <p className="text-sm text-slate-600">
            {l.rich("none", {
              link: (chunks) => (
                <Link href="/settings/labels" className="text-brand-700 underline">
                  {chunks}
                </Link>
              ),
            })}
          </p>
        ) : null}
        <ul className="flex flex-col gap-1">
          {labels.map((label) => (
            <li key={label.id}>
              <label className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 text-sm hover:bg-slate-50">
                <input type="checkbox" checked={current.has(label.id)} disabled={saving} onChange={() => void toggle(label.id)} />
                <span aria-hidden className="h-3 w-3 rounded-full" style={{ backgroundColor: label.color }} />
                <span className="truncate" data-user-content>
                  {label.name}
                </span>
              </label>
            </li>
          ))}
        </ul>
        {saving ? <p className="mt-2 text-xs text-slate-500" role="status">{l("saving")}</p> : null}
        {error ? <p className="mt-2 text-xs text-red-700" role="alert">{error}</p> : null}
      </Popover>
    </div>
  );
}
