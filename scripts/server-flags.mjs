// The Node.js flags the production server (scripts/server.mjs) is started with, by `npm start`
// (scripts/start.mjs) and by the benchmarks that measure it.
//
// How far V8 lets the heap grow past what is live before it collects. Under steady traffic V8
// grows the server thread's heap to several times what is live and keeps what it grew to: heap
// snapshots of a soak show about 90 MiB live after a full collection at its first, third and
// fourth minute, while the heap held up to 360 MiB and resident memory kept rising. With growth
// held to 1.5 times what is live, resident memory levels off (docs/operations.md, "Memory").
// This is a growth rate, not a cap: a burst of large requests (32 MiB media bodies) still gets
// the heap it needs instead of ending the process out of memory.
export const SERVER_HEAP_GROWING_PERCENT = 50;

/** The flags to put before `scripts/server.mjs` on a `node` command line. */
export function serverNodeFlags() {
  return [`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`];
}
