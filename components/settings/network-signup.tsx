"use client";

import { useRef, useState } from "react";
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
    script.onerror = () => reject(new Error("The network's sign-up script could not be loaded (blocked or offline)."));
    document.body.appendChild(script);
  });
}

const stepLabels: Record<string, string> = {
  exchange_code: "Code exchanged",
  subscribe_app: "App subscribed to the business account",
  register_number: "Number registered",
  read_number: "Number details read",
};

/**
 * "Connect with the network": the network's embedded sign-up in a popup. The popup reports the
 * chosen business account and number by postMessage and hands back a code; the server then
 * exchanges it, subscribes the app and registers the number (POST /api/network/signup).
 */
export function NetworkSignup({ appId, configId }: { appId: string | null; configId: string | null }) {
  const [state, setState] = useState<"idle" | "popup" | "finishing">("idle");
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<SignupResult>();
  const coexistence = useRef<HTMLInputElement>(null);

  if (!appId || !configId) {
    return (
      <Card>
        <h2 className="text-base font-semibold text-slate-900">Connect with the network</h2>
        <p className="mt-1 text-sm text-slate-600">
          Guided sign-up needs <code>NETWORK_APP_ID</code>, <code>NETWORK_CONFIG_ID</code> and <code>NETWORK_APP_SECRET</code> set on the server. Until then, use the form below.
        </p>
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
        else if (data.event === "CANCEL") cancelled = data.data?.current_step ?? "an early step";
        else if (data.event === "ERROR") cancelled = data.data?.error_message ?? "an error";
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
        setError(cancelled ? `The sign-up was not finished (stopped at ${cancelled}).` : "The sign-up window was closed before a number was chosen.");
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
      else setError(result.message);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "The sign-up could not start.");
      setState("idle");
    } finally {
      window.removeEventListener("message", onMessage);
    }
  }

  return (
    <Card>
      <h2 className="text-base font-semibold text-slate-900">Connect with the network</h2>
      <p className="mt-1 text-sm text-slate-600">
        The network&apos;s guided sign-up opens in a popup: sign in, choose or create the business account and the number, verify it. Chorus then finishes the connection.
      </p>
      <label className="mt-3 flex items-center gap-2 text-sm">
        <input ref={coexistence} type="checkbox" /> Keep using this number in the business app (coexistence)
      </label>
      <div className="mt-3 flex items-center gap-3">
        <Button type="button" onClick={() => void start()} disabled={state !== "idle"} aria-busy={state !== "idle"}>
          {state === "popup" ? "Waiting for the popup…" : state === "finishing" ? "Connecting the number…" : "Connect with the network"}
        </Button>
      </div>
      <div className="mt-3">
        {error ? <Alert>{error}</Alert> : null}
        {done ? (
          <Alert tone="success">
            Connected {done.display_phone_number}
            {done.verified_name ? ` (${done.verified_name})` : ""}.{" "}
            {done.steps.map((s) => `${stepLabels[s.step] ?? s.step}${s.status === "skipped" ? " (skipped)" : ""}`).join(" · ")}. Reload to see the settings.
          </Alert>
        ) : null}
      </div>
    </Card>
  );
}
