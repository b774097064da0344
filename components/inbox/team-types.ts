export type NoteItem = {
  id: string;
  conversation_id: string;
  author: { id: string; name: string };
  text: string;
  mentions: string[];
  created_at: string;
};

export type ActivityItem = {
  id: string;
  conversation_id: string;
  type: "created" | "assigned" | "unassigned" | "closed" | "reopened" | "snoozed" | "labeled" | "unlabeled" | "auto_reply" | "handed_off" | "automation" | "macro" | "team_changed" | "priority_changed" | "sla_applied";
  actor: { type: "user" | "automation" | "contact"; id?: string; name?: string | null };
  data: Record<string, unknown>;
  created_at: string;
};

export type NotificationItem = {
  id: string;
  /** mention: a teammate mentioned you; number_health (admins): the number's quality or limit dropped. */
  type: "mention" | "number_health" | "sla_warning" | "sla_breached";
  conversation_id: string | null;
  note_id: string | null;
  actor: { id: string; name: string } | null;
  text: string | null;
  contact: { id: string; phone: string | null; username?: string | null; name: string | null } | null;
  read_at: string | null;
  created_at: string;
};

export type CannedReplyItem = { id: string; shortcut: string; text: string; created_at: string; updated_at: string };
