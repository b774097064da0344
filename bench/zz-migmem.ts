import "./env";
import { readFileSync } from "node:fs";
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024);
const wasm = () => {
  const sm = readFileSync("/proc/self/smaps", "utf8").split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/);
  return sm.map((b) => ({ r: +(/\nRss:\s+(\d+)/.exec(b)?.[1] ?? 0), sz: +(/\nSize:\s+(\d+)/.exec(b)?.[1] ?? 0), h: b.split("\n")[0] }))
    .filter((x) => x.r > 3000).sort((a, b) => b.r - a.r).slice(0, 5).map((x) => `${Math.round(x.r / 1024)}/${Math.round(x.sz / 1024)} ${x.h.slice(0, 40)}`);
};
import { getDbHandle, closeDb } from "@/db";
console.log("before", rss());
const h = getDbHandle();
await h.migrate();
console.log("migrated", rss());
await new Promise((r) => setTimeout(r, 3000));
console.log("settled", rss(), wasm());
await closeDb();
