import { and, type SQL, sql } from "drizzle-orm";
import { type Executor, rowsOf } from "@/db";
import { type CampaignAudience, contacts } from "@/db/schema";

/**
 * The queries of a campaign's audience: the contacts it names, counted, sampled and priced.
 */

/**
 * The audience as a condition on `contacts` (alias-free): a contact must meet every criterion
 * given; `label_ids` matches a label set on the contact or on any of its conversations.
 */
export function audienceCondition(accountId: string, audience: CampaignAudience): SQL {
  const parts: SQL[] = [sql`${contacts.accountId} = ${accountId}`];
  if (audience.label_ids?.length) {
    const ids = JSON.stringify(audience.label_ids);
    parts.push(sql`exists (select 1 from jsonb_array_elements_text(${ids}::jsonb) as wanted(id)
      where ${contacts.labels} @> jsonb_build_array(jsonb_build_object('id', wanted.id))
        or exists (select 1 from conversations cv where cv.account_id = ${contacts.accountId} and cv.contact_id = ${contacts.id}
          and cv.labels @> jsonb_build_array(jsonb_build_object('id', wanted.id))))`);
  }
  if (audience.attributes && Object.keys(audience.attributes).length) {
    parts.push(sql`${contacts.attributes} @> ${JSON.stringify(audience.attributes)}::jsonb`);
  }
  if (audience.contact_ids?.length) {
    parts.push(sql`${contacts.id} in (select jsonb_array_elements_text(${JSON.stringify(audience.contact_ids)}::jsonb))`);
  }
  return sql.join(parts, sql` and `);
}

/** Why a contact gets no campaign message before any is written: blocked, opted out, or never agreed (when consent is required). */
export function skipReasonSql(requireOptIn: boolean): SQL {
  return sql`case when ${contacts.blocked} then 'blocked' when ${contacts.marketingOptIn} = false then 'opted_out'
    when ${contacts.marketingOptIn} is null and ${requireOptIn}::boolean then 'no_consent' else null end`;
}

/** How many contacts the condition names, and how many of them each skip reason holds back. */
export async function countAudience(db: Executor, { where, reason }: { where: SQL; reason: SQL }) {
  const [totals] = rowsOf<{ count: string | number; no_consent: string | number; opted_out: string | number; blocked: string | number }>(
    await db.execute(sql`select count(*) as count,
      count(*) filter (where r = 'no_consent') as no_consent, count(*) filter (where r = 'opted_out') as opted_out, count(*) filter (where r = 'blocked') as blocked
      from (select ${reason} as r from ${contacts} where ${where}) as audience`),
  );
  return totals;
}

/** The first ten contacts the condition names (oldest first), each with its skip reason. */
export async function sampleAudience(db: Executor, { where, reason }: { where: SQL; reason: SQL }) {
  return db
    .select({ id: contacts.id, name: contacts.name, phone: contacts.phone, reason: sql<string | null>`${reason}` })
    .from(contacts)
    .where(where)
    .orderBy(contacts.createdAt, contacts.id)
    .limit(10);
}

/** The phones of the audience's contacts that would be messaged now. */
export async function eligiblePhones(db: Executor, { accountId, audience, requireOptIn }: { accountId: string; audience: CampaignAudience; requireOptIn: boolean }) {
  const rows = await db
    .select({ phone: contacts.phone })
    .from(contacts)
    .where(and(audienceCondition(accountId, audience), sql`${skipReasonSql(requireOptIn)} is null`));
  return rows.map((r) => r.phone);
}
