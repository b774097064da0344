import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { newPglite, openPglite, openPostgres } from "@/db";
import { dropDatabase } from "@/db/drop-database";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

// Per run, so that test runs of several checkouts can share one server.
export const POSTGRES_TEMPLATE = `chorus_tpl_${process.pid}`;

/**
 * Migrates one template database per run; each test file then starts from a copy of it
 * (a PGlite data-dir dump, or CREATE DATABASE ... TEMPLATE on PostgreSQL).
 */
export default async function globalSetup(project: TestProject) {
  if (process.env.TEST_DB === "postgres") {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await dropDatabase(admin, POSTGRES_TEMPLATE);
    await admin.unsafe(`create database ${POSTGRES_TEMPLATE}`);
    const target = new URL(url);
    target.pathname = `/${POSTGRES_TEMPLATE}`;
    const handle = openPostgres(target.toString(), { max: 1 });
    await handle.migrate();
    await handle.close();
    await admin.end();
    project.provide("postgresTemplate", POSTGRES_TEMPLATE);
    project.provide("pgliteTemplate", "");
    return async () => {
      const cleanup = postgres(url, { max: 1, onnotice: () => {} });
      await dropDatabase(cleanup, POSTGRES_TEMPLATE);
      await cleanup.end();
    };
  }
  const pglite = newPglite("memory://");
  const handle = openPglite(pglite);
  await handle.migrate();
  const dump = await pglite.dumpDataDir("none");
  const dir = mkdtempSync(path.join(tmpdir(), "chorus-test-"));
  const file = path.join(dir, "template.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide("pgliteTemplate", file);
  project.provide("postgresTemplate", "");
  return () => rmSync(dir, { recursive: true, force: true });
}
