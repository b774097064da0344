/**
 * What the inbox read most recently, kept in this browser (IndexedDB) so it stays readable
 * without a network: the conversation lists as last loaded, and for the 50 conversations read
 * most recently their details and newest page of messages (50). Written as the inbox reads
 * them; read back only when the network does not answer. Forgotten when someone else signs
 * in on this browser or anyone signs out.
 */

const DB_NAME = "chorus-offline";
const STORE = "responses";
const OWNER_KEY = "chorus.offline.owner";
/** Conversations kept readable offline (the most recently read). */
const OFFLINE_CONVERSATIONS = 50;
const OFFLINE_LISTS = 20;

type Entry = { url: string; kind: "list" | "conversation" | "messages"; conversationId: string | null; savedAt: number; data: unknown };

// The reads kept: the list pages, one conversation, and the newest page of its messages (no cursor).
const patterns: { kind: Entry["kind"]; pattern: RegExp }[] = [
  { kind: "list", pattern: /^\/api\/inbox\/conversations\?/ },
  { kind: "conversation", pattern: /^\/v1\/conversations\/(conv_[0-9a-z]+)$/ },
  // The one request that opens a conversation: it, and the newest page of its thread.
  { kind: "conversation", pattern: /^\/v1\/conversations\/(conv_[0-9a-z]+)\?include=messages%2Cnotes%2Cactivity&limit=50$/ },
  { kind: "messages", pattern: /^\/v1\/conversations\/(conv_[0-9a-z]+)\/messages\?limit=50$/ },
];

function classify(url: string): Pick<Entry, "kind" | "conversationId"> | null {
  for (const { kind, pattern } of patterns) {
    const match = pattern.exec(url);
    if (match) return { kind, conversationId: match[1] ?? null };
  }
  return null;
}

let opening: Promise<IDBDatabase | null> | null = null;

function open(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === "undefined") return Promise.resolve(null);
  opening ??= new Promise((resolve) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: "url" });
      store.createIndex("savedAt", "savedAt");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
  });
  return opening;
}

function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
  return open().then(
    (db) =>
      new Promise<T | undefined>((resolve) => {
        if (!db) return resolve(undefined);
        try {
          const tx = db.transaction(STORE, mode);
          const request = work(tx.objectStore(STORE));
          tx.oncomplete = () => resolve(request ? request.result : undefined);
          tx.onerror = () => resolve(undefined);
          tx.onabort = () => resolve(undefined);
        } catch {
          resolve(undefined);
        }
      }),
  );
}

/** Keeps what a GET answered, when it is one of the reads kept offline. */
export async function rememberResponse(url: string, data: unknown): Promise<void> {
  const kind = classify(url);
  if (!kind) return;
  await run("readwrite", (store) => store.put({ url, ...kind, savedAt: Date.now(), data } satisfies Entry));
  // Reading every kept entry costs more than a write: at most once a minute.
  if (Date.now() - lastPrune > 60_000) {
    lastPrune = Date.now();
    await prune();
  }
}

let lastPrune = 0;

/** What a GET answered when it last reached the server, or undefined. */
export async function recallResponse<T>(url: string): Promise<T | undefined> {
  if (!classify(url)) return undefined;
  const entry = (await run<Entry | undefined>("readonly", (store) => store.get(url))) as Entry | undefined;
  return entry?.data as T | undefined;
}

let pruning: Promise<void> | null = null;

/** Keeps the 50 conversations read most recently (with their messages) and the newest list pages. */
function prune(): Promise<void> {
  pruning ??= (async () => {
    const all = ((await run<Entry[]>("readonly", (store) => store.getAll())) ?? []).sort((a, b) => b.savedAt - a.savedAt);
    const keepConversations = new Set<string>();
    for (const entry of all) {
      if (entry.conversationId && keepConversations.size < OFFLINE_CONVERSATIONS) keepConversations.add(entry.conversationId);
    }
    const lists = all.filter((e) => e.kind === "list").slice(OFFLINE_LISTS);
    const stale = [...lists, ...all.filter((e) => e.conversationId && !keepConversations.has(e.conversationId))].map((e) => e.url);
    if (stale.length) await run("readwrite", (store) => void stale.forEach((url) => store.delete(url)));
  })().finally(() => {
    pruning = null;
  });
  return pruning;
}

/** Forgets everything kept offline (and the app pages the service worker kept). */
export async function forgetOfflineData(): Promise<void> {
  await run("readwrite", (store) => store.clear());
  try {
    window.localStorage.removeItem(OWNER_KEY);
    navigator.serviceWorker?.controller?.postMessage({ type: "chorus:sign-out" });
  } catch {
    // Storage unavailable: nothing was kept there either.
  }
}

/** The signed-in user of this page: what another user kept on this browser is forgotten. */
export async function claimOfflineData(userId: string): Promise<void> {
  try {
    const owner = window.localStorage.getItem(OWNER_KEY);
    if (owner && owner !== userId) await forgetOfflineData();
    window.localStorage.setItem(OWNER_KEY, userId);
  } catch {
    // Private mode without storage: nothing is kept.
  }
}
