import type { ActivityOutput } from "@/lib/activity/schemas";
import type { CannedReplyOutput } from "@/lib/canned-replies/schemas";
import type { NoteOutput } from "@/lib/notes/schemas";
import type { NotificationOutput } from "@/lib/notifications/schemas";

// The team side of a conversation as the API sends it: each type is the output schema the
// server validates its answer against, so the browser cannot drift from the API.

/** An internal note (`GET /v1/conversations/{id}/notes`). */
export type NoteItem = NoteOutput;

/** One entry of a conversation's activity trail (`GET /v1/conversations/{id}/activity`). */
export type ActivityItem = ActivityOutput;

/** Something that needs the person's attention (`GET /v1/notifications`). */
export type NotificationItem = NotificationOutput;

/** A saved answer inserted with `/shortcut` (`GET /v1/canned-replies`). */
export type CannedReplyItem = CannedReplyOutput;
