import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SERVER_HEAP_GROWING_PERCENT, serverNodeFlags } from "@/scripts/server-flags.mjs";

// The production server's heap grows to a bounded multiple of what is live: without that V8
// grows the heap to several times what is live under steady traffic and keeps it (resident
// memory rising over a soak while the live heap stays flat).
describe("the server's Node.js flags", () => {
  it("hold the heap's growth to a multiple of what is live", () => {
    expect(serverNodeFlags()).toEqual([`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`]);
    expect(SERVER_HEAP_GROWING_PERCENT).toBeGreaterThan(0);
    expect(SERVER_HEAP_GROWING_PERCENT).toBeLessThanOrEqual(100);
  });

  it("are understood by this Node.js (an unknown flag would stop the server from starting)", () => {
    const child = spawnSync(process.execPath, [...serverNodeFlags(), "-e", "console.log(process.execArgv.join(' '))"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(child.stdout.trim().startsWith(serverNodeFlags().join(" "))).toBe(true);
  });

  it("leave the heap's size limit alone: a burst of large bodies gets the memory it needs", () => {
    const child = spawnSync(process.execPath, [...serverNodeFlags(), "-e", "console.log(require('node:v8').getHeapStatistics().heap_size_limit)"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
    const plain = spawnSync(process.execPath, ["-e", "console.log(require('node:v8').getHeapStatistics().heap_size_limit)"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
    expect(Number(child.stdout)).toBe(Number(plain.stdout));
  });
});
