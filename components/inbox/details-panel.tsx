import dynamic from "next/dynamic";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { Button } from "@/components/ui/button";
import { Avatar } from "./conversation-list";
import { contactAddressLabel, type ConversationItem, displayName, type Teammate } from "./types";

// The contact's editor shows with an open conversation only: not part of the inbox's first load.
const ContactEditor = dynamic(() => import("@/components/contacts/contact-editor").then((module) => module.ContactEditor));

// Keys of the `inbox.details` catalog namespace.
const statusKeys = { open: "statusName.open", assigned: "statusName.assigned", closed: "statusName.closed", snoozed: "statusName.snoozed" } as const;

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
  const t = useTranslations("inbox.details");
  const format = useAppFormat();
  const [editing, setEditing] = useState(false);
  const sorted = [...teammates].sort((a, b) => Number(online.has(b.id)) - Number(online.has(a.id)) || a.name.localeCompare(b.name));
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-y-auto">
      <div className="flex items-center gap-2 border-b border-slate-200 p-3 lg:hidden">
        <Button type="button" variant="ghost" onClick={onBack} aria-label={t("back")}>
          ←
        </Button>
        <span className="font-semibold">{t("title")}</span>
      </div>
      {conversation ? (
        <section className="border-b border-slate-200 p-4" aria-label={t("contact")}>
          <div className="flex items-center gap-3">
            <Avatar name={displayName(conversation.contact)} className="h-12 w-12" />
            <div className="min-w-0">
              <p className="truncate font-semibold" data-user-content>
                {displayName(conversation.contact)}
              </p>
              <p className="text-sm text-slate-500" translate="no">
                {contactAddressLabel(conversation.contact)}
              </p>
              {conversation.contact.phone && conversation.contact.username ? (
                <p className="text-sm text-slate-500" data-testid="contact-username" translate="no">
                  {conversation.contact.username}
                </p>
              ) : null}
            </div>
          </div>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-500">{t("status")}</dt>
            <dd>{t(statusKeys[conversation.status])}</dd>
            <dt className="text-slate-500">{t("assignee")}</dt>
            <dd>
              {conversation.assigned_to ? (
                <span data-user-content>{teammates.find((person) => person.id === conversation.assigned_to)?.name ?? t("formerTeammate")}</span>
              ) : (
                t("nobody")
              )}
            </dd>
            <dt className="text-slate-500">{t("started")}</dt>
            <dd>
              <time dateTime={conversation.created_at}>{format.dateTime(conversation.created_at)}</time>
            </dd>
          </dl>
          <details className="mt-4 group" data-testid="contact-details" onToggle={(event) => setEditing(event.currentTarget.open)}>
            <summary className="cursor-pointer text-sm font-medium text-brand-700">{t("editContact")}</summary>
            {/* The editor (and its request for the whole contact) only once it is opened: opening a conversation asks for nothing else. */}
            <div className="mt-3">{editing ? <ContactEditor key={conversation.contact.id} contactId={conversation.contact.id} compact /> : null}</div>
          </details>
          {/* Not prefetched: the contact's page would be rendered on the server at every conversation opened. */}
          <Link href={`/contacts/${conversation.contact.id}`} prefetch={false} className="mt-2 inline-block text-sm text-brand-700 hover:underline">
            {t("openContact")}
          </Link>
        </section>
      ) : null}
      <section className="p-4" aria-label={t("team")}>
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("team")}</h3>
        <ul className="mt-2 flex flex-col gap-2">
          {sorted.map((mate) => {
            const isOnline = online.has(mate.id);
            return (
              <li key={mate.id} className="flex items-center gap-2 text-sm" data-testid="teammate" data-online={isOnline}>
                <span className="relative">
                  <Avatar name={mate.name} className="h-8 w-8 text-xs" />
                  <span
                    className={`absolute -bottom-0.5 -end-0.5 h-3 w-3 rounded-full ring-2 ring-white ${isOnline ? "bg-emerald-500" : "bg-slate-300"}`}
                    aria-hidden
                  />
                </span>
                <span className="min-w-0 flex-1 truncate">
                  <span data-user-content>{mate.name}</span>
                  {mate.id === me.id ? ` ${t("you")}` : ""}
                </span>
                <span className={`text-xs ${isOnline ? "text-emerald-700" : "text-slate-500"}`} data-testid="presence">
                  {typing?.has(mate.id) ? t("replying") : isOnline ? t("online") : t("offline")}
                </span>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
