/**
 * The Graph calls of the network's embedded sign-up: exchanging the popup's code for an access
 * token, subscribing the app to the business account, registering the number, reading it. Each
 * answers `{ok: false, message}` with the network's own words when it refuses; the caller names
 * the step and keeps secrets out of the message.
 */
import { z } from "zod";
import { callGraph, joinUrl, type UrlPolicy } from "./graph";

type Outcome<T> = ({ ok: true } & T) | { ok: false; message: string };
type Target = { apiBaseUrl: string; policy: UrlPolicy };

const tokenSchema = z.looseObject({ access_token: z.string().min(1) });
const numberSchema = z.looseObject({ display_phone_number: z.string().min(1), verified_name: z.string().optional() });

function call(target: Target, options: { segments: string[]; method: "GET" | "POST"; accessToken: string; query?: Record<string, string>; json?: unknown }) {
  const url = new URL(joinUrl({ apiBaseUrl: target.apiBaseUrl, segments: options.segments }));
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  return callGraph({
    url: url.toString(),
    method: options.method,
    accessToken: options.accessToken,
    ...(options.json !== undefined ? { body: { json: options.json } } : {}),
    timeoutMs: 15_000,
    policy: target.policy,
  });
}

/** `GET /oauth/access_token`: the popup's code for the business's access token. */
export async function exchangeSignupCode(target: Target, { appId, appSecret, code }: { appId: string; appSecret: string; code: string }): Promise<Outcome<{ accessToken: string }>> {
  const exchanged = await call(target, { segments: ["oauth", "access_token"], method: "GET", accessToken: "", query: { client_id: appId, client_secret: appSecret, code } });
  if (!exchanged.ok) return { ok: false, message: exchanged.failure.message };
  const token = tokenSchema.safeParse(exchanged.body);
  return token.success ? { ok: true, accessToken: token.data.access_token } : { ok: false, message: "the network answered without an access token" };
}

/** `POST /{business_account_id}/subscribed_apps`: the app receives the business account's notifications. */
export async function subscribeApp(target: Target, { businessAccountId, accessToken }: { businessAccountId: string; accessToken: string }): Promise<Outcome<object>> {
  const subscribed = await call(target, { segments: [businessAccountId, "subscribed_apps"], method: "POST", accessToken });
  return subscribed.ok ? { ok: true } : { ok: false, message: subscribed.failure.message };
}

/** `POST /{phone_number_id}/register` with the two-step verification PIN. */
export async function registerNumber(target: Target, { phoneNumberId, accessToken, pin }: { phoneNumberId: string; accessToken: string; pin: string }): Promise<Outcome<object>> {
  const registered = await call(target, { segments: [phoneNumberId, "register"], method: "POST", accessToken, json: { messaging_product: "whatsapp", pin } });
  return registered.ok ? { ok: true } : { ok: false, message: registered.failure.message };
}

/** `GET /{phone_number_id}?fields=display_phone_number,verified_name`. */
export async function readNumber(
  target: Target,
  { phoneNumberId, accessToken }: { phoneNumberId: string; accessToken: string },
): Promise<Outcome<{ displayPhoneNumber: string; verifiedName: string | null }>> {
  const read = await call(target, { segments: [phoneNumberId], method: "GET", accessToken, query: { fields: "display_phone_number,verified_name" } });
  if (!read.ok) return { ok: false, message: read.failure.message };
  const number = numberSchema.safeParse(read.body);
  return number.success
    ? { ok: true, displayPhoneNumber: number.data.display_phone_number, verifiedName: number.data.verified_name ?? null }
    : { ok: false, message: "the network did not describe the phone number" };
}
