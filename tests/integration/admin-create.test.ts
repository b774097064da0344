import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newPglite } from "@/db";

const dir = mkdtempSync(path.join(tmpdir(), "chorus-admin-create-"));
const dataDir = path.join(dir, "pglite");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run admin:create -- …` as a shell would run it, on its own embedded database. */
function adminCreate(...args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/admin-create.ts", ...args], {
    encoding: "utf8",
    env: { ...process.env, PGLITE_DIR: dataDir, DATABASE_URL: "" },
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe("npm run admin:create", () => {
  // Six shell runs, each starting the embedded database: minutes on a busy machine.
  it("creates accounts and users from a shell, refusing bad input", async () => {
    const weak = adminCreate("--email", "ana@example.com", "--password", "short", "--name", "Ana");
    expect(weak.status).toBe(2);
    expect(weak.out).toContain("--password: must be at least 10 characters");

    const first = adminCreate("--email", "ana@example.com", "--password", "long-enough-1", "--name", "Ana", "--account", "Shop One");
    expect(first.status, first.out).toBe(0);
    expect(first.out).toMatch(/Created account Shop One .* created admin ana@example.com/);

    const agent = adminCreate("--email", "bo@example.com", "--password", "long-enough-1", "--name", "Bo", "--role", "agent");
    expect(agent.out).toMatch(/Using account Shop One .* created agent bo@example.com/);

    const tenant = adminCreate("--email", "cy@example.com", "--password", "long-enough-1", "--name", "Cy", "--account", "Shop Two");
    expect(tenant.out).toMatch(/Created account Shop Two/);

    const ambiguous = adminCreate("--email", "di@example.com", "--password", "long-enough-1", "--name", "Di");
    expect(ambiguous.status).toBe(1);
    expect(ambiguous.out).toContain("name one with --account");

    const duplicate = adminCreate("--email", "ANA@example.com", "--password", "long-enough-1", "--name", "Dup", "--account", "Shop One");
    expect(duplicate.status).toBe(1);
    expect(duplicate.out).toContain("email");

    const db = newPglite(dataDir);
    const { rows } = await db.query<{ email: string; role: string; account: string }>(
      "select u.email, u.role, a.name as account from users u join accounts a on a.id = u.account_id order by u.email",
    );
    await db.close();
    expect(rows).toEqual([
      { email: "ana@example.com", role: "admin", account: "Shop One" },
      { email: "bo@example.com", role: "agent", account: "Shop One" },
      { email: "cy@example.com", role: "admin", account: "Shop Two" },
    ]);
  }, 180_000);
});
