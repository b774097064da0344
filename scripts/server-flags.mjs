// The Node.js flags the production server (scripts/server.mjs) is started with, by `npm start`
// (scripts/start.mjs) and by the benchmarks that measure it.
//
// A cap on V8's old generation. Under steady traffic V8 grows the server thread's heap to several
// times what is live and keeps what it grew to: heap snapshots of a soak show about 90 MiB live
// after a full collection at its first, third and fourth minute, while the heap held 360 MiB and
// resident memory kept rising. With a 256 MiB cap the collector works closer to what is live and
// resident memory levels off (docs/operations.md, "Memory"). A host that needs more sets its own
// `--max-old-space-size` in NODE_OPTIONS, which is then left alone.
export const SERVER_MAX_OLD_SPACE_MIB = 256;

/** The flags to put before `scripts/server.mjs` on a `node` command line. */
export function serverNodeFlags(nodeOptions = process.env.NODE_OPTIONS ?? "") {
  return /--max[-_]old[-_]space[-_]size/.test(nodeOptions) ? [] : [`--max-old-space-size=${SERVER_MAX_OLD_SPACE_MIB}`];
}
