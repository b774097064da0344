"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { redeliverAction } from "@/app/(app)/settings/webhooks/actions";
import { Button } from "@/components/ui/button";

/** Sends the delivery's event again now (same event id) and reports the new attempt's outcome. */
export function RetryButton({ webhookId, deliveryId, disabled }: { webhookId: string; deliveryId: string; disabled?: boolean }) {
  const router = useRouter();
  const t = useTranslations("webhooks.retry");
  const errorMessage = useApiErrorMessage();
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string }>();

  async function retry() {
    setPending(true);
    setResult(undefined);
    const outcome = await redeliverAction(webhookId, deliveryId);
    setPending(false);
    if (!outcome.ok) {
      setResult({ ok: false, text: errorMessage(outcome) });
      return;
    }
    const a = outcome.data;
    setResult({
      ok: a.status === "succeeded",
      text: t("result", { attempt: a.attempt, status: a.status, detail: a.response_status ? ` (${a.response_status})` : a.error ? ` (${a.error})` : "" }),
    });
    router.refresh();
  }

  return (
    <div className="flex flex-col items-start gap-1">
      <Button type="button" variant="secondary" className="px-2.5 py-1 text-xs" disabled={pending || disabled} aria-busy={pending} onClick={retry}>
        {pending ? t("sending") : t("retry")}
      </Button>
      <span role="status" className={`text-xs ${result?.ok ? "text-emerald-700" : "text-red-700"}`}>
        {result?.text ?? ""}
      </span>
    </div>
  );
}
