import { closeDb, getDb, newPglite, openPglite, setDbHandle } from "@/db";
import { createAccountWithUser } from "@/lib/accounts/create-account";
import { createSession } from "@/lib/auth/sessions";

export type BenchResult = Record<string, unknown> & { name: string };
/** `smoke`: tiny sizes, so that CI runs every benchmark and none can rot (its numbers mean nothing). */
export type BenchOptions = { smoke: boolean };
export type Bench = { name: string; description: string; run: (options: BenchOptions) => Promise<BenchResult> };

/** Progress goes to stderr so stdout carries only the result lines. */
export const log = (message: string) => process.stderr.write(`${message}\n`);

/** A fresh, migrated embedded database installed as the process's database. */
export async function openBenchDatabase() {
  await closeDb();
  const handle = openPglite(newPglite("memory://"));
  await handle.migrate();
  setDbHandle(handle);
  return handle;
}

export async function createBenchAccount() {
  const { account, user } = await getDb().transaction((tx) =>
    createAccountWithUser(tx, { accountName: "Bench Co", name: "Bench Admin", email: "bench@example.com", password: "bench-password-123" }),
  );
  const session = await createSession({ user });
  return { account, user, token: session.token };
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const round = (n: number, digits = 3) => Number(n.toFixed(digits));

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** One request through a route handler, body read to the end; milliseconds. */
export async function timeRequest(handler: Handler, url: string, token: string): Promise<number> {
  const started = performance.now();
  const res = await handler(new Request(url, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({}) });
  await res.text();
  const elapsed = performance.now() - started;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return elapsed;
}
