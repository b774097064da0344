"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";
import type { MacroOutput, MacroRunOutput } from "@/lib/automations/schemas";
import { Popover } from "./popover";
import type { ConversationItem } from "./types";

/**
 * The conversation's Macros menu: the account's macros and the user's own, each run in one
 * click. The list is fetched when the menu opens, so a macro saved a moment ago is there.
 */
export function MacroMenu({ conversation, onConversation }: { conversation: ConversationItem; onConversation: (c: ConversationItem) => void }) {
  const t = useTranslations("inbox.macros");
  const m = useTranslations("inboxTools.macros");
  const apiError = useApiErrorMessage();
  const [open, setOpen] = useState(false);
  const [macros, setMacros] = useState<MacroOutput[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [note, setNote] = useState<{ tone: "ok" | "error"; text: string }>();

  async function toggle() {
    const next = !open;
    setOpen(next);
    setNote(undefined);
    if (!next) return;
    const result = await requestJson<{ data: MacroOutput[] }>("GET", "/v1/macros?limit=100");
    setMacros(result.ok ? result.data.data : []);
    if (!result.ok) setNote({ tone: "error", text: apiError(result) });
  }

  async function run(macro: MacroOutput) {
    setBusy(macro.id);
    setNote(undefined);
    const result = await requestJson<MacroRunOutput>("POST", `/v1/conversations/${conversation.id}/macros/${macro.id}`);
    if (result.ok) {
      const fresh = await requestJson<ConversationItem>("GET", `/v1/conversations/${conversation.id}`);
      if (fresh.ok) onConversation(fresh.data);
      const skipped = result.data.actions.filter((a) => a.result === "skipped").length;
      setNote({ tone: "ok", text: skipped ? m("ranSkipped", { name: macro.name, count: skipped }) : m("ran", { name: macro.name }) });
    } else setNote({ tone: "error", text: apiError(result) });
    setBusy(null);
  }

  return (
    <div className="relative">
      <Button type="button" variant="secondary" data-popover-trigger aria-expanded={open} onClick={() => void toggle()} className="px-2.5 py-1.5">
        {t("button")}
      </Button>
      <Popover open={open} onClose={() => setOpen(false)} label={t("button")}>
        <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{m("title")}</p>
        {macros === null ? <p className="text-sm text-slate-500">{m("loading")}</p> : null}
        {macros?.length === 0 ? (
          <p className="text-sm text-slate-500">
            {m.rich("none", {
              link: (chunks) => (
                <a className="underline" href="/settings/macros">
                  {chunks}
                </a>
              ),
            })}
          </p>
        ) : null}
        <ul className="flex flex-col">
          {(macros ?? []).map((macro) => (
            <li key={macro.id}>
              <button
                type="button"
                disabled={Boolean(busy)}
                onClick={() => void run(macro)}
                className="flex min-h-11 w-full items-center justify-between rounded px-2 py-1.5 text-left text-sm hover:bg-slate-50 disabled:text-slate-400 sm:min-h-0"
              >
                <span>{busy === macro.id ? m("running") : <span data-user-content>{macro.name}</span>}</span>
                <span className="text-xs text-slate-500">{macro.visibility === "account" ? m("everyone") : m("mine")}</span>
              </button>
            </li>
          ))}
        </ul>
        {note ? (
          <p role={note.tone === "error" ? "alert" : "status"} className={`mt-2 text-xs ${note.tone === "error" ? "text-red-700" : "text-emerald-700"}`}>
            {note.text}
          </p>
        ) : null}
      </Popover>
    </div>
  );
}
