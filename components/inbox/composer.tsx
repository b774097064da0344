"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { Button } from "@/components/ui/button";
import { useHydrated } from "@/components/ui/hooks";
import { PaperclipIcon } from "@/components/ui/icons";
import { MAX_JSON_MEDIA_BYTES, mediaLimits, type MediaType } from "@/lib/messages/media-limits";
import { useCannedSuggest } from "./canned-suggest";
import { COMPOSER_INSERT_EVENT, type ComposerInsertDetail } from "./knowledge-suggestions";
import { addToOutbox, deliver } from "./outbox";
import { PolishMenu } from "./polish-menu";
import { useTypingAnnouncer } from "./typing";
import type { ConversationItem, MessageItem, Teammate } from "./types";
import { useDraft } from "./use-drafts";

type Attachment = { file: File; type: MediaType; data: string };

/** Why a file cannot be sent: a key of the `inbox.composer.file` catalog namespace, and its values. */
export type FileProblem =
  | { key: "unsupported"; name: string; mime: string }
  | { key: "tooLarge"; name: string; type: MediaType; size: number; limit: number }
  | { key: "tooLargeForInbox"; name: string; size: number; limit: number };

/** The WhatsApp message type for a file, from its MIME type, or why it cannot be sent. */
function pickMediaType(file: File): { type: MediaType } | { error: FileProblem } {
  const mime = file.type.toLowerCase();
  const type = (Object.keys(mediaLimits) as MediaType[]).find((t) => (mediaLimits[t].mimeTypes as readonly string[]).includes(mime));
  if (!type) return { error: { key: "unsupported", name: file.name, mime } };
  // Refused before upload, with the network's limit.
  if (file.size > mediaLimits[type].maxBytes) return { error: { key: "tooLarge", name: file.name, type, size: file.size, limit: mediaLimits[type].maxBytes } };
  // The request carries the file as Base64 in a body of at most 32 MiB.
  if (file.size > MAX_JSON_MEDIA_BYTES) return { error: { key: "tooLargeForInbox", name: file.name, size: file.size, limit: MAX_JSON_MEDIA_BYTES } };
  return { type };
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(",")[1] ?? "");
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export function Composer({
  me,
  conversation,
  onQueued,
  onReplace,
  context,
  onSent,
  moreOpen = false,
  onMore,
}: {
  me?: Teammate;
  conversation: ConversationItem;
  onQueued: (message: MessageItem) => void;
  onReplace: (localId: string, message: MessageItem) => void;
  /** The message this one replies to (quoted). */
  context?: { message_id: string };
  onSent?: () => void;
  /** On a phone: whether the secondary actions (Polish, kinds, notes) are shown. */
  moreOpen?: boolean;
  /** On a phone: the ⋯ button that shows or hides them. Without it the reply box is as on a desktop. */
  onMore?: () => void;
}) {
  // The words and the chosen file's name live in the conversation's draft, which survives reloads.
  const t = useTranslations("inbox.composer");
  const format = useAppFormat();
  // Words typed before the page's script runs would be lost; the box takes them once it does.
  const hydrated = useHydrated();
  const { draft, change, startOver } = useDraft(conversation.id);
  const text = draft.text;
  const setText = (value: string) => change({ text: value });
  const [attachment, setAttachmentState] = useState<Attachment>();
  const setAttachment = (value: Attachment | undefined) => {
    setAttachmentState(value);
    change({ fileName: value?.file.name ?? null });
  };
  // A file chosen before a reload: its name is kept, its bytes must be chosen again.
  const lostFile = !attachment && draft.fileName ? draft.fileName : null;
  const [problem, setProblem] = useState<string>();
  const fileInput = useRef<HTMLInputElement>(null);
  const canned = useCannedSuggest({ text, setText, conversation, agentName: me?.name ?? "" });
  const announceTyping = useTypingAnnouncer(conversation.id);

  const latestText = useRef(text);
  useEffect(() => {
    latestText.current = text;
  }, [text]);
  // A suggested answer ("From your documents") joins what is already typed.
  useEffect(() => {
    const onInsert = (event: Event) => {
      const { conversationId, text: inserted } = (event as CustomEvent<ComposerInsertDetail>).detail;
      if (conversationId !== conversation.id) return;
      const current = latestText.current;
      change({ text: current.trim() ? `${current.trimEnd()}\n${inserted}` : inserted });
      document.getElementById("composer-text")?.focus();
    };
    window.addEventListener(COMPOSER_INSERT_EVENT, onInsert);
    return () => window.removeEventListener(COMPOSER_INSERT_EVENT, onInsert);
  }, [conversation.id, change]);

  async function onFile(file: File | undefined) {
    setProblem(undefined);
    if (!file) return;
    const picked = pickMediaType(file);
    if ("error" in picked) {
      const problem = picked.error;
      setProblem(
        problem.key === "unsupported"
          ? t("file.unsupported", { name: problem.name, mime: problem.mime || "?" })
          : problem.key === "tooLarge"
            ? t("file.tooLarge", { name: problem.name, type: problem.type, size: format.bytes(problem.size), limit: format.bytes(problem.limit) })
            : t("file.tooLargeForInbox", { name: problem.name, size: format.bytes(problem.size), limit: format.bytes(problem.limit) }),
      );
      if (fileInput.current) fileInput.current.value = "";
      return;
    }
    setAttachment({ file, type: picked.type, data: await readBase64(file) });
  }

  function send() {
    const body = text.trim();
    if (!body && !attachment) return;
    // Audio carries no caption on the network: typed text stays in the box for its own message.
    const caption = attachment && attachment.type !== "audio" ? body : "";
    const payload: Record<string, unknown> = { conversation_id: conversation.id, ...(context ? { context } : {}) };
    if (attachment) {
      payload.type = attachment.type;
      payload.media = {
        mime_type: attachment.file.type,
        data: attachment.data,
        ...(attachment.type === "document" ? { filename: attachment.file.name } : {}),
        ...(caption ? { caption } : {}),
      };
    } else {
      payload.type = "text";
      payload.text = body;
    }
    const localId = `local_${crypto.randomUUID()}`;
    // The draft's key: a retry of this reply, even after a reload, is stored once.
    const idempotencyKey = draft.idempotencyKey;
    const pending: MessageItem = {
      id: localId,
      conversation_id: conversation.id,
      direction: "outbound",
      from: "",
      to: conversation.contact.phone ?? conversation.contact.network_user_id ?? "",
      type: payload.type as MessageItem["type"],
      ...(attachment ? { media: { mime_type: attachment.file.type, filename: attachment.file.name, size: attachment.file.size, ...(caption ? { caption } : {}) } } : { text: body }),
      status: "queued",
      sender: { type: "user" },
      timestamp: new Date().toISOString(),
      ...(context ? { context } : {}),
      local: { state: "sending" },
    };
    addToOutbox({ localId, conversationId: conversation.id, idempotencyKey, body: JSON.stringify(payload), message: pending });
    onQueued(pending);
    onSent?.();
    // Audio carries no caption: its typed text stays as the next draft.
    startOver(attachment && !caption ? text : "");
    setAttachmentState(undefined);
    if (fileInput.current) fileInput.current.value = "";
    void deliver(localId).then((stored) => {
      if (stored) onReplace(localId, stored);
    });
  }

  return (
    <div className="border-t border-slate-200 bg-white p-3 max-md:px-2 max-md:py-2">
      {problem ? (
        <p role="alert" className="mb-2 rounded-md bg-amber-50 px-3 py-1.5 text-xs text-amber-900">
          {problem}
        </p>
      ) : null}
      {attachment ? (
        <div className="mb-2 flex items-center gap-2 rounded-md bg-slate-100 px-3 py-1.5 text-xs">
          <span className="truncate">
            <PaperclipIcon className="me-1 inline h-3.5 w-3.5" />
            <span data-user-content>{attachment.file.name}</span> · {t("file.attached", { type: attachment.type, size: format.bytes(attachment.file.size) })}
          </span>
          <button type="button" className="ms-auto underline" onClick={() => setAttachment(undefined)}>
            {t("remove")}
          </button>
        </div>
      ) : lostFile ? (
        <div className="mb-2 flex items-center gap-2 rounded-md bg-amber-50 px-3 py-1.5 text-xs text-amber-900" data-testid="draft-file">
          <span className="truncate">
            <PaperclipIcon className="me-1 inline h-3.5 w-3.5" />
            {t.rich("file.lost", { name: lostFile, file: (chunks) => <span data-user-content>{chunks}</span> })}
          </span>
          <label htmlFor="composer-file" className="ms-auto shrink-0 cursor-pointer font-semibold underline">
            {t("attachAgain")}
          </label>
          <button type="button" className="shrink-0 underline" onClick={() => change({ fileName: null })}>
            {t("remove")}
          </button>
        </div>
      ) : null}
      <div className="relative flex items-end gap-2 max-md:gap-1.5">
        {canned.popover}
        {onMore ? (
          <button
            type="button"
            onClick={onMore}
            aria-expanded={moreOpen}
            aria-label={t("more")}
            className="inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center rounded-md border border-slate-300 text-lg leading-none text-slate-700 hover:bg-slate-50 md:hidden"
          >
            ⋯
          </button>
        ) : null}
        <input ref={fileInput} type="file" className="sr-only" id="composer-file" onChange={(e) => void onFile(e.target.files?.[0])} />
        <label
          htmlFor="composer-file"
          className="inline-flex shrink-0 cursor-pointer items-center justify-center rounded-md border border-slate-300 px-2.5 py-2 text-sm text-slate-700 hover:bg-slate-50 max-md:min-h-11 max-md:min-w-11"
          title={t("attach")}
        >
          <PaperclipIcon className="h-5 w-5" />
          <span className="sr-only">{t("attach")}</span>
        </label>
        <label htmlFor="composer-text" className="sr-only">
          {t("reply")}
        </label>
        <textarea
          id="composer-text"
          rows={1}
          readOnly={!hydrated}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            announceTyping();
          }}
          onKeyDown={(e) => {
            if (canned.onKeyDown(e)) return;
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
          placeholder={attachment?.type === "audio" ? t("placeholder.audio") : attachment ? t("placeholder.caption") : t("placeholder.text")}
          className="max-h-40 min-h-10 min-w-0 flex-1 resize-y rounded-md border border-slate-300 px-3 py-2 text-sm max-md:min-h-11 max-md:resize-none max-md:placeholder:overflow-hidden max-md:placeholder:text-ellipsis max-md:placeholder:whitespace-nowrap"
        />
        <div className={`shrink-0 ${onMore && !moreOpen ? "max-md:hidden" : ""}`}>
          <PolishMenu text={text} onApply={setText} conversationId={conversation.id} />
        </div>
        <Button type="button" onClick={send} disabled={!text.trim() && !attachment} className="shrink-0 max-md:min-h-11">
          {t("send")}
        </Button>
      </div>
    </div>
  );
}
