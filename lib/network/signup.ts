import "server-only";
import { randomBytes, randomInt } from "node:crypto";
import { z } from "zod";
import type { ServiceContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/platform/env";
import { ApiError } from "@/lib/platform/errors";
import { exchangeSignupCode, readNumber, registerNumber, subscribeApp } from "./cloud";
import { presentNumberConfig, updateNumberConfig } from "./number-config";
import { defaultApiBaseUrl, networkUrlPolicy } from "./integration";
import { numberConfigOutput } from "./schemas";
import { updateNumberIntegration } from "./store";

const networkId = z
  .string({ error: "is required: the id the sign-up returned" })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be the id the network returned (letters, digits, - or _)");

export const signupInput = z.object({
  code: z.string({ error: "is required: the code the sign-up popup returned" }).trim().min(1, "must not be empty").max(4096, "must be at most 4096 characters"),
  business_account_id: networkId,
  phone_number_id: networkId,
  coexistence: z.boolean({ error: "must be true or false" }).default(false),
});
export type SignupInput = z.infer<typeof signupInput>;

type SignupStep = "exchange_code" | "subscribe_app" | "register_number" | "read_number";

const stepLabels: Record<SignupStep, string> = {
  exchange_code: "Exchanging the sign-up code",
  subscribe_app: "Subscribing the app to the business account",
  register_number: "Registering the number",
  read_number: "Reading the number's details",
};

export type SignupOutput = {
  number: z.infer<typeof numberConfigOutput>;
  display_phone_number: string;
  verified_name: string | null;
  steps: { step: SignupStep; status: "done" | "skipped" }[];
};

/** A step the network refused: a 502 naming the step, with the network's own message. */
function stepFailed(step: SignupStep, message: string): ApiError {
  return new ApiError(502, "network_error", `${stepLabels[step]} failed: ${message}`, [{ path: step, message }]);
}

/**
 * Finishes the network's embedded sign-up (POST /api/network/signup): exchanges the popup's
 * code for an access token with NETWORK_APP_ID and NETWORK_APP_SECRET, subscribes the app to
 * the business account's notifications, registers the number with a generated PIN (not with
 * coexistence: the business app keeps it registered), reads its display number and verified
 * name, and stores the cloud configuration as connected. Each step's failure is a 502 that
 * names the step and carries the network's message; nothing is stored then.
 */
export async function completeSignup({ ctx, input }: { ctx: ServiceContext; input: SignupInput }): Promise<SignupOutput> {
  const env = getEnv();
  if (!env.NETWORK_APP_ID || !env.NETWORK_APP_SECRET) {
    throw new ApiError(409, "signup_not_configured", "Guided sign-up needs NETWORK_APP_ID and NETWORK_APP_SECRET on the server; use the manual form instead.");
  }
  const apiBaseUrl = defaultApiBaseUrl();
  const target = { apiBaseUrl, policy: networkUrlPolicy() };
  const secretsOut = (text: string, token?: string): string =>
    [env.NETWORK_APP_SECRET, input.code, token].reduce<string>((t, secret) => (secret ? t.split(secret).join("[redacted]") : t), text);

  const exchanged = await exchangeSignupCode(target, { appId: env.NETWORK_APP_ID, appSecret: env.NETWORK_APP_SECRET, code: input.code });
  if (!exchanged.ok) throw stepFailed("exchange_code", secretsOut(exchanged.message));
  const accessToken = exchanged.accessToken;

  const subscribed = await subscribeApp(target, { businessAccountId: input.business_account_id, accessToken });
  if (!subscribed.ok) throw stepFailed("subscribe_app", secretsOut(subscribed.message, accessToken));

  const steps: SignupOutput["steps"] = [
    { step: "exchange_code", status: "done" },
    { step: "subscribe_app", status: "done" },
  ];
  if (input.coexistence) {
    steps.push({ step: "register_number", status: "skipped" });
  } else {
    const pin = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const registered = await registerNumber(target, { phoneNumberId: input.phone_number_id, accessToken, pin });
    if (!registered.ok) throw stepFailed("register_number", secretsOut(registered.message, accessToken));
    steps.push({ step: "register_number", status: "done" });
  }

  const number = await readNumber(target, { phoneNumberId: input.phone_number_id, accessToken });
  if (!number.ok) throw stepFailed("read_number", secretsOut(number.message, accessToken));
  steps.push({ step: "read_number", status: "done" });

  const displayNumber = number.displayPhoneNumber;
  const digits = displayNumber.replace(/\D/g, "");
  await updateNumberConfig({
    ctx,
    input: {
      provider: "cloud",
      phone_number: `+${digits}`,
      phone_number_id: input.phone_number_id,
      business_account_id: input.business_account_id,
      access_token: accessToken,
      app_secret: env.NETWORK_APP_SECRET,
      verify_token: randomBytes(18).toString("base64url"),
      api_base_url: apiBaseUrl,
      coexistence: input.coexistence,
    },
  });
  const row = await updateNumberIntegration(ctx.db, ctx.accountId, { status: "connected", statusReason: null, updatedAt: new Date() });
  return { number: presentNumberConfig(row), display_phone_number: displayNumber, verified_name: number.verifiedName, steps };
}
