/**
 * The options every backend takes, written once: the memory backend takes the first three, the
 * database backends (SQLite, PostgreSQL) all five, each beside its own.
 */
import type { StoreWarning } from "./port.js";

export interface BackendOptions {
  /** The clock of each new row's `createdAt` (default: the system clock); tests inject one. */
  now?: () => Date;
  /** The id of a row appended without one (default `crypto.randomUUID()`). */
  generateId?: () => string;
  /** The largest row `append` accepts, in bytes of its JSON (default 32 MiB, `MAX_ROW_BYTES`). */
  maxRowBytes?: number;
}

export interface DatabaseBackendOptions extends BackendOptions {
  /** Called for rows skipped on read (corrupt JSON, newer format); default: a line on stderr. */
  onWarning?: (warning: StoreWarning) => void;
  /**
   * Open an existing store without ever writing to it (nothing is created or migrated): every
   * write (`append`, `fork`, `attachParent`, `deleteSession`) throws `StoreReadOnlyError`. Default `false`.
   */
  readOnly?: boolean;
}
