// The embedded database's engine: how a PGlite instance is opened and how its statements are
// prepared. Plain JavaScript, so that the worker thread owning the database (db/pglite-worker.mjs)
// runs it as is; its types are in pglite-engine.d.mts.
import { PGlite, parse, protocol } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";

/**
 * PGlite's own start parameters, plus a smaller buffer cache: PostgreSQL's 128 MB of shared
 * buffers are most of an idle embedded server's memory, and the data files are read through the
 * operating system's page cache anyway.
 */
const EMBEDDED_START_PARAMS = [
  ...PGlite.defaultStartParams,
  "-c",
  "shared_buffers=32MB",
];

/**
 * The server's own embedded database (the worker thread of db/pglite-worker.mjs): 16 MB of
 * buffers. PGlite touches its whole buffer cache, so each megabyte is resident for as long as the
 * server runs, and a small business's working set is read through the operating system's page
 * cache anyway. Tests and benchmarks that open PGlite in their own thread keep 32 MB.
 */
export const SERVER_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

/**
 * A PGlite instance with the contrib extensions the migrations create (search: unaccent and
 * pg_trgm). Every embedded database, tests and benchmarks included, is opened through this.
 */
export function newPglite(dataDir, options = {}) {
  return new PGlite({ startParams: EMBEDDED_START_PARAMS, ...options, ...(dataDir ? { dataDir } : {}), extensions: { unaccent, pg_trgm } });
}

/**
 * PGlite's own `query()` sends every statement as the unnamed statement, so the embedded
 * database parses and plans it again on every call; for the short queries of a request
 * that planning costs ten times the execution. This gives each distinct statement text a
 * named prepared statement, prepared once per database and reused (PostgreSQL moves a
 * statement that plans the same way every time to a cached generic plan), the way
 * postgres.js already does on a server database. Same results, same errors, same locks as
 * `query()`: outside a transaction a statement waits for the one running; inside one it runs
 * in that transaction.
 */

// A prepared statement is {name, paramTypes, columns}: `columns` is the statement's
// RowDescription (none for a statement without rows), read once when it was prepared: a portal
// of it in text format describes itself the same way, so executions skip Describe.

/** Statements kept prepared per database; the least recently used beyond this are closed. */
export const MAX_PREPARED_STATEMENTS = 500;
// Data statements only: utility statements (BEGIN, SAVEPOINT, SET, DDL) cannot be planned ahead.
export const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
// PostgreSQL refuses to reuse a statement whose result columns changed under it (a migration);
// a statement closed behind this cache's back (DISCARD ALL) no longer exists.
const STALE_PLAN = "0A000";
const UNKNOWN_STATEMENT = "26000";
const isStale = (error) => [STALE_PLAN, UNKNOWN_STATEMENT].includes(error?.code ?? "");

const noSync = { syncToFs: false };

/** Wraps a PGlite instance so that its data statements run as named prepared statements. */
export function withPreparedStatements(pglite) {
  // PGlite's own locks: `_runExclusiveQuery` and `_runExclusiveTransaction`.
  const locks = pglite;
  const prepared = new Map();
  const toClose = [];
  let counter = 0;
  // Distinct per wrapper, so that two wrappers of one database never share a name.
  const prefix = `chorus_${Math.random().toString(36).slice(2, 8)}_`;

  /** One call into the database for several protocol messages, ending with a Sync (an error ends the batch there). */
  const send = (...parts) => pglite.execProtocol(Buffer.concat([...parts, protocol.serialize.sync()]), noSync);

  async function run(text, params, options, inTransaction) {
    const { serialize } = protocol;
    if (toClose.length) await send(...toClose.splice(0).map((name) => serialize.close({ type: "S", name })));
    let statement = prepared.get(text);
    if (statement) {
      // Most recently used last: the first entries are the ones closed when there are too many.
      prepared.delete(text);
      prepared.set(text, statement);
    } else {
      const name = `${prefix}${++counter}`;
      const described = await send(serialize.parse({ name, text, types: options?.paramTypes }), serialize.describe({ type: "S", name }));
      statement = {
        name,
        paramTypes: parse.parseDescribeStatementResults(described.messages),
        columns: described.messages.find((m) => m.name === "rowDescription"),
      };
      prepared.set(text, statement);
      if (prepared.size > MAX_PREPARED_STATEMENTS) {
        const [oldest, { name: oldName }] = prepared.entries().next().value;
        prepared.delete(oldest);
        toClose.push(oldName);
      }
    }
    const types = statement.paramTypes;
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = options?.serializers?.[types[i]] ?? pglite.serializers[types[i]];
      return serializer ? serializer(value) : String(value);
    });
    let result;
    try {
      result = await send(serialize.bind({ statement: statement.name, values }), serialize.execute({}));
    } catch (error) {
      if (isStale(error) && prepared.get(text) === statement) {
        prepared.delete(text);
        toClose.push(statement.name);
      }
      throw error;
    }
    if (!inTransaction) await pglite.syncToFs();
    // parseResults copies every type parser of the database when a caller brings its own (the
    // ORM always does); layering the caller's few over the database's is the same lookup.
    const parsers = options?.parsers ? Object.assign(Object.create(pglite.parsers), options.parsers) : pglite.parsers;
    const messages = statement.columns ? [statement.columns, ...result.messages] : result.messages;
    return parse.parseResults(messages, parsers, { ...options, parsers: undefined })[0];
  }

  const preparable = (text, options) => PREPARABLE.test(text) && !options?.blob;

  const inTransaction = (tx) =>
    new Proxy(tx, {
      get(target, key, receiver) {
        if (key !== "query") return Reflect.get(target, key, receiver);
        return async (text, params = [], options) => {
          if (!preparable(text, options)) return target.query(text, params, options);
          if (target.closed) throw new Error("Transaction is closed");
          return await locks._runExclusiveQuery(() => run(text, params, options, true));
        };
      },
    });

  return new Proxy(pglite, {
    get(target, key) {
      if (key === "query") {
        return async (text, params = [], options) => {
          if (!preparable(text, options)) return target.query(text, params, options);
          // Refused like query() once the database is closing or closed.
          await locks._checkReady();
          const once = () => locks._runExclusiveTransaction(() => locks._runExclusiveQuery(() => run(text, params, options, false)));
          try {
            return await once();
          } catch (error) {
            // Outside a transaction, a statement whose columns changed under it is prepared again.
            if (isStale(error)) return once();
            throw error;
          }
        };
      }
      if (key === "transaction") {
        return (callback) => target.transaction((tx) => callback(inTransaction(tx)));
      }
      const value = Reflect.get(target, key, target);
      // PGlite's methods use private fields: they must run on the instance itself.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
