import type postgres from "postgres";
import { PREPARABLE } from "./pglite-engine.mjs";

/**
 * The ORM runs every query through postgres.js `unsafe()` unprepared unless the query was given
 * a name, and an unprepared query with parameters costs two round trips (Parse/Describe, wait
 * for the parameter types, then Bind/Execute) and a fresh parse and plan on the server every
 * time. This has postgres.js prepare every data statement once per connection and reuse it,
 * the way its own tagged-template queries work: one round trip, no parse. Utility statements
 * (BEGIN, SAVEPOINT, SET, DDL) keep the unprepared path. postgres.js re-prepares a statement
 * whose plan a migration invalidated, and its connections are replaced every 30–60 minutes
 * (`max_lifetime`), which bounds the statements each one keeps.
 */
type Unsafe = postgres.Sql["unsafe"];
type Scoped = (sql: postgres.Sql) => unknown;

export function withPreparedStatements<T extends postgres.Sql>(client: T): T {
  return new Proxy(client, {
    get(target, key) {
      if (key === "unsafe") {
        return ((text: string, args?: never[], options?: postgres.UnsafeQueryOptions) =>
          target.unsafe(text, args, PREPARABLE.test(text) ? { ...options, prepare: true } : options)) as Unsafe;
      }
      // A transaction or savepoint hands its callback a client of its own: prepared the same way.
      if (key === "begin" || key === "savepoint") {
        return (...args: unknown[]) => {
          const callback = args.pop() as Scoped;
          return (Reflect.get(target, key, target) as (...a: unknown[]) => unknown).call(target, ...args, (scoped: postgres.Sql) => callback(withPreparedStatements(scoped)));
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
