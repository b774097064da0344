import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SERVER_MAX_OLD_SPACE_MIB, serverNodeFlags } from "@/scripts/server-flags.mjs";

// The production server's heap is capped near the memory goal: without a cap V8 grows the heap
// to several times what is live under steady traffic and keeps it (resident memory rising over
// a soak while the live heap stays flat).
describe("the server's Node.js flags", () => {
  it("cap V8's old generation, so a process started with them has a heap limit within the memory goal", () => {
    const flags = serverNodeFlags("");
    expect(flags).toEqual([`--max-old-space-size=${SERVER_MAX_OLD_SPACE_MIB}`]);
    const child = spawnSync(process.execPath, [...flags, "-e", "console.log(require('node:v8').getHeapStatistics().heap_size_limit)"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
    const limitMiB = Number(child.stdout.trim()) / 1024 / 1024;
    expect(limitMiB).toBeGreaterThan(SERVER_MAX_OLD_SPACE_MIB);
    expect(limitMiB).toBeLessThan(400);
  });

  it("leave a host's own heap size in NODE_OPTIONS alone", () => {
    expect(serverNodeFlags("--max-old-space-size=1024")).toEqual([]);
    expect(serverNodeFlags("--enable-source-maps --max_old_space_size=768")).toEqual([]);
    expect(serverNodeFlags("--enable-source-maps")).toHaveLength(1);
  });
});
