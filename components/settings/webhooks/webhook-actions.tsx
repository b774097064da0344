"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { deleteWebhookAction, updateWebhookAction, verifyWebhookAction } from "@/app/(app)/settings/webhooks/actions";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import type { WebhookOutput } from "@/lib/webhooks/schemas";

type Webhook = Pick<WebhookOutput, "id" | "url" | "status" | "status_reason">;
type Busy = "verify" | "toggle" | "delete" | null;

/** Verify again, enable/disable and delete (with a confirmation step) for one webhook; every wait shows progress. */
export function WebhookActions({ webhook, afterDelete }: { webhook: Webhook; afterDelete?: string }) {
  const router = useRouter();
  const t = useTranslations("webhooks.actions");
  const errorMessage = useApiErrorMessage();
  const [busy, setBusy] = useState<Busy>(null);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ tone: "error" | "success" | "info"; text: string }>();

  async function act(kind: Exclude<Busy, null>) {
    setBusy(kind);
    setMessage(undefined);
    const result =
      kind === "verify"
        ? await verifyWebhookAction(webhook.id)
        : kind === "toggle"
          ? await updateWebhookAction(webhook.id, { status: webhook.status === "disabled" ? "active" : "disabled" })
          : await deleteWebhookAction(webhook.id);
    setBusy(null);
    setConfirming(false);
    if (!result.ok) {
      setMessage({ tone: "error", text: errorMessage(result) });
      return;
    }
    if (kind === "delete") {
      if (afterDelete) router.push(afterDelete);
      else router.refresh();
      return;
    }
    const data = result.data as Webhook;
    setMessage(
      data.status === "active"
        ? { tone: "success", text: kind === "verify" || webhook.status !== "active" ? t("active") : t("updated") }
        : data.status === "disabled"
          ? { tone: "info", text: t("disabledNow") }
          : { tone: "error", text: data.status_reason ?? t("verifyFailed") },
    );
    router.refresh();
  }

  const disabled = busy !== null;
  const enabling = webhook.status !== "active";
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="secondary" disabled={disabled} aria-busy={busy === "verify"} onClick={() => act("verify")}>
          {busy === "verify" ? t("sending") : t("verify")}
        </Button>
        <Button type="button" variant="secondary" disabled={disabled} aria-busy={busy === "toggle"} onClick={() => act("toggle")}>
          {busy === "toggle" ? (enabling ? t("enabling") : t("disabling")) : webhook.status === "disabled" ? t("enable") : t("disable")}
        </Button>
        {confirming ? (
          <span className="flex flex-wrap items-center gap-2 rounded-md border border-red-200 bg-red-50 px-2 py-1 text-sm text-red-800" role="group" aria-label={t("confirmGroup")}>
            {t("confirm")}
            <Button type="button" variant="danger" disabled={disabled} aria-busy={busy === "delete"} onClick={() => act("delete")}>
              {busy === "delete" ? t("deleting") : t("delete")}
            </Button>
            <Button type="button" variant="ghost" disabled={disabled} onClick={() => setConfirming(false)}>
              {t("cancel")}
            </Button>
          </span>
        ) : (
          <Button type="button" variant="ghost" className="text-red-700 hover:bg-red-50" disabled={disabled} onClick={() => setConfirming(true)}>
            {t("deleteStart")}
          </Button>
        )}
      </div>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </div>
  );
}
