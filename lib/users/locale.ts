import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { getDb } from "@/db";
import { businessProfiles, users } from "@/db/schema";
import { isLocale, localeOfLanguage, type Locale } from "@/lib/platform/i18n/locales";

/**
 * The interface language of a signed-in person: the one they chose, else their account's
 * business language, else English. One query.
 */
export async function interfaceLocaleOf({ accountId, userId }: { accountId: string; userId: string }): Promise<Locale> {
  const [row] = await getDb()
    .select({ locale: users.locale, language: businessProfiles.language })
    .from(users)
    .leftJoin(businessProfiles, eq(businessProfiles.accountId, users.accountId))
    .where(and(eq(users.accountId, accountId), eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  if (row && isLocale(row.locale)) return row.locale;
  return row?.language ? localeOfLanguage(row.language) : "en";
}
