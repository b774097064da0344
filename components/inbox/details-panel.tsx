import dynamic from "next/dynamic";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { formatDateTime } from "@/components/ui/format";
import { Avatar } from "./conversation-list";
import { contactAddressLabel, type ConversationItem, displayName, type Teammate } from "./types";

// The contact's editor shows with an open conversation only: not part of the inbox's first load.
const ContactEditor = dynamic(() => import("@/components/contacts/contact-editor").then((module) => module.ContactEditor));

export function DetailsPanel({
  conversation,
  teammates,
  online,
  typing,
  me,
  onBack,
}: {
  conversation: ConversationItem | null;
  teammates: Teammate[];
  online: Set<string>;
  /** Teammates typing a reply now: shown as replying (and online). */
  typing?: Map<string, unknown>;
  me: Teammate;
  onBack: () => void;
}) {
  const sorted = [...teammates].sort((a, b) => Number(online.has(b.id)) - Number(online.has(a.id)) || a.name.localeCompare(b.name));
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-y-auto">
      <div className="flex items-center gap-2 border-b border-slate-200 p-3 lg:hidden">
        <Button type="button" variant="ghost" onClick={onBack} aria-label="Back to the conversation">
          ←
        </Button>
        <span className="font-semibold">Details</span>
      </div>
      {conversation ? (
        <section className="border-b border-slate-200 p-4" aria-label="Contact">
          <div className="flex items-center gap-3">
            <Avatar name={displayName(conversation.contact)} className="h-12 w-12" />
            <div className="min-w-0">
              <p className="truncate font-semibold">{displayName(conversation.contact)}</p>
              <p className="text-sm text-slate-500">{contactAddressLabel(conversation.contact)}</p>
              {conversation.contact.phone && conversation.contact.username ? (
                <p className="text-sm text-slate-500" data-testid="contact-username">
                  {conversation.contact.username}
                </p>
              ) : null}
            </div>
          </div>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-500">Status</dt>
            <dd className="capitalize">{conversation.status}</dd>
            <dt className="text-slate-500">Assignee</dt>
            <dd>{conversation.assigned_to ? (teammates.find((t) => t.id === conversation.assigned_to)?.name ?? "Former teammate") : "Nobody"}</dd>
            <dt className="text-slate-500">Started</dt>
            <dd>{formatDateTime(conversation.created_at)}</dd>
          </dl>
          <details className="mt-4 group" data-testid="contact-details">
            <summary className="cursor-pointer text-sm font-medium text-brand-700">Edit contact</summary>
            <div className="mt-3">
              <ContactEditor key={conversation.contact.id} contactId={conversation.contact.id} compact />
            </div>
          </details>
          <Link href={`/contacts/${conversation.contact.id}`} className="mt-2 inline-block text-sm text-brand-700 hover:underline">
            Open contact page
          </Link>
        </section>
      ) : null}
      <section className="p-4" aria-label="Team">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Team</h3>
        <ul className="mt-2 flex flex-col gap-2">
          {sorted.map((t) => {
            const isOnline = online.has(t.id);
            return (
              <li key={t.id} className="flex items-center gap-2 text-sm" data-testid="teammate" data-online={isOnline}>
                <span className="relative">
                  <Avatar name={t.name} className="h-8 w-8 text-xs" />
                  <span
                    className={`absolute -bottom-0.5 -right-0.5 h-3 w-3 rounded-full ring-2 ring-white ${isOnline ? "bg-emerald-500" : "bg-slate-300"}`}
                    aria-hidden
                  />
                </span>
                <span className="min-w-0 flex-1 truncate">
                  {t.name}
                  {t.id === me.id ? " (you)" : ""}
                </span>
                <span className={`text-xs ${isOnline ? "text-emerald-700" : "text-slate-500"}`} data-testid="presence">
                  {typing?.has(t.id) ? "Replying…" : isOnline ? "Online" : "Offline"}
                </span>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
