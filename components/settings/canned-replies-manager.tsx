"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { createCannedReplyAction, deleteCannedReplyAction, updateCannedReplyAction } from "@/app/(app)/settings/canned-replies/actions";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import type { CannedReplyOutput } from "@/lib/canned-replies/schemas";

type CannedReply = CannedReplyOutput;

function ReplyForm({
  initial,
  submitLabel,
  pendingLabel,
  onSubmit,
  onCancel,
  idPrefix,
}: {
  initial?: CannedReply;
  submitLabel: string;
  pendingLabel: string;
  onSubmit: (input: { shortcut: string; text: string }) => Promise<{ ok: true } | { ok: false; status: number; code: string; fieldErrors: Record<string, string> }>;
  onCancel?: () => void;
  idPrefix: string;
}) {
  const [shortcut, setShortcut] = useState(initial?.shortcut ?? "");
  const [text, setText] = useState(initial?.text ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
  const [pending, startTransition] = useTransition();
  const t = useTranslations("settingsCannedReplies");
  const errorMessage = useApiErrorMessage();

  function submit(event: React.FormEvent) {
    event.preventDefault();
    startTransition(async () => {
      setErrors({});
      setMessage(undefined);
      const input = { shortcut: shortcut.trim().toLowerCase(), text };
      const result = await onSubmit(input);
      if (result.ok) {
        if (!initial) {
          setShortcut("");
          setText("");
        }
      } else {
        setErrors(result.fieldErrors);
        setMessage(result.status === 409 ? t("duplicate", { shortcut: input.shortcut }) : errorMessage(result));
      }
    });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label={submitLabel}>
      {message ? <Alert>{message}</Alert> : null}
      <Field
        id={`${idPrefix}-shortcut`}
        label={t("shortcut")}
        name="shortcut"
        value={shortcut}
        onChange={(e) => setShortcut(e.target.value.toLowerCase())}
        error={errors.shortcut}
        hint={t("shortcutHint")}
        maxLength={32}
        required
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={`${idPrefix}-text`} className="text-sm font-medium text-slate-700">
          {t("text")}
        </label>
        <textarea
          id={`${idPrefix}-text`}
          name="text"
          rows={4}
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={4096}
          required
          aria-invalid={errors.text ? true : undefined}
          aria-describedby={`${idPrefix}-text-hint`}
          className={`rounded-md border bg-white px-3 py-2 text-sm shadow-sm ${errors.text ? "border-red-400" : "border-slate-300"}`}
        />
        <p id={`${idPrefix}-text-hint`} className={`text-xs ${errors.text ? "text-red-600" : "text-slate-500"}`}>
          {errors.text ?? t("textHint", { count: text.length, max: 4096, placeholders: "{{contact.name}}, {{agent.name}}, {{business.name}}" })}
        </p>
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel} disabled={pending}>
            {t("cancel")}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

export function CannedRepliesManager({ replies, canEdit }: { replies: CannedReply[]; canEdit: boolean }) {
  const [editing, setEditing] = useState<string>();
  const [confirming, setConfirming] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [pending, startTransition] = useTransition();
  const t = useTranslations("settingsCannedReplies");
  const errorMessage = useApiErrorMessage();

  function remove(id: string) {
    startTransition(async () => {
      setProblem(undefined);
      const result = await deleteCannedReplyAction(id);
      if (!result.ok) setProblem(errorMessage(result));
      setConfirming(undefined);
    });
  }

  return (
    <div className="flex flex-col gap-6">
      {canEdit ? (
        <Card>
          <h2 className="mb-3 text-base font-semibold">{t("new")}</h2>
          <ReplyForm idPrefix="new-canned" submitLabel={t("add")} pendingLabel={t("adding")} onSubmit={(input) => createCannedReplyAction(input)} />
        </Card>
      ) : (
        <Alert tone="info">{t("adminOnly")}</Alert>
      )}
      {problem ? <Alert>{problem}</Alert> : null}
      <Card>
        <h2 className="mb-3 text-base font-semibold">
          {t("count", { count: replies.length })}
        </h2>
        {replies.length === 0 ? <p className="text-sm text-slate-500">{canEdit ? t("noneAdmin") : t("none")}</p> : null}
        <ul className="divide-y divide-slate-100" aria-label={t("list")}>
          {replies.map((reply) => (
            <li key={reply.id} className="py-3" data-testid="canned-reply" data-shortcut={reply.shortcut}>
              {editing === reply.id ? (
                <ReplyForm
                  idPrefix={`edit-${reply.id}`}
                  initial={reply}
                  submitLabel={t("save")}
                  pendingLabel={t("saving")}
                  onCancel={() => setEditing(undefined)}
                  onSubmit={async (input) => {
                    const result = await updateCannedReplyAction(reply.id, input);
                    if (result.ok) setEditing(undefined);
                    return result;
                  }}
                />
              ) : (
                <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
                  <div className="min-w-0 flex-1">
                    <p className="font-mono text-sm font-semibold text-brand-700" data-user-content>/{reply.shortcut}</p>
                    <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-700" data-user-content>{reply.text}</p>
                  </div>
                  {canEdit ? (
                    <div className="flex shrink-0 gap-2">
                      {confirming === reply.id ? (
                        <>
                          <Button type="button" variant="danger" onClick={() => remove(reply.id)} disabled={pending}>
                            {pending ? t("deleting") : t("deleteShortcut", { shortcut: reply.shortcut })}
                          </Button>
                          <Button type="button" variant="secondary" onClick={() => setConfirming(undefined)} disabled={pending}>
                            {t("keep")}
                          </Button>
                        </>
                      ) : (
                        <>
                          <Button type="button" variant="secondary" onClick={() => setEditing(reply.id)}>
                            {t("edit")}
                          </Button>
                          <Button type="button" variant="ghost" onClick={() => setConfirming(reply.id)} aria-label={t("deleteShortcut", { shortcut: reply.shortcut })}>
                            {t("delete")}
                          </Button>
                        </>
                      )}
                    </div>
                  ) : null}
                </div>
              )}
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
