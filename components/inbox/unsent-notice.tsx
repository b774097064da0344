"use client";

import { useTranslations } from "next-intl";
import type { UnsentReason } from "./outbox";

/** Under a reply the server has not stored: why, and what can be done about it. */
export function UnsentNotice({ reason, onRetry, onDiscard }: { reason?: UnsentReason | string; onRetry?: () => void; onDiscard?: () => void }) {
  const t = useTranslations("inboxTools.unsent");
  const errors = useTranslations("errors");
  const why = (() => {
    if (reason === undefined) return t("unconfirmed");
    // Stored by an older page, already in words.
    if (typeof reason === "string") return reason;
    switch (reason.code) {
      case "api": {
        const key = `code.${reason.apiCode ?? ""}`;
        return reason.apiCode && errors.has(key as "code.conflict") ? errors(key as "code.conflict") : reason.text;
      }
      case "server":
        return t("server", { status: reason.status });
      case "refused":
        return t("refused", { status: reason.status });
      case "offline":
        return t("offline");
      case "session":
        return t("session");
      case "forbidden":
        return t("forbidden");
      case "inFlight":
        return t("inFlight");
      case "tooLarge":
        return t("tooLarge");
      case "rateLimited":
        return t("rateLimited");
      case "reloaded":
        return t("reloaded");
      case "attachmentLost":
        return t("attachmentLost");
    }
  })();
  return (
    <div className="mt-1 flex flex-col gap-1 text-xs text-red-800" data-testid="unsent">
      <p role="alert">
        <span className="font-semibold">{t("title")}</span> {why}
      </p>
      <p className="flex gap-3">
        {onRetry ? (
          <button type="button" onClick={onRetry} className="font-semibold underline">
            {t("retry")}
          </button>
        ) : null}
        {onDiscard ? (
          <button type="button" onClick={onDiscard} className="underline">
            {t("discard")}
          </button>
        ) : null}
      </p>
    </div>
  );
}
