import { useTranslations } from "next-intl";
import { memo } from "react";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { ClockIcon, DocumentIcon, TicksIcon } from "@/components/ui/icons";
import { KindContent, Reactions, TemplateExtras, useQuoteLine } from "./message-kinds";
import type { MessageItem, Teammate } from "./types";
import { UnsentNotice } from "./unsent-notice";

function Ticks({ message }: { message: MessageItem }) {
  const t = useTranslations("inbox.thread");
  if (message.local?.state === "error") return null;
  if (message.local?.state === "waiting") {
    return (
      <span className="inline-flex items-center gap-1" data-status="waiting">
        <ClockIcon />
        {t("waitingForNetwork")}
      </span>
    );
  }
  if (message.local?.state === "sending") {
    return (
      <span className="inline-flex items-center gap-1" data-status="sending">
        <ClockIcon />
        {t("sending")}
      </span>
    );
  }
  if (message.status === "queued") {
    return (
      <span role="img" aria-label={t("status.queued")} title={t("status.queued")} data-status="queued">
        <ClockIcon />
      </span>
    );
  }
  if (message.status === "failed") return null;
  const key = { sent: "status.sent", delivered: "status.delivered", read: "status.read" }[message.status as "sent" | "delivered" | "read"];
  if (!key) return null;
  const label = t(key);
  return (
    <span role="img" aria-label={label} title={label} data-status={message.status} className={message.status === "read" ? "text-sky-600" : "text-slate-500"}>
      <TicksIcon double={message.status !== "sent"} className="inline h-3 w-4" />
    </span>
  );
}

function Media({ message }: { message: MessageItem }) {
  const t = useTranslations("inbox.thread");
  const format = useAppFormat();
  const formatSize = (bytes?: number) => (bytes === undefined ? "" : format.bytes(bytes));
  const media = message.media;
  // A template's file is its header (KindContent).
  if (message.type === "template") return null;
  if (!media) {
    // A file that was never stored here: a customer's media the network would not hand over,
    // or one sent from the business app. The message says so instead of showing nothing.
    if (!["image", "document", "audio", "video", "sticker"].includes(message.type)) return null;
    return (
      <p className="flex items-center gap-2 rounded-md border border-dashed border-slate-300 px-3 py-2 text-xs text-slate-600" data-testid="media-missing">
        <DocumentIcon className="h-5 w-5 shrink-0 text-slate-500" />
        <span>{t("mediaMissing", { type: message.type })}</span>
      </p>
    );
  }
  if (message.local) {
    // Not stored yet: nothing to download, but the file's name shows it is part of the reply.
    return (
      <p className="flex items-center gap-2 rounded-md border border-slate-200 bg-white/70 px-3 py-2 text-sm" data-testid="unsent-file">
        <DocumentIcon className="h-5 w-5 shrink-0 text-slate-500" />
        <span className="min-w-0 truncate font-medium" data-user-content>
          {media.filename ?? t("file", { type: message.type })}
        </span>
        {media.size !== undefined ? <span className="shrink-0 text-xs text-slate-500">{formatSize(media.size)}</span> : null}
      </p>
    );
  }
  const url = `/v1/messages/${message.id}/media`;
  // Stickers draw themselves (KindContent).
  if (message.type === "sticker") return null;
  if (message.type === "image") {
    // eslint-disable-next-line @next/next/no-img-element
    return <img src={url} alt={media.caption || media.filename || t("image")} loading="lazy" className="max-h-72 rounded-md object-contain" />;
  }
  if (message.type === "audio") return <audio controls src={url} className="max-w-full" aria-label={media.filename ?? t("audio")} />;
  if (message.type === "video") return <video controls src={url} className="max-h-72 max-w-full rounded-md" aria-label={media.filename ?? t("video")} />;
  return (
    <a href={url} download={media.filename ?? undefined} className="flex items-center gap-2 rounded-md border border-slate-200 bg-white/70 px-3 py-2 text-sm hover:bg-white">
      <DocumentIcon className="h-6 w-6 shrink-0 text-slate-500" />
      <span className="min-w-0">
        <span className="block truncate font-medium" data-user-content>
          {media.filename ?? t("document")}
        </span>
        <span className="block text-xs text-slate-500" translate="no">
          {media.mime_type}
          {media.size !== undefined ? ` · ${formatSize(media.size)}` : ""}
        </span>
      </span>
    </a>
  );
}

