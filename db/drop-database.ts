import type { Sql } from "postgres";

/**
 * Drops a database its tests or benchmark created, with the connections still open to it.
 * `WITH (FORCE)` refuses (42501) while an autovacuum worker of the server is in that database
 * and the role may not signal it; the worker is done within moments, so this tries again.
 */
export async function dropDatabase(admin: Sql, name: string, { attempts = 20, waitMs = 250 } = {}): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`);
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== "42501" || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
