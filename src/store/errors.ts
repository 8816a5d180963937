/**
 * Store failures. Bad input to the store (a conflicting writer, a database that is not ours)
 * gets a typed error with an actionable message; nothing is written when one is thrown.
 */
import { CtxwinError, defineIsInstance } from "../core/errors.js";

/**
 * `expectLastSeq` did not match: another writer appended first. Re-read and retry.
 *
 * @example
 * if (AppendConflictError.isInstance(error)) await retryFrom(error.actualLastSeq)
 */
export class AppendConflictError extends CtxwinError {
  static readonly errorName = "CtxwinAppendConflictError";
  static override isInstance = defineIsInstance(AppendConflictError.errorName) as (
    error: unknown,
  ) => error is AppendConflictError;

  constructor(
    readonly sessionId: string,
    readonly expectedLastSeq: number,
    readonly actualLastSeq: number,
  ) {
    super(
      AppendConflictError.errorName,
      `Append to session '${sessionId}' refused: expected last seq ${expectedLastSeq}, ` +
        `but it is ${actualLastSeq} (another writer got in first). Nothing was written.`,
    );
  }
}

/**
 * A second boundary with an existing `rolloverId` was refused (one boundary per rollover).
 *
 * @example
 * if (DuplicateRolloverError.isInstance(error)) console.warn(error.rolloverId)
 */
export class DuplicateRolloverError extends CtxwinError {
  static readonly errorName = "CtxwinDuplicateRolloverError";
  static override isInstance = defineIsInstance(DuplicateRolloverError.errorName) as (
    error: unknown,
  ) => error is DuplicateRolloverError;

  constructor(
    readonly sessionId: string,
    readonly rolloverId: string,
  ) {
    super(
      DuplicateRolloverError.errorName,
      `Session '${sessionId}' already has a boundary for rollover '${rolloverId}'. Nothing was written.`,
    );
  }
}

/**
 * The database file cannot be used: it is not a ctxwin database, or was written by a newer
 * ctxwin. The file is left untouched.
 *
 * @example
 * if (StoreFormatError.isInstance(error)) console.error(error.message)
 */
export class StoreFormatError extends CtxwinError {
  static readonly errorName = "CtxwinStoreFormatError";
  static override isInstance = defineIsInstance(StoreFormatError.errorName) as (
    error: unknown,
  ) => error is StoreFormatError;

  constructor(
    readonly path: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(StoreFormatError.errorName, message, options);
  }
}

/**
 * The store was used after `close()`.
 *
 * @example
 * await store.close(); await store.lastSeq("s") // throws StoreClosedError
 */
export class StoreClosedError extends CtxwinError {
  static readonly errorName = "CtxwinStoreClosedError";
  static override isInstance = defineIsInstance(StoreClosedError.errorName) as (
    error: unknown,
  ) => error is StoreClosedError;

  constructor() {
    super(StoreClosedError.errorName, "The history store is closed; open it again with openStore().");
  }
}

/**
 * `openStore` was given an option its backend does not know (a typo, or an option of another
 * backend). Nothing was opened or created.
 *
 * @example
 * if (StoreOptionsError.isInstance(error)) console.error(error.unknownOptions)
 */
export class StoreOptionsError extends CtxwinError {
  static readonly errorName = "CtxwinStoreOptionsError";
  static override isInstance = defineIsInstance(StoreOptionsError.errorName) as (
    error: unknown,
  ) => error is StoreOptionsError;

  constructor(
    message: string,
    readonly unknownOptions: readonly string[] = [],
  ) {
    super(StoreOptionsError.errorName, message);
  }
}

/**
 * A write was attempted on a store that cannot be written: it was opened with `readOnly: true`,
 * or the database file or its folder is not writable by this user. Reads keep working.
 *
 * @example
 * if (StoreReadOnlyError.isInstance(error)) console.error(error.message)
 */
export class StoreReadOnlyError extends CtxwinError {
  static readonly errorName = "CtxwinStoreReadOnlyError";
  static override isInstance = defineIsInstance(StoreReadOnlyError.errorName) as (
    error: unknown,
  ) => error is StoreReadOnlyError;

  constructor(
    readonly path: string,
    readonly reason: "opened-read-only" | "not-writable",
    options: { cause?: unknown; detail?: string } = {},
  ) {
    const why =
      reason === "opened-read-only"
        ? "it was opened read-only"
        : `this user cannot write the file or its folder${options.detail === undefined ? "" : ` (${options.detail})`}`;
    const remedy =
      reason === "opened-read-only"
        ? "To write, open it without readOnly."
        : "To write, make the folder and the file writable for this user, or use another directory.";
    super(
      StoreReadOnlyError.errorName,
      `Cannot write to the ctxwin history '${path}': ${why}. Nothing was written; reading still works (e.g. 'ctxwin history'). ${remedy}`,
      options,
    );
  }
}

/**
 * The database file is damaged (SQLite reports a malformed page, or a search index cannot be
 * loaded). Once a store has seen this it refuses every write, and later opens refuse the file
 * until `ctxwin doctor` finds it healthy.
 *
 * @example
 * if (StoreCorruptError.isInstance(error)) console.error(error.message) // says to run ctxwin doctor
 */
export class StoreCorruptError extends CtxwinError {
  static readonly errorName = "CtxwinStoreCorruptError";
  static override isInstance = defineIsInstance(StoreCorruptError.errorName) as (
    error: unknown,
  ) => error is StoreCorruptError;

  constructor(
    readonly path: string,
    readonly detail: string,
    options: { cause?: unknown } = {},
  ) {
    super(
      StoreCorruptError.errorName,
      `The ctxwin history '${path}' is damaged (${detail}); nothing more is written to it. ` +
        `Run 'ctxwin doctor --db ${path}' to check it, rebuild its search indexes, ` +
        "or salvage its readable rows (--salvage rows.jsonl).",
      options,
    );
  }
}

/**
 * The database server cannot be reached (down, refusing connections, unknown host, bad
 * credentials). Nothing was written.
 *
 * @example
 * if (StoreUnavailableError.isInstance(error)) console.error(error.message) // check the URL and the server
 */
export class StoreUnavailableError extends CtxwinError {
  static readonly errorName = "CtxwinStoreUnavailableError";
  static override isInstance = defineIsInstance(StoreUnavailableError.errorName) as (
    error: unknown,
  ) => error is StoreUnavailableError;

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(StoreUnavailableError.errorName, message, options);
  }
}

/**
 * The connection to the database server was lost during a call. An append either committed
 * entirely or not at all, never in part: retry it with the same `operationId` to get its rows
 * whichever happened.
 *
 * @example
 * if (StoreConnectionLostError.isInstance(error)) rows = await store.append(id, input, { operationId })
 */
export class StoreConnectionLostError extends CtxwinError {
  static readonly errorName = "CtxwinStoreConnectionLostError";
  static override isInstance = defineIsInstance(StoreConnectionLostError.errorName) as (
    error: unknown,
  ) => error is StoreConnectionLostError;

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(StoreConnectionLostError.errorName, message, options);
  }
}

/**
 * A statement ran longer than the store's statement timeout and was cancelled; its transaction
 * was rolled back, so nothing of the call was written.
 *
 * @example
 * if (StoreTimeoutError.isInstance(error)) console.error(error.message)
 */
export class StoreTimeoutError extends CtxwinError {
  static readonly errorName = "CtxwinStoreTimeoutError";
  static override isInstance = defineIsInstance(StoreTimeoutError.errorName) as (
    error: unknown,
  ) => error is StoreTimeoutError;

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(StoreTimeoutError.errorName, message, options);
  }
}
