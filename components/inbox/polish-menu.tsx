"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { useDismiss } from "@/components/ui/use-dismiss";
import { requestJson } from "@/lib/client/api";

const styles = [
  { value: "concise", label: "concise", hint: "conciseHint" },
  { value: "normal", label: "normal", hint: "normalHint" },
  { value: "explanatory", label: "explanatory", hint: "explanatoryHint" },
] as const;
type Style = (typeof styles)[number]["value"];
type Result = { state: "loading" } | { state: "done"; text: string; engine: "rules" | "llm" } | { state: "error"; message: string };

/**
 * The composer's Polish menu: previews the draft in the three styles (POST /v1/messages/polish,
 * signed in by the browser cookie) and hands the chosen version back to the composer.
 */
export function PolishMenu({
  text,
  onApply,
  disabled = false,
  conversationId,
}: {
  text: string;
  onApply: (polished: string) => void;
  disabled?: boolean;
  /** The contact of this conversation has their name written with its capitals. */
  conversationId?: string;
}) {
  const t = useTranslations("inbox.polish");
  const p = useTranslations("inboxTools.polish");
  const apiError = useApiErrorMessage();
  const [open, setOpen] = useState(false);
  const [style, setStyle] = useState<Style>("normal");
  const [results, setResults] = useState<Partial<Record<Style, Result & { source: string }>>>({});
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  const empty = text.trim().length === 0;

  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, root, close);
  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLElement>("[aria-checked=true]")?.focus();
  }, [open]);

  function start() {
    setOpen(true);
    const source = text;
    setResults(Object.fromEntries(styles.map((s) => [s.value, { state: "loading", source }])));
    for (const { value } of styles) {
      requestJson<{ text: string; engine: "rules" | "llm" }>("POST", "/v1/messages/polish", { text: source, style: value, ...(conversationId ? { conversation_id: conversationId } : {}) }).then((response) => {
        const result: Result = response.ok ? { state: "done", text: response.data.text, engine: response.data.engine } : { state: "error", message: apiError(response) };
        // A preview of an older draft is dropped: the menu always shows the text being written.
        setResults((current) => (current[value]?.source === source ? { ...current, [value]: { ...result, source } } : current));
      });
    }
  }

  const current = results[style];
  return (
    <div className="relative" ref={root}>
      <Button
        type="button"
        variant="secondary"
        disabled={disabled || empty}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        onClick={() => (open ? setOpen(false) : start())}
        title={empty ? t("empty") : undefined}
      >
        {t("button")}
      </Button>
      {open ? (
        <div
          ref={panel}
          id={`${id}-panel`}
          role="dialog"
          aria-label={t("dialog")}
          className="absolute bottom-full right-0 z-30 mb-2 flex w-[min(28rem,calc(100vw-2rem))] flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-lg max-sm:fixed max-sm:inset-x-2 max-sm:bottom-20 max-sm:mb-0 max-sm:max-h-[calc(100dvh-7rem)] max-sm:w-auto max-sm:overflow-y-auto"
        >
          <div role="radiogroup" aria-label={p("style")} className="flex flex-wrap gap-1">
            {styles.map((s) => (
              <button
                key={s.value}
                type="button"
                role="radio"
                aria-checked={style === s.value}
                title={p(s.hint)}
                onClick={() => setStyle(s.value)}
                className={`rounded-md px-3 py-1.5 text-sm font-medium ${style === s.value ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`}
              >
                {p(s.label)}
              </button>
            ))}
          </div>
          <p className="text-xs text-slate-500">{p(styles.find((s) => s.value === style)?.hint ?? "normalHint")}</p>
          <div aria-live="polite" aria-busy={current?.state === "loading"} className="max-h-64 min-h-16 overflow-y-auto rounded-md bg-slate-50 px-3 py-2 text-sm whitespace-pre-wrap text-slate-800">
            {!current || current.state === "loading" ? <span className="text-slate-500">{p("working")}</span> : current.state === "error" ? <span className="text-red-600">{current.message}</span> : current.text}
          </div>
          <div className="flex items-center justify-between gap-2">
            <span className="text-xs text-slate-500">{current?.state === "done" ? (current.engine === "llm" ? p("llm") : p("rules")) : ""}</span>
            <div className="flex gap-2">
              <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
                {p("cancel")}
              </Button>
              <Button
                type="button"
                disabled={current?.state !== "done"}
                onClick={() => {
                  if (current?.state !== "done") return;
                  onApply(current.text);
                  setOpen(false);
                }}
              >
                {p("apply")}
              </Button>
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}
