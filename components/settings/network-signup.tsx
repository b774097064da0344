"use client";

import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { requestJson } from "@/lib/client/api";

type SignupResult = { display_phone_number: string; verified_name: string | null; steps: { step: string; status: "done" | "skipped" }[] };

type SdkWindow = Window & {
  FB?: {
    init(options: Record<string, unknown>): void;
    login(callback: (response: { authResponse?: { code?: string } | null }) => void, options: Record<string, unknown>): void;
  };
  fbAsyncInit?: () => void;
};

const SDK_URL = "https://connect.facebook.net/en_US/sdk.js";

function loadSdk(appId: string): Promise<NonNullable<SdkWindow["FB"]>> {
  const w = window as SdkWindow;
  if (w.FB) return Promise.resolve(w.FB);
  return new Promise((resolve, reject) => {
    w.fbAsyncInit = () => {
      w.FB!.init({ appId, autoLogAppEvents: true, xfbml: false, version: "v21.0" });
      resolve(w.FB!);
    };
    const script = document.createElement("script");
    script.src = SDK_URL;
    script.async = true;
    script.crossOrigin = "anonymous";
    script.onerror = () => reject(new Error("script_failed"));
    document.body.appendChild(script);
  });
}

const stepLabels: Record<string, string> = {
  exchange_code: "step.exchange_code",
  subscribe_app: "step.subscribe_app",
  register_number: "step.register_number",
  read_number: "step.read_number",
};

/**
 * "Connect with the network": the network's embedded sign-up in a popup. The popup reports the
 * chosen business account and number by postMessage and hands back a code; the server then
 * exchanges it, subscribes the app and registers the number (POST /api/network/signup).
 */
export function NetworkSignup({ appId, configId }: { appId: string | null; configId: string | null }) {
  const t = useTranslations("settingsNumber.signup");
  const errorMessage = useApiErrorMessage();
  const [state, setState] = useState<"idle" | "popup" | "finishing">("idle");
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<SignupResult>();
  const coexistence = useRef<HTMLInputElement>(null);

  if (!appId || !configId) {
    return (
      <Card>
        <h2 className="text-base font-semibold text-slate-900">{t("title")}</h2>
        <p className="mt-1 text-sm text-slate-600">{t.rich("needsConfig", { code: (chunks) => <code translate="no">{chunks}</code> })}</p>
      </Card>
    );
  }

  async function start() {
    setError(undefined);
    setDone(undefined);
    setState("popup");
    const withCoexistence = Boolean(coexistence.current?.checked);
    let session: { phone_number_id?: string; waba_id?: string } | null = null;
    let cancelled: string | null = null;
    const onMessage = (event: MessageEvent) => {
      if (!/(^|\.)facebook\.com$/.test(new URL(event.origin).hostname)) return;
      try {
        const data = typeof event.data === "string" ? JSON.parse(event.data) : event.data;
        if (data?.type !== "WA_EMBEDDED_SIGNUP") return;
        if (String(data.event).startsWith("FINISH")) session = data.data;
        else if (data.event === "CANCEL") cancelled = data.data?.current_step ?? t("earlyStep");
        else if (data.event === "ERROR") cancelled = data.data?.error_message ?? t("anError");
      } catch {
        // Other messages of the page are not ours.
      }
    };
    window.addEventListener("message", onMessage);
    try {
      const FB = await loadSdk(appId!);
      const code = await new Promise<string | null>((resolve) =>
        FB.login((response) => resolve(response.authResponse?.code ?? null), {
          config_id: configId,
          response_type: "code",
          override_default_response_type: true,
          extras: { setup: {}, sessionInfoVersion: "3", ...(withCoexistence ? { featureType: "whatsapp_business_app_onboarding" } : {}) },
        }),
      );
      // The session info can arrive just after the popup closes.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const info = session as { phone_number_id?: string; waba_id?: string } | null;
      if (!code || !info?.phone_number_id || !info?.waba_id) {
        setError(cancelled ? t("stoppedAt", { step: cancelled }) : t("closed"));
        setState("idle");
        return;
      }
      setState("finishing");
      const result = await requestJson<SignupResult>("POST", "/api/network/signup", {
        code,
        business_account_id: info.waba_id,
        phone_number_id: info.phone_number_id,
        coexistence: withCoexistence,
      });
      setState("idle");
      if (result.ok) setDone(result.data);
      else setError(errorMessage(result));
    } catch (failure) {
      setError(failure instanceof Error && failure.message === "script_failed" ? t("scriptFailed") : t("couldNotStart"));
      setState("idle");
    } finally {
      window.removeEventListener("message", onMessage);
    }
  }

  return (
    <Card>
      <h2 className="text-base font-semibold text-slate-900">{t("title")}</h2>
      <p className="mt-1 text-sm text-slate-600">{t("description")}</p>
      <label className="mt-3 flex items-center gap-2 text-sm">
        <input ref={coexistence} type="checkbox" /> {t("coexistence")}
      </label>
      <div className="mt-3 flex items-center gap-3">
        <Button type="button" onClick={() => void start()} disabled={state !== "idle"} aria-busy={state !== "idle"}>
          {state === "popup" ? t("waiting") : state === "finishing" ? t("connecting") : t("title")}
        </Button>
      </div>
      <div className="mt-3">
        {error ? <Alert>{error}</Alert> : null}
        {done ? (
          <Alert tone="success">
            {t("connected", { number: done.display_phone_number, name: done.verified_name ? ` (${done.verified_name})` : "" })}{" "}
            {done.steps
              .map((s) => {
                const step = stepLabels[s.step] ? t(stepLabels[s.step]) : s.step;
                return s.status === "skipped" ? t("skipped", { step }) : step;
              })
              .join(" · ")}
            . {t("reload")}
          </Alert>
        ) : null}
      </div>
    </Card>
  );
}
