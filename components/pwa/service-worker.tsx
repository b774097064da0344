"use client";

import { useEffect } from "react";
import { claimOfflineData, forgetOfflineData } from "@/lib/client/offline-cache";

/**
 * Registers the app's service worker (public/sw.js: installability, the shell offline, push)
 * and claims this browser's offline copy for the signed-in user: another user's is forgotten.
 */
export function ServiceWorker({ userId }: { userId: string }) {
  useEffect(() => {
    void claimOfflineData(userId);
    if (!("serviceWorker" in navigator)) return;
    // Registered once the page has loaded and is idle: installing the worker (and its first
    // fetches) never competes with the first paint.
    let idle: number | undefined;
    const register = () => {
      const go = () =>
        navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
          // An app without its worker still works online; nothing to tell the person.
        });
      if (typeof requestIdleCallback === "undefined") void go();
      else idle = requestIdleCallback(() => void go(), { timeout: 2000 });
    };
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
    return () => {
      window.removeEventListener("load", register);
      if (idle !== undefined) cancelIdleCallback(idle);
    };
  }, [userId]);
  return null;
}

/** On the sign-in page nobody is signed in here: what the last person read is forgotten. */
export function ForgetOfflineData() {
  useEffect(() => {
    void forgetOfflineData();
  }, []);
  return null;
}
