/** A second process on a data directory another one holds (PGlite has one owner). */
export class DataDirInUseError extends Error {
  constructor(message: string);
}
/** The lock file's name inside a data directory. */
export const DATA_DIR_LOCK: string;
/** Makes this process the one owner of an embedded data directory; returns the release function. */
export function lockDataDir(dir: string): () => void;
