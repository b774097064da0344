"use client";

import { requestJson } from "@/lib/client/api";

/** Where this browser stands with Chorus's pushes. */
export type PushState = "unsupported" | "denied" | "off" | "on";

const supported = () => typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

export async function pushState(): Promise<PushState> {
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = await registration?.pushManager.getSubscription();
  return subscription && Notification.permission === "granted" ? "on" : "off";
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Registers or drops this device; a device already gone counts as dropped. */
async function api(method: "POST" | "DELETE", body: unknown) {
  const result = await requestJson(method, "/v1/push/subscriptions", body);
  if (!result.ok && !(method === "DELETE" && result.status === 404)) throw new Error(result.serverMessage ?? result.message);
}

/** Asks for permission, subscribes with the server's VAPID key and registers the device. */
export async function enablePush(vapidPublicKey: string): Promise<{ state: PushState; error?: string }> {
  if (!supported()) return { state: "unsupported" };
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return { state: permission === "denied" ? "denied" : "off" };
  try {
    const registration = (await navigator.serviceWorker.getRegistration("/")) ?? (await navigator.serviceWorker.register("/sw.js", { scope: "/" }));
    await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    // A subscription made with another server key cannot be pushed to by this server.
    const key = subscription?.options.applicationServerKey;
    if (subscription && key && btoa(String.fromCharCode(...new Uint8Array(key))) !== btoa(String.fromCharCode(...keyBytes(vapidPublicKey)))) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapidPublicKey) });
    await api("POST", subscription.toJSON());
    return { state: "on" };
  } catch (error) {
    return { state: await pushState(), error: `Notifications could not be turned on: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export async function disablePush(): Promise<{ state: PushState; error?: string }> {
  try {
    const registration = await navigator.serviceWorker.getRegistration("/");
    const subscription = await registration?.pushManager.getSubscription();
    if (subscription) {
      await api("DELETE", { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    return { state: "off" };
  } catch (error) {
    return { state: await pushState(), error: `Notifications could not be turned off: ${error instanceof Error ? error.message : String(error)}` };
  }
}
