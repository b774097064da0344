/* Chorus service worker: installability, the app shell offline, and Web Push. Kept small on purpose. */
const SHELL = "chorus-shell-v1";
const STATIC = "chorus-static-v1";

self.addEventListener("install", (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== SHELL && key !== STATIC) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

// Pages: the network first; offline, the last copy of the page (or of the inbox) answers.
// Built assets are content-hashed: the cache first. Nothing else (the API) is touched here.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && (url.pathname === "/inbox" || url.pathname.startsWith("/inbox/"))) {
    event.respondWith(
      (async () => {
        try {
          const response = await fetch(request);
          if (response.ok && !response.redirected) {
            const cache = await caches.open(SHELL);
            await cache.put(url.pathname, response.clone());
          }
          return response;
        } catch (error) {
          const cache = await caches.open(SHELL);
          const cached = (await cache.match(url.pathname)) || (await cache.match("/inbox"));
          if (cached) return cached;
          throw error;
        }
      })(),
    );
    return;
  }
  if (url.pathname.startsWith("/_next/static/") || url.pathname.startsWith("/icons/")) {
    event.respondWith(
      (async () => {
        const cache = await caches.open(STATIC);
        const cached = await cache.match(request);
        if (cached) return cached;
        const response = await fetch(request);
        if (response.ok) await cache.put(request, response.clone());
        return response;
      })(),
    );
  }
});

// The app asks to forget every cached page when its user signs out.
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "chorus:sign-out") event.waitUntil(caches.delete(SHELL));
});

// A push is shown unless a window of the app has the focus (its own inbox tells the person).
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: "Chorus", body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      if (windows.some((client) => client.focused && client.visibilityState === "visible")) return;
      await self.registration.showNotification(data.title || "Chorus", {
        body: data.body || "",
        tag: data.tag || undefined,
        icon: "/icons/icon-192.png",
        badge: "/icons/maskable-192.png",
        data: { url: data.url || "/inbox" },
      });
    })(),
  );
});

// A tap opens the conversation: in a window of the app already open, or in a new one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/inbox", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of windows) {
        if (new URL(client.url).origin === target.origin && "navigate" in client) {
          await client.focus();
          return client.navigate(target.href);
        }
      }
      return self.clients.openWindow(target.href);
    })(),
  );
});
