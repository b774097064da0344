"use client";

import { useEffect } from "react";

/** Registers the app's service worker (public/sw.js): installability, the shell offline, push. */
export function ServiceWorker() {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // An app without its worker still works online; nothing to tell the person.
    });
  }, []);
  return null;
}
