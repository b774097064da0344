// Imported first by bench/run.ts: benchmarks run on their own in-memory databases, with a
// fixed signing secret, and must not be throttled by the per-token rate limit.
process.env.AUTH_SECRET = "bench-secret-for-chorus-benchmarks-0123456789";
process.env.PGLITE_DIR = "memory://";
process.env.RATE_LIMIT_PER_MINUTE = "1000000";
delete process.env.DATABASE_URL;
delete process.env.REDIS_URL;

// "server-only" refuses to load outside a React Server bundle; the benchmarks call server
// modules directly, as the tests do (vitest aliases it to an empty module).
import { Module, createRequire } from "node:module";
const require = createRequire(import.meta.url);
const serverOnly = require.resolve("server-only");
const empty = new Module(serverOnly);
empty.filename = serverOnly;
empty.loaded = true;
require.cache[serverOnly] = empty;
