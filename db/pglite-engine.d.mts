import type { PGlite, PGliteOptions } from "@electric-sql/pglite";

/** PGlite's start parameters with the embedded server's smaller buffer cache. */
export const EMBEDDED_START_PARAMS: string[];
/** The server's own embedded database (its worker thread): 16 MB of buffers. */
export const SERVER_START_PARAMS: string[];
/** Statements kept prepared per database; the least recently used beyond this are closed. */
export const MAX_PREPARED_STATEMENTS: number;
/** Data statements only: utility statements (BEGIN, SAVEPOINT, SET, DDL) cannot be planned ahead. */
export const PREPARABLE: RegExp;
/** A PGlite instance with the contrib extensions the migrations create (unaccent and pg_trgm). */
export function newPglite(dataDir?: string, options?: Omit<PGliteOptions, "dataDir" | "extensions">): PGlite;
/** The same database, its data statements run as named prepared statements (same results, errors and locks as `query()`). */
export function withPreparedStatements(pglite: PGlite): PGlite;
