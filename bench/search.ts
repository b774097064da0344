import { sql } from "drizzle-orm";
import { GET as search } from "@/app/v1/search/route";
import { getDb } from "@/db";
import { type Bench, createBenchAccount, withoutSecondaryIndexes, log, openBenchDatabase, percentile, round, timeRequest } from "./support";

const GOAL_P95_MS = 100;

/** Sizes of the full run and of `--smoke` (a quick check that the benchmark still works). */
const sizes = (smoke: boolean) =>
  smoke
    ? { conversations: 100, messagesPerConversation: 20, warmup: 5, samples: 40 }
    : { conversations: 5_000, messagesPerConversation: 20, warmup: 30, samples: 400 };

const firstNames = ["Ana", "José", "María", "Lucía", "Martín", "Sofía", "Ramón", "Inés", "Joaquín", "Valentina", "Andrés", "Camila", "Tomás", "Belén", "Agustín", "Zoe"];
const lastNames = ["Gómez", "Núñez", "Pérez", "López", "Fernández", "Martínez", "Rodríguez", "Sánchez", "Díaz", "Álvarez", "Muñoz", "Romero", "Suárez", "Benítez", "Acuña", "Ibáñez", "Giménez", "Castaño", "Peña", "Ortíz"];
const syllables = ["ca", "ma", "ta", "ri", "lo", "ne", "pa", "so", "fi", "du", "gre", "tra", "bló", "chá", "mé", "qui", "zón", "ñu", "ve", "pi", "te", "ro", "la", "ga", "ción"];

/** A deterministic vocabulary of 2,000 two-to-four-syllable words, some with accents. */
function vocabulary(): string[] {
  const words = new Set<string>();
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
  while (words.size < 2_000) {
    const length = 2 + (next() % 3);
    let word = "";
    for (let i = 0; i < length; i++) word += syllables[next() % syllables.length];
    words.add(word);
  }
  return [...words];
}

export { sizes, vocabulary, firstNames, lastNames };

/** The benchmark's data: contacts with Spanish names, their conversations, and their messages. */
export async function seedSearchData({ accountId, userId, size, words }: { accountId: string; userId: string; size: ReturnType<typeof sizes>; words: string[] }) {
  const db = getDb();
  const account = { id: accountId };
  const user = { id: userId };
  const messageCount = size.conversations * size.messagesPerConversation;
  log(`seeding ${size.conversations.toLocaleString("en-US")} conversations and ${messageCount.toLocaleString("en-US")} messages…`);
  const seedStarted = performance.now();
  const t0 = new Date(Date.now() - messageCount * 1000).toISOString();
  // Eight words picked by a hash of the message number (written out: no subquery per row).
  const eightWords = sql.raw(Array.from({ length: 8 }, (_, i) => `w[1 + ((m * 2654435761 + ${i + 1} * 40503) % 2000)::int]`).join(" || ' ' || "));
  await db.execute(sql`
    insert into contacts (id, account_id, phone, name, created_at, updated_at)
    select 'ctc_bench' || lpad(i::text, 17, '0'), ${account.id}, (5491100000000 + i * 7919)::text,
           (string_to_array(${firstNames.join(",")}, ','))[1 + i % ${firstNames.length}] || ' ' ||
           (string_to_array(${lastNames.join(",")}, ','))[1 + (i / ${firstNames.length}) % ${lastNames.length}],
           ${t0}::timestamptz + i * interval '1 second', ${t0}::timestamptz + i * interval '1 second'
    from generate_series(1, ${size.conversations}) as i`);
  await db.execute(sql`
    insert into conversations (id, account_id, contact_id, status, assigned_to, assigned_at, last_message_at,
                               last_message_preview, unread_count, created_at, updated_at, closed_at)
    select 'conv_bench' || lpad(i::text, 16, '0'), ${account.id}, 'ctc_bench' || lpad(i::text, 17, '0'),
           (array['open', 'assigned', 'closed'])[1 + i % 3],
           case when i % 3 = 1 then ${user.id} end, case when i % 3 = 1 then ${t0}::timestamptz end,
           ${t0}::timestamptz + (i * ${size.messagesPerConversation}) * interval '1 second', 'Last message', 0,
           ${t0}::timestamptz, ${t0}::timestamptz, case when i % 3 = 2 then ${t0}::timestamptz end
    from generate_series(1, ${size.conversations}) as i`);
  await db.execute(sql`
    with vocabulary as (select string_to_array(${words.join(" ")}, ' ') as w)
    insert into messages (id, account_id, conversation_id, direction, from_number, to_number, type, text, status,
                          sender_type, created_at, updated_at)
    select 'msg_bench' || lpad(m::text, 17, '0'), ${account.id},
           'conv_bench' || lpad((1 + (m - 1) / ${size.messagesPerConversation})::text, 16, '0'),
           case when m % 2 = 0 then 'inbound' else 'outbound' end, '5491100000000', '15550000000', 'text',
           ${eightWords},
           case when m % 2 = 0 then 'received' else 'read' end,
           case when m % 2 = 0 then 'contact' else 'user' end,
           ${t0}::timestamptz + m * interval '1 second', ${t0}::timestamptz + m * interval '1 second'
    from generate_series(1, ${messageCount}) as m, vocabulary`);
  await db.execute(sql`analyze contacts`);
  await db.execute(sql`analyze conversations`);
  await db.execute(sql`analyze messages`);
  log(`seeded in ${round((performance.now() - seedStarted) / 1000, 1)} s`);
}

