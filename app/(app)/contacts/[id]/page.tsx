import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { ContactEditor } from "@/components/contacts/contact-editor";
import { Card } from "@/components/ui/card";
import { getAppFormat } from "@/components/i18n/get-app-format";
import { requireSession } from "@/lib/server/session";
import { getContact } from "@/lib/contacts/contacts";
import { listContactConversations } from "@/lib/contacts/contact-conversations";
import { NotFoundError } from "@/lib/platform/errors";

export async function generateMetadata() {
  return { title: (await getTranslations("contacts.page"))("title") };
}

export default async function ContactPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const session = await requireSession();
  const contact = await getContact({ ctx: session, id }).catch((error: unknown) => {
    if (error instanceof NotFoundError) notFound();
    throw error;
  });
  const conversations = await listContactConversations({ ctx: session, contactId: contact.id, limit: 50 });
  const [t, format] = await Promise.all([getTranslations("contacts.page"), getAppFormat()]);
  const statusLabel: Record<string, string> = { open: t("status.open"), assigned: t("status.assigned"), closed: t("status.closed"), snoozed: t("status.snoozed") };
  return (
    <main className="mx-auto h-full max-w-5xl overflow-y-auto px-4 py-6">
      <Link href="/contacts" className="text-sm text-brand-700 hover:underline">
        {t("back")}
      </Link>
      <div className="mt-3 mb-6">
        <h1 className="text-xl font-semibold text-slate-900" data-user-content>{contact.name || (contact.phone ? `+${contact.phone}` : contact.username || contact.network_user_id)}</h1>
        <p className="mt-1 text-sm text-slate-600">
          <span data-user-content>{[contact.phone ? `+${contact.phone}` : null, contact.username].filter(Boolean).join(" · ") || contact.network_user_id}</span> ·{" "}
          {t("customerSince", { date: format.dateTime(contact.created_at) })}
          {contact.blocked ? <span className="ms-2 rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">{t("blocked")}</span> : null}
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <h2 className="mb-4 font-semibold">{t("details")}</h2>
          <ContactEditor contactId={contact.id} initial={contact} />
        </Card>
        <Card>
          <h2 className="mb-3 font-semibold">{t("conversations", { count: contact.conversations_count })}</h2>
          {conversations.data.length === 0 ? <p className="text-sm text-slate-500">{t("noConversations")}</p> : null}
          <ul className="flex flex-col divide-y divide-slate-100">
            {conversations.data.map((c) => (
              <li key={c.id} className="py-2 text-sm">
                <Link href={`/inbox/${c.id}`} className="flex flex-col gap-0.5 rounded px-1 hover:bg-slate-50">
                  <span className="flex items-center gap-2">
                    <span className="font-medium">{statusLabel[c.status] ?? c.status}</span>
                    <time className="ms-auto text-xs text-slate-500" dateTime={c.last_message_at ?? c.created_at}>
                      {format.dateTime(c.last_message_at ?? c.created_at)}
                    </time>
                  </span>
                  {c.last_message_preview ? (
                    <span className="truncate text-slate-600" data-user-content>
                      {c.last_message_preview}
                    </span>
                  ) : (
                    <span className="truncate text-slate-600">{t("noMessages")}</span>
                  )}
                </Link>
              </li>
            ))}
          </ul>
          {conversations.pagination.has_more ? <p className="mt-2 text-xs text-slate-500">{t("mostRecent")}</p> : null}
        </Card>
      </div>
    </main>
  );
}
