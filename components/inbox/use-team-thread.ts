"use client";

import { useCallback, useState } from "react";
import { requestJson } from "@/lib/client/api";
import { useLiveEventListener } from "./live-bus";
import type { ActivityItem, NoteItem } from "./team-types";

type Page<T> = { data: T[]; pagination: { next_cursor: string | null; has_more: boolean } };

// The thread shows the newest notes and activity beside the messages loaded so far; a long
// conversation's older entries appear as its older messages are loaded (see ThreadItems).
const PAGE = "100";

/**
 * The notes and the activity trail of one conversation, kept current by live events. Their first
 * pages come with the conversation itself (one request to open it): `seed` puts them in.
 */
export function useTeamThread(conversationId: string) {
  const [notes, setNotes] = useState<NoteItem[]>([]);
  const [activity, setActivity] = useState<ActivityItem[]>([]);

  const loadActivity = useCallback(async () => {
    const result = await requestJson<Page<ActivityItem>>("GET", `/v1/conversations/${conversationId}/activity?limit=${PAGE}`);
    if (result.ok) setActivity(result.data.data);
  }, [conversationId]);

  const seed = useCallback((first: { notes?: NoteItem[]; activity?: ActivityItem[] }) => {
    if (first.notes) setNotes((prev) => mergeNotes(first.notes ?? [], prev));
    if (first.activity) setActivity(first.activity);
  }, []);

  const addNote = useCallback((note: NoteItem) => setNotes((prev) => mergeNotes([note], prev)), []);

  useLiveEventListener((event) => {
    const data = event.data as { note?: NoteItem; conversation?: { id?: string } };
    if (event.type === "note.created" && data.note?.conversation_id === conversationId) addNote(data.note);
    // Every change of a conversation leaves a trace in its trail.
    else if (event.type.startsWith("conversation.") && data.conversation?.id === conversationId) void loadActivity();
    else if (event.type === "message.sent" || event.type === "message.received") {
      const message = (event.data as { message?: { conversation_id?: string; sender?: { type?: string } } }).message;
      if (message?.conversation_id === conversationId && message.sender?.type === "automation") void loadActivity();
    }
  });

  return { notes, activity, addNote, seed };
}

function mergeNotes(incoming: NoteItem[], current: NoteItem[]) {
  const ids = new Set(incoming.map((n) => n.id));
  return [...incoming, ...current.filter((n) => !ids.has(n.id))];
}