const plain = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * GET /v1/search through the real route handler over 100,000 messages (5,000 conversations of
 * 20 messages of 8 words each from a 2,000-word vocabulary): words typed without accents,
 * contact names, and parts of numbers, all of which must find something. Goal: p95 < 100 ms.
 */
export const searchBench: Bench = {
  name: "search-100k-messages",
  description: "GET /v1/search p95 over 100,000 messages (words, names, numbers; accent-insensitive)",
  run: ({ smoke }) => runSearchBench({ name: "search-100k-messages", size: sizes(smoke) }),
};

/** The same searches over 1,000,000 messages (50,000 conversations of 20). Goal: p95 < 100 ms. */
export const search1mBench: Bench = {
  name: "search-1m",
  description: "GET /v1/search p95 over 1,000,000 messages (words, names, numbers; accent-insensitive)",
  run: ({ smoke }) =>
    runSearchBench({
      name: "search-1m",
      size: smoke
        ? { conversations: 200, messagesPerConversation: 20, warmup: 5, samples: 40 }
        : { conversations: 50_000, messagesPerConversation: 20, warmup: 30, samples: 400 },
    }),
};

async function runSearchBench({ name, size }: { name: string; size: ReturnType<typeof sizes> }) {
  const messageCount = size.conversations * size.messagesPerConversation;
  await openBenchDatabase();
  const { account, user, token } = await createBenchAccount();
  const words = vocabulary();

  await withoutSecondaryIndexes(["contacts", "conversations", "messages", "message_search"], () => seedSearchData({ accountId: account.id, userId: user.id, size, words }));

  // Queries a person would type: a word from the messages without its accents, a surname
  // without accents, a first name, and a run of digits from a number.
  const queries: string[] = [];
  for (let i = 0; i < 50; i++) {
    queries.push(plain(words[(i * 37) % words.length]));
    queries.push(plain(lastNames[i % lastNames.length]));
    queries.push(firstNames[i % firstNames.length].toUpperCase());
    queries.push(String(5491100000000 + (1 + ((i * 97) % size.conversations)) * 7919).slice(-6));
  }
  const url = (q: string) => `http://localhost/v1/search?q=${encodeURIComponent(q)}&limit=20`;
  const empty: string[] = [];
  for (const q of queries.slice(0, 8)) {
    const res = await search(new Request(url(q), { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({}) });
    const body = (await res.json()) as { data: unknown[] };
    if (res.status !== 200) throw new Error(`search for ${q} answered ${res.status}`);
    if (body.data.length === 0) empty.push(q);
  }
  if (empty.length) throw new Error(`searches found nothing for ${empty.join(", ")}`);

  log(`warming up, then ${size.samples} searches…`);
  for (let i = 0; i < size.warmup; i++) await timeRequest(search, url(queries[i % queries.length]), token);
  const samples: number[] = [];
  for (let i = 0; i < size.samples; i++) samples.push(await timeRequest(search, url(queries[(i * 13) % queries.length]), token));
  const p95 = percentile(samples, 95);
  return {
    name,
    messages: messageCount,
    conversations: size.conversations,
    samples: samples.length,
    p50_ms: round(percentile(samples, 50)),
    p95_ms: round(p95),
    max_ms: round(Math.max(...samples)),
    goal: `p95 < ${GOAL_P95_MS} ms`,
    pass: p95 < GOAL_P95_MS,
  };
  }
