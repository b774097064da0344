import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { afterAll, beforeAll, inject } from "vitest";
import { type DbHandle, newPglite, openPglite, openPostgres, setDbHandle } from "@/db";
import { resetEnvCache } from "@/lib/platform/env";
import { dropDatabase as dropNamedDatabase } from "@/db/drop-database";

let handle: DbHandle | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

// Each test file gets its own database copied from the migrated template.
beforeAll(async () => {
  resetEnvCache();
  const pgTemplate = inject("postgresTemplate");
  if (pgTemplate) {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `chorus_t_${randomBytes(6).toString("hex")}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name} template ${pgTemplate}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    handle = openPostgres(target.toString(), { max: 5 });
    dropDatabase = async () => {
      await dropNamedDatabase(admin, name);
      await admin.end();
    };
  } else {
    const template = readFileSync(inject("pgliteTemplate"));
    handle = openPglite(newPglite(undefined, { loadDataDir: new Blob([template]) }));
  }
  setDbHandle(handle);
});

afterAll(async () => {
  setDbHandle(undefined);
  await handle?.close();
  await dropDatabase?.();
});
