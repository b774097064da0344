"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { PaperclipIcon } from "@/components/ui/icons";
import { requestJson } from "@/lib/client/api";
import { mediaLimits, type MediaType } from "@/lib/messages/media-limits";
import type { ConversationItem, MessageItem } from "./types";

type Attachment = { file: File; type: MediaType; data: string };
type PolishStyle = "normal" | "concise" | "explanatory";

const styles: { id: PolishStyle; label: string; hint: string }[] = [
  { id: "normal", label: "Fix", hint: "Spelling, spacing, capitals and chat abbreviations" },
  { id: "concise", label: "Shorter", hint: "Drop greetings and filler, keep every fact" },
  { id: "explanatory", label: "Friendlier", hint: "Courteous opening and closing with your business name" },
];

/** The WhatsApp message type for a file, from its MIME type, or an explanation of why it cannot be sent. */
export function pickMediaType(file: File): { type: MediaType } | { error: string } {
  const mime = file.type.toLowerCase();
  const type = (Object.keys(mediaLimits) as MediaType[]).find((t) => (mediaLimits[t].mimeTypes as readonly string[]).includes(mime));
  if (!type) return { error: `${file.name}: files of type ${mime || "unknown"} cannot be sent. Send images (JPEG, PNG), audio, MP4/3GPP video, or PDF, Office and text documents.` };
  const max = mediaLimits[type].maxBytes;
  if (file.size > max) return { error: `${file.name} is ${(file.size / 1048576).toFixed(1)} MB; ${type} files can be at most ${max / 1048576} MB.` };
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
  conversation,
  onQueued,
  onReplace,
}: {
  conversation: ConversationItem;
  onQueued: (message: MessageItem) => void;
  onReplace: (localId: string, message: MessageItem) => void;
}) {
  const [text, setText] = useState("");
  const [attachment, setAttachment] = useState<Attachment>();
  const [problem, setProblem] = useState<string>();
  const [polishing, setPolishing] = useState<PolishStyle>();
  const [preview, setPreview] = useState<{ style: PolishStyle; text: string; engine: string }>();
  const [menuOpen, setMenuOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  async function onFile(file: File | undefined) {
    setProblem(undefined);
    if (!file) return;
    const picked = pickMediaType(file);
    if ("error" in picked) {
      setProblem(picked.error);
      if (fileInput.current) fileInput.current.value = "";
      return;
    }
    setAttachment({ file, type: picked.type, data: await readBase64(file) });
  }

  function send() {
    const body = text.trim();
    if (!body && !attachment) return;
    const payload: Record<string, unknown> = { to: conversation.contact.phone, conversation_id: conversation.id };
    if (attachment) {
      payload.type = attachment.type;
      payload.media = {
        mime_type: attachment.file.type,
        data: attachment.data,
        ...(attachment.type === "document" ? { filename: attachment.file.name } : {}),
        ...(body && attachment.type !== "audio" ? { caption: body } : {}),
      };
    } else {
      payload.type = "text";
      payload.text = body;
    }
    const localId = `local_${crypto.randomUUID()}`;
    // The same key on a retry makes a resend of an already-accepted message harmless.
    const idempotencyKey = crypto.randomUUID();
    const draft: MessageItem = {
      id: localId,
      conversation_id: conversation.id,
      direction: "outbound",
      from: "",
      to: conversation.contact.phone,
      type: payload.type as MessageItem["type"],
      text: attachment ? null : body,
      media: attachment ? { mime_type: attachment.file.type, filename: attachment.file.name, size: attachment.file.size, caption: body || null } : null,
      status: "queued",
      sender: { type: "user" },
      timestamp: new Date().toISOString(),
      local: { state: "sending" },
    };
    const attempt = async () => {
      onReplace(localId, { ...draft, local: { state: "sending" } });
      const response = await fetch("/v1/messages", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
        body: JSON.stringify(payload),
      }).catch(() => null);
      if (response?.ok) {
        onReplace(localId, (await response.json()) as MessageItem);
        return;
      }
      const error = response ? ((await response.json().catch(() => null)) as { error?: { message?: string } } | null) : null;
      onReplace(localId, {
        ...draft,
        local: { state: "error", message: error?.error?.message ?? "Could not reach the server.", retry: () => void attempt() },
      });
    };
    onQueued(draft);
    setText("");
    setAttachment(undefined);
    setPreview(undefined);
    if (fileInput.current) fileInput.current.value = "";
    void attempt();
  }

  async function polish(style: PolishStyle) {
    setMenuOpen(false);
    if (!text.trim()) {
      setProblem("Write a reply first, then polish it.");
      return;
    }
    setProblem(undefined);
    setPolishing(style);
    const result = await requestJson<{ text: string; style: PolishStyle; engine: string }>("POST", "/v1/messages/polish", { text, style });
    setPolishing(undefined);
    if (result.ok) setPreview({ style, text: result.data.text, engine: result.data.engine });
    else setProblem(result.status === 404 ? "Polishing is not available yet." : result.message);
  }

  return (
    <div className="border-t border-slate-200 bg-white p-3">
      {problem ? (
        <p role="alert" className="mb-2 rounded-md bg-amber-50 px-3 py-1.5 text-xs text-amber-900">
          {problem}
        </p>
      ) : null}
      {preview ? (
        <div className="mb-2 rounded-md border border-brand-200 bg-brand-50 p-3" role="region" aria-label="Polished preview">
          <p className="text-xs font-semibold text-brand-700">
            Polished ({styles.find((s) => s.id === preview.style)?.label}, {preview.engine === "llm" ? "AI" : "rules"})
          </p>
          <p className="mt-1 whitespace-pre-wrap text-sm" data-testid="polish-preview">
            {preview.text}
          </p>
          <div className="mt-2 flex gap-2">
            <Button
              type="button"
              onClick={() => {
                setText(preview.text);
                setPreview(undefined);
              }}
            >
              Use this
            </Button>
            <Button type="button" variant="secondary" onClick={() => setPreview(undefined)}>
              Keep mine
            </Button>
          </div>
        </div>
      ) : null}
      {attachment ? (
        <div className="mb-2 flex items-center gap-2 rounded-md bg-slate-100 px-3 py-1.5 text-xs">
          <span className="truncate">
            <PaperclipIcon className="mr-1 inline h-3.5 w-3.5" />
            {attachment.file.name} · {attachment.type} · {(attachment.file.size / 1024).toFixed(0)} KB
          </span>
          <button type="button" className="ml-auto underline" onClick={() => setAttachment(undefined)}>
            Remove
          </button>
        </div>
      ) : null}
      <div className="flex items-end gap-2">
        <input ref={fileInput} type="file" className="sr-only" id="composer-file" onChange={(e) => void onFile(e.target.files?.[0])} />
        <label htmlFor="composer-file" className="cursor-pointer rounded-md border border-slate-300 px-2.5 py-2 text-sm text-slate-700 hover:bg-slate-50" title="Attach a file">
          <PaperclipIcon className="h-5 w-5" />
          <span className="sr-only">Attach a file</span>
        </label>
        <label htmlFor="composer-text" className="sr-only">
          Reply
        </label>
        <textarea
          id="composer-text"
          rows={1}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
          placeholder={attachment ? "Add a caption (optional)" : "Write a reply — Enter sends, Shift+Enter for a new line"}
          className="max-h-40 min-h-10 flex-1 resize-y rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
        <div className="relative">
          <Button type="button" variant="secondary" aria-haspopup="menu" aria-expanded={menuOpen} onClick={() => setMenuOpen((o) => !o)} disabled={Boolean(polishing)}>
            {polishing ? "Polishing…" : "Polish"}
          </Button>
          {menuOpen ? (
            <ul role="menu" aria-label="Polish style" className="absolute bottom-full right-0 z-10 mb-2 w-64 rounded-md border border-slate-200 bg-white p-1 shadow-lg">
              {styles.map((s) => (
                <li key={s.id} role="none">
                  <button type="button" role="menuitem" onClick={() => void polish(s.id)} className="w-full rounded px-3 py-2 text-left hover:bg-slate-50">
                    <span className="block text-sm font-medium">{s.label}</span>
                    <span className="block text-xs text-slate-500">{s.hint}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <Button type="button" onClick={send} disabled={!text.trim() && !attachment}>
          Send
        </Button>
      </div>
    </div>
  );
}
