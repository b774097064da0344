export type ContactDetail = {
  id: string;
  phone: string;
  name: string | null;
  email: string | null;
  notes: string | null;
  attributes: Record<string, string>;
  blocked: boolean;
  created_at: string;
  last_message_at: string | null;
  conversations_count: number;
};
