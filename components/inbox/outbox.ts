"use client";

import { useSyncExternalStore } from "react";
import { type ApiResult, requestJson } from "@/lib/client/api";
import { plainErrorMessage } from "@/lib/client/plain-errors";
import type { MessageItem } from "./types";

/**
 * Replies on their way out, kept on this device until the server has stored them: shown in the
 * thread as "sending", then either replaced by the stored message or kept as "Not sent" with a
 * reason, Retry and Discard. Every entry carries its draft's Idempotency-Key and the exact body,
 * so a retry (even after a reload) can never store the message twice. Persisted in localStorage.
 */
export type OutboxEntry = {
  localId: string;
  conversationId: string;
  idempotencyKey: string;
  /** The request body exactly as first sent; null when it was too large to keep across a reload. */
  body: string | null;
  message: MessageItem;
  /** `waiting`: written or sent without a network; sent by itself once the browser is back online. */
  state: "sending" | "waiting" | "failed";
  reason?: UnsentReason | string;
};

/**
 * Why a reply was not sent: a known case (worded by the interface in the reader's language), or
 * the server's own words with its error code (a sentence from the catalogs when it has one).
 * An entry stored by an older page may still carry a plain string.
 */
export type UnsentReason =
  | { code: "offline" | "session" | "forbidden" | "inFlight" | "tooLarge" | "rateLimited" | "reloaded" | "attachmentLost" }
  | { code: "server" | "refused"; status: number }
  | { code: "api"; apiCode?: string; text: string };

const STORAGE_KEY = "chorus.outbox.v1";
const listeners = new Set<() => void>();
let entries: OutboxEntry[] | null = null;
// Bodies of this page's sends, kept in memory even when storage could not hold them.
const bodies = new Map<string, string>();
const snapshots = new Map<string, OutboxEntry[]>();
const empty: OutboxEntry[] = [];

function load(): OutboxEntry[] {
  if (entries) return entries;
  entries = [];
  if (typeof window === "undefined") return entries;
  try {
    const stored = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? "[]") as OutboxEntry[];
    // A send interrupted by a reload has an unknown outcome: it waits for a Retry, which is safe.
    entries = stored.map((e) =>
      e.state === "sending" ? { ...e, state: "failed", reason: { code: "reloaded" } } : e,
    );
  } catch {
    entries = [];
  }
  return entries;
}

function save() {
  if (typeof window === "undefined" || !entries) return;
  const write = (list: OutboxEntry[]) => window.localStorage.setItem(STORAGE_KEY, JSON.stringify(list));
  try {
    write(entries);
  } catch {
    // Storage full (a large attachment): keep the words and the file's name, drop its bytes.
    try {
      write(entries.map((e) => ({ ...e, body: e.body && e.body.length > 200_000 ? null : e.body })));
    } catch {
      // Nothing more can be kept; the entries still live in this page.
    }
  }
}

function emit() {
  snapshots.clear();
  save();
  for (const listener of listeners) listener();
}

function update(localId: string, patch: Partial<OutboxEntry>) {
  entries = load().map((e) => (e.localId === localId ? { ...e, ...patch } : e));
  emit();
}

function subscribeOutbox(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY) return;
    entries = null;
    snapshots.clear();
    listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

function outboxFor(conversationId: string): OutboxEntry[] {
  let snapshot = snapshots.get(conversationId);
  if (!snapshot) {
    snapshot = load().filter((e) => e.conversationId === conversationId);
    if (snapshot.length === 0) snapshot = empty;
    snapshots.set(conversationId, snapshot);
  }
  return snapshot;
}

export function useOutbox(conversationId: string): OutboxEntry[] {
  return useSyncExternalStore(
    subscribeOutbox,
    () => outboxFor(conversationId),
    () => empty,
  );
}

export function addToOutbox(entry: Omit<OutboxEntry, "state">) {
  if (entry.body) bodies.set(entry.localId, entry.body);
  entries = [...load().filter((e) => e.localId !== entry.localId), { ...entry, state: "sending" }];
  emit();
}

export function discardFromOutbox(localId: string) {
  entries = load().filter((e) => e.localId !== localId);
  bodies.delete(localId);
  emit();
}

/** Why a send failed, in words for the person who wrote it. */
function sendFailureReason(status: number, error?: { code?: string; message?: string }): UnsentReason {
  if (status === 0) return { code: "offline" };
  if (status === 401) return { code: "session" };
  if (status === 409) return { code: "inFlight" };
  if (status === 413) return { code: "tooLarge" };
  if (status === 429) return { code: "rateLimited" };
  if (status >= 500) return { code: "server", status };
  if (error?.message) return { code: "api", apiCode: error.code, text: plainErrorMessage(error.message) };
  return status === 403 ? { code: "forbidden" } : { code: "refused", status };
}

const inFlight = new Map<string, Promise<MessageItem | null>>();

const isOffline = () => typeof navigator !== "undefined" && navigator.onLine === false;

/** Resolves when the browser says it is online again. */
function backOnline(): Promise<void> {
  if (!isOffline()) return Promise.resolve();
  return new Promise((resolve) => window.addEventListener("online", () => resolve(), { once: true }));
}

/**
 * Replies left waiting by an earlier page (the network never came back before it closed) are
 * sent when this one is online: each with its own Idempotency-Key, so never twice.
 */
function sendWaiting() {
  for (const entry of load()) if (entry.state === "waiting" && !inFlight.has(entry.localId)) void deliver(entry.localId);
}
if (typeof window !== "undefined") {
  window.addEventListener("online", sendWaiting);
  setTimeout(() => {
    if (!isOffline()) sendWaiting();
  }, 0);
}

/**
 * Sends (or re-sends) one entry with its own Idempotency-Key. Resolves with the stored message,
 * or null when it failed (the entry then says why). One request at a time per entry.
 */
export function deliver(localId: string): Promise<MessageItem | null> {
  const running = inFlight.get(localId);
  if (running) return running;
  const entry = load().find((e) => e.localId === localId);
  const body = bodies.get(localId) ?? entry?.body ?? null;
  if (!entry) return Promise.resolve(null);
  if (!body) {
    update(localId, { state: "failed", reason: { code: "attachmentLost" } });
    return Promise.resolve(null);
  }
  const attempt = (async () => {
    let result: ApiResult<MessageItem>;
    // Without a network the reply waits, then goes by itself (the same key: stored at most once).
    for (;;) {
      if (isOffline()) {
        update(localId, { state: "waiting", reason: undefined });
        await backOnline();
      }
      update(localId, { state: "sending", reason: undefined });
      result = await requestJson<MessageItem>("POST", "/v1/messages", undefined, { bodyText: body, headers: { "Idempotency-Key": entry.idempotencyKey } });
      if (result.ok || result.status !== 0 || !isOffline()) break;
    }
    if (result.ok) {
      discardFromOutbox(localId);
      return result.data;
    }
    // (A 401 has already told the page that the session ended.)
    update(localId, { state: "failed", reason: sendFailureReason(result.status, { code: result.code, message: result.serverMessage }) });
    return null;
  })().finally(() => inFlight.delete(localId));
  inFlight.set(localId, attempt);
  return attempt;
}

/** The entry as the thread shows it. */
export function asMessage(entry: OutboxEntry, actions: { retry: () => void; discard: () => void }): MessageItem {
  return {
    ...entry.message,
    local:
      entry.state === "sending" ? { state: "sending" }
      : entry.state === "waiting" ? { state: "waiting" }
      : { state: "error", reason: entry.reason, retry: actions.retry, discard: actions.discard },
  };
}
