import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ensureBuild, root } from "./server-process";
import { type Bench, log, round } from "./support";

const GOAL_KB = 170;
const ROUTE = "/inbox";

/**
 * The JavaScript a phone downloads to show the inbox the first time: the chunks the production
 * build lists for /inbox (.next/diagnostics/route-bundle-stats.json, framework included),
 * each gzipped as a server sends it. Goal: ≤ 170 KB.
 */
export const inboxBundleBench: Bench = {
  name: "inbox-bundle",
  description: "first-load JavaScript of /inbox, gzipped, from the production build",
  async run() {
    ensureBuild();
    const stats = JSON.parse(readFileSync(path.join(root, ".next/diagnostics/route-bundle-stats.json"), "utf8")) as { route: string; firstLoadChunkPaths: string[] }[];
    const route = stats.find((entry) => entry.route === ROUTE);
    if (!route) throw new Error(`the build lists no route ${ROUTE}`);
    const chunks = route.firstLoadChunkPaths.map((file) => {
      const bytes = readFileSync(path.join(root, file));
      return { file: path.basename(file), kb: round(bytes.length / 1024, 1), gzip_kb: round(gzipSync(bytes).length / 1024, 1) };
    });
    const total = chunks.reduce((sum, chunk) => sum + chunk.gzip_kb, 0);
    const biggest = [...chunks].sort((a, b) => b.gzip_kb - a.gzip_kb).slice(0, 5);
    log(`  ${chunks.length} chunks; the biggest: ${biggest.map((c) => `${c.file} ${c.gzip_kb} KB`).join(", ")}`);
    return {
      name: this.name,
      route: ROUTE,
      chunks: chunks.length,
      uncompressed_kb: round(chunks.reduce((sum, chunk) => sum + chunk.kb, 0), 1),
      gzip_kb: round(total, 1),
      biggest_gzip_kb: biggest,
      goal: `≤ ${GOAL_KB} KB gzip`,
      pass: total <= GOAL_KB,
    };
  },
};