/** Memoised: a thread of thousands of messages re-renders only the bubbles that changed. */
export const MessageBubble = memo(function MessageBubble({
  message,
  people,
  quoted,
  actions,
}: {
  message: MessageItem;
  people: Map<string, Teammate>;
  /** The message this one replies to, when it is loaded. */
  quoted?: MessageItem | null;
  /** Reply / react buttons for this bubble. */
  actions?: React.ReactNode;
}) {
  const t = useTranslations("inbox.thread");
  const quoteLine = useQuoteLine();
  const format = useAppFormat();
  const outbound = message.direction === "outbound";
  const teammate = !message.local && message.sender.type === "user" && message.sender.user_id ? people.get(message.sender.user_id)?.name : undefined;
  const sender = message.local
    ? t("sender.you")
    : message.sender.type === "automation"
      ? t("sender.automation")
      : message.sender.type === "user"
        ? message.sender.user_id
          ? (teammate ?? t("sender.formerTeammate"))
          : t("sender.businessApp")
        : null;
  const failed = message.status === "failed" || message.local?.state === "error";
  return (
    <div className={`group flex items-center gap-1 ${outbound ? "flex-row-reverse justify-start" : "justify-start"}`} data-message-id={message.id} data-direction={message.direction} data-type={message.type}>
      <div
        className={`max-w-[85%] rounded-2xl px-3 py-2 text-sm shadow-sm sm:max-w-[70%] ${
          outbound ? (failed ? "rounded-br-sm bg-red-50 ring-1 ring-red-200" : "rounded-br-sm bg-brand-100") : "rounded-bl-sm bg-white"
        }`}
      >
        {outbound && sender ? <p className="mb-0.5 text-xs font-semibold text-brand-700" data-testid="sender-name" data-user-content={teammate ? "" : undefined}>
            {sender}
          </p> : null}
        {message.deleted_at ? (
          <p className="italic text-slate-500">{t("deleted")}</p>
        ) : (
          <>
            {message.context ? (
              <p className="mb-1 border-l-4 border-brand-500 bg-black/5 px-2 py-1 text-xs text-slate-700" data-testid="quote">
                {quoted ? (
                  <span className="line-clamp-2" data-user-content>
                    {quoteLine(quoted)}
                  </span>
                ) : (
                  <span className="line-clamp-2">{t("replyingToEarlier")}</span>
                )}
              </p>
            ) : null}
            <KindContent message={message} />
            <Media message={message} />
            {message.media?.caption ? (
              <p className="mt-1 whitespace-pre-wrap break-words" data-user-content>
                {message.media.caption}
              </p>
            ) : null}
            {message.text ? (
              <p className="whitespace-pre-wrap break-words" data-user-content>
                {message.text}
              </p>
            ) : null}
            {message.template ? <TemplateExtras template={message.template} /> : null}
          </>
        )}
        {message.reactions?.length ? <Reactions reactions={message.reactions} /> : null}
        <p className="mt-1 flex items-center justify-end gap-1 text-[11px] text-slate-600">
          {message.edited_at && !message.deleted_at ? (
            <span className="italic" data-testid="edited" title={t("editedAt", { time: format.clock(message.edited_at) })}>
              {t("edited")}
            </span>
          ) : null}
          <time dateTime={message.timestamp}>{format.clock(message.timestamp)}</time>
          {outbound ? <Ticks message={message} /> : null}
        </p>
        {message.local?.state === "error" ? (
          <UnsentNotice reason={message.local.reason} onRetry={message.local.retry} onDiscard={message.local.discard} />
        ) : failed ? (
          <p className="mt-1 text-xs text-red-700" role="alert">
            {message.error?.message ? t.rich("notDeliveredBecause", { reason: message.error.message, network: (chunks) => <span translate="no">{chunks}</span> }) : t("notDelivered")}
          </p>
        ) : null}
      </div>
      {actions ? <div className="flex shrink-0 gap-0.5 opacity-100 transition sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100">{actions}</div> : null}
    </div>
  );
});
