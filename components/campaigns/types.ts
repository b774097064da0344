export type Counts = { recipients: number; queued: number; sent: number; delivered: number; read: number; replied: number; failed: number; skipped: number };
export type Cost = { amount: number; currency: string; priced: number; unpriced: number };
export type Campaign = {
  id: string;
  name: string;
  template: { name: string; language: string; variables: { source: string; value?: string }[] };
  audience: { label_ids?: string[]; attributes?: Record<string, string>; contact_ids?: string[] };
  send_at: string | null;
  status: "draft" | "scheduled" | "sending" | "paused" | "done" | "cancelled";
  counts: Counts;
  estimated_cost: Cost | null;
  created_at: string;
};
export type Recipient = { contact_id: string; name: string | null; phone: string | null; status: string; reason: string | null; message_id: string | null; updated_at: string };
export type Preview = {
  count: number;
  eligible: number;
  skipped: { no_consent: number; opted_out: number; blocked: number };
  sample: { id: string; name: string | null; phone: string | null; eligible: boolean }[];
  estimated_cost: Cost | null;
};
export type Template = { id: string; name: string; language: string; category: string; status: string; components: { body: { text: string } } };
export type Label = { id: string; name: string; color: string };


/** Share of recipients settled (sent, failed or skipped), 0–100. */
export function progressOf(counts: Counts): number {
  if (!counts.recipients) return 0;
  return Math.round(((counts.recipients - counts.queued) / counts.recipients) * 100);
}
