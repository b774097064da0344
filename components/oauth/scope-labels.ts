import type { Scope } from "@/lib/auth/scopes";

/** The `oauth.scopes` translator, from `getTranslations("oauth.scopes")` or `useTranslations("oauth.scopes")`. */
type ScopeT = (key: string) => string;

/** What each scope lets its holder do, in the reader's language (the scope's code stays as it is). */
export function scopeLabelsIn(t: ScopeT): Record<Scope, string> {
  return {
    "conversations:read": t("conversationsRead"),
    "conversations:write": t("conversationsWrite"),
    "conversations:delete": t("conversationsDelete"),
    "messages:read": t("messagesRead"),
    "messages:write": t("messagesWrite"),
    "messages:delete": t("messagesDelete"),
    "users:read": t("usersRead"),
    "users:write": t("usersWrite"),
    "users:delete": t("usersDelete"),
    "reports:read": t("reportsRead"),
    "webhooks:read": t("webhooksRead"),
    "webhooks:write": t("webhooksWrite"),
    "webhooks:delete": t("webhooksDelete"),
    "config:read": t("configRead"),
    "config:write": t("configWrite"),
    "audit:read": t("auditRead"),
    "apps:read": t("appsRead"),
    "apps:write": t("appsWrite"),
    "contacts:read": t("contactsRead"),
    "contacts:write": t("contactsWrite"),
    "teams:read": t("teamsRead"),
    "teams:write": t("teamsWrite"),
  };
}
