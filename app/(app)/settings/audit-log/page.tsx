import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { getAppFormat } from "@/components/i18n/get-app-format";
import { AdminOnlyNotice } from "@/components/settings/admin-only";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { auditActions } from "@/lib/audit/actions";
import { listAuditLog } from "@/lib/audit/list-audit-log";
import { type AuditEntryOutput, auditLogQuery } from "@/lib/audit/schemas";
import { requireSession } from "@/lib/server/session";
import { listUsers } from "@/lib/users/users";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsAuditLog"))("title") };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
type Translate = Awaited<ReturnType<typeof getTranslations>>;

/** An action's name in the reader's language (catalog `settingsAuditLog.action.<action code>`), else its code. */
const actionLabel = (t: Translate, action: string) => (t.has(`action.${action}`) ? t(`action.${action}`) : action);

/** The credential behind an entry, in words: whose API token or app acted, or who was not signed in. */
function actorNote(t: Translate, actor: AuditEntryOutput["actor"]): string | null {
  if (actor.type === "api_token") return t("actor.apiToken", { name: actor.via?.user_name ?? t("actor.someone") });
  if (actor.type === "oauth_app") return t("actor.app", { name: actor.via?.user_name ?? t("actor.someone") });
  if (actor.type === "automation") return t("actor.automation");
  if (actor.type === "anonymous") return t("actor.anonymous");
  return null;
}

export default async function AuditLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requireSession();
  if (session.user.role !== "admin") return <AdminOnlyNotice what="auditLog" />;
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])) as Record<string, string | undefined>;
  const filters = { actor: raw.actor || undefined, action: raw.action || undefined, from: raw.from || undefined, to: raw.to || undefined };
  const parsed = auditLogQuery.safeParse({
    limit: 50,
    cursor: raw.cursor || undefined,
    actor: filters.actor,
    action: filters.action,
    // Days are read as whole UTC days.
    from: filters.from && DAY.test(filters.from) ? `${filters.from}T00:00:00.000Z` : filters.from,
    to: filters.to && DAY.test(filters.to) ? `${filters.to}T23:59:59.999Z` : filters.to,
  });
  const [page, users, t, format] = await Promise.all([
    parsed.success ? listAuditLog({ ctx: session, query: parsed.data }) : null,
    collectPages((cursor) => listUsers({ ctx: session, limit: 100, cursor })),
    getTranslations("settingsAuditLog"),
    getAppFormat(),
  ]);
  const next = page?.pagination.next_cursor
    ? `?${new URLSearchParams(Object.entries({ ...filters, cursor: page.pagination.next_cursor }).filter((e): e is [string, string] => Boolean(e[1])))}`
    : null;
  // Full width of their column and no wider: an action's name in Spanish or Portuguese is a whole
  // sentence, and a select is otherwise as wide as its longest option.
  const select = "w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";

  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <Card className="mb-6">
        <form method="get" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end" aria-label={t("filter")}>
          <div className="flex flex-col gap-1">
            <label htmlFor="audit-actor" className="text-sm font-medium text-slate-700">
              {t("who")}
            </label>
            <select id="audit-actor" name="actor" defaultValue={filters.actor ?? ""} className={select}>
              <option value="">{t("anyone")}</option>
              {users.map((u) => (
                <option key={u.id} value={u.id} data-user-content>
                  {u.name}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="audit-action" className="text-sm font-medium text-slate-700">
              {t("what")}
            </label>
            <select id="audit-action" name="action" defaultValue={filters.action ?? ""} className={select}>
              <option value="">{t("everyAction")}</option>
              {auditActions.map((a) => (
                <option key={a} value={a}>
                  {actionLabel(t, a)}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="audit-from" className="text-sm font-medium text-slate-700">
              {t("from")}
            </label>
            <input id="audit-from" type="date" name="from" defaultValue={filters.from} className={select} />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="audit-to" className="text-sm font-medium text-slate-700">
              {t("to")}
            </label>
            <input id="audit-to" type="date" name="to" defaultValue={filters.to} className={select} />
          </div>
          <div className="flex gap-2">
            <Button type="submit">{t("filterAction")}</Button>
            <Link href="/settings/audit-log" className="inline-flex items-center rounded-md px-3 py-2 text-sm text-slate-600 hover:bg-slate-100">
              {t("clear")}
            </Link>
          </div>
        </form>
      </Card>
      {!parsed.success ? (
        <Alert>{t("badFilters")}</Alert>
      ) : page && page.data.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-500">{t("noMatch")}</p>
        </Card>
      ) : page ? (
        <Card className="p-0">
          <ol className="divide-y divide-slate-100" aria-label={t("entries")}>
            {page.data.map((entry) => (
              <li key={entry.id} className="grid gap-1 px-4 py-3 text-sm md:grid-cols-[11rem_1fr_1fr_10rem] md:items-center md:gap-4 md:px-6">
                <time dateTime={entry.created_at} className="text-xs text-slate-500 md:text-sm">
                  {format.dateTime(entry.created_at)}
                </time>
                <span className="font-medium text-slate-900">{actionLabel(t, entry.action)}</span>
                <span className="min-w-0 text-slate-700">
                  <span className="block truncate">
                    {entry.actor.name ? (
                      <span data-user-content>{entry.actor.name}</span>
                    ) : entry.actor.type === "system" ? (
                      <span translate="no">Chorus</span>
                    ) : (
                      t("actor.unknown")
                    )}
                    {actorNote(t, entry.actor) ? <span className="ms-1 text-xs text-slate-500">({actorNote(t, entry.actor)})</span> : null}
                  </span>
                  {entry.target ? (
                    <span className="block truncate font-mono text-xs text-slate-500" translate="no">
                      {entry.target.type} {entry.target.id}
                    </span>
                  ) : null}
                </span>
                <span className="min-w-0 text-xs text-slate-500" translate="no">
                  <span className="block truncate">{entry.ip ?? "—"}</span>
                  <span className="block truncate" title={entry.user_agent ?? undefined}>
                    {entry.user_agent ?? ""}
                  </span>
                </span>
              </li>
            ))}
          </ol>
          {next ? (
            <div className="border-t border-slate-100 px-6 py-3 text-end">
              <Link href={next} className="text-sm font-medium text-brand-700 hover:underline">
                {t("older")}
              </Link>
            </div>
          ) : null}
        </Card>
      ) : null}
    </>
  );
}
