"use client";

import { useEffect, useState } from "react";
import { requestJson } from "@/lib/client/api";
import type { LabelRef } from "./types";

type Page = { data: LabelRef[]; pagination: { next_cursor: string | null } };

/** Every label of the account (all pages), for pickers and filters. */
async function fetchAllLabels(): Promise<{ ok: true; labels: LabelRef[] } | { ok: false; message: string }> {
  const labels: LabelRef[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit: "100" });
    if (cursor) params.set("cursor", cursor);
    const result = await requestJson<Page>("GET", `/v1/labels?${params}`);
    if (!result.ok) return { ok: false, message: result.message };
    labels.push(...result.data.data.map(({ id, name, color }) => ({ id, name, color })));
    cursor = result.data.pagination.next_cursor;
  } while (cursor);
  return { ok: true, labels: labels.sort((a, b) => a.name.localeCompare(b.name)) };
}

/**
 * The account's labels, fetched again whenever `reloadKey` changes; `wanted: false` (a closed
 * menu) fetches nothing, so opening a conversation never waits behind a list nobody looks at.
 */
export function useLabels(reloadKey = 0, wanted = true) {
  const [state, setState] = useState<{ labels: LabelRef[]; error?: string; loading: boolean }>({ labels: [], loading: true });
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    void fetchAllLabels().then((result) => {
      if (!current) return;
      setState(result.ok ? { labels: result.labels, loading: false } : { labels: [], error: result.message, loading: false });
    });
    return () => {
      current = false;
    };
  }, [reloadKey, wanted]);
  return state;
}
