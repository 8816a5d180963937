/**
 * Store failures. Bad input to the store (a conflicting writer, a database that is not ours)
 * gets a typed error with an actionable message; nothing is written when one is thrown.
 */
import { errorClass } from "../core/errors.js";

/**
 * `expectLastSeq` did not match: another writer appended first. Re-read and retry.
 *
 * @example
 * if (AppendConflictError.isInstance(error)) await retryFrom(error.actualLastSeq)
 */
export class AppendConflictError extends errorClass("CtxwinAppendConflictError") {
  constructor(
    readonly sessionId: string,
    readonly expectedLastSeq: number,
    readonly actualLastSeq: number,
  ) {
    super(
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
export class DuplicateRolloverError extends errorClass("CtxwinDuplicateRolloverError") {
  constructor(
    readonly sessionId: string,
    readonly rolloverId: string,
  ) {
    super(`Session '${sessionId}' already has a boundary for rollover '${rolloverId}'. Nothing was written.`);
  }
}

/**
 * The database file cannot be used: it is not a ctxwin database, or was written by a newer
 * ctxwin. The file is left untouched.
 *
 * @example
 * if (StoreFormatError.isInstance(error)) console.error(error.message)
 */
export class StoreFormatError extends errorClass("CtxwinStoreFormatError") {
  constructor(
    readonly path: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/**
 * The store was used after `close()`.
 *
 * @example
 * await store.close(); await store.lastSeq("s") // throws StoreClosedError
 */
export class StoreClosedError extends errorClass("CtxwinStoreClosedError") {
  constructor() {
    super("The history store is closed; open it again with openStore().");
  }
}

/**
 * `openStore` was given an option its backend does not know (a typo, or an option of another
 * backend). Nothing was opened or created.
 *
 * @example
 * if (StoreOptionsError.isInstance(error)) console.error(error.unknownOptions)
 */
export class StoreOptionsError extends errorClass("CtxwinStoreOptionsError") {
  constructor(
    message: string,
    readonly unknownOptions: readonly string[] = [],
  ) {
    super(message);
  }
}

/**
 * A write was attempted on a store that cannot be written: it was opened with `readOnly: true`,
 * or the database file or its folder is not writable by this user. Reads keep working.
 *
 * @example
 * if (StoreReadOnlyError.isInstance(error)) console.error(error.message)
 */
export class StoreReadOnlyError extends errorClass("CtxwinStoreReadOnlyError") {
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
export class StoreCorruptError extends errorClass("CtxwinStoreCorruptError") {
  constructor(
    readonly path: string,
    readonly detail: string,
    options: { cause?: unknown } = {},
  ) {
    super(
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
export class StoreUnavailableError extends errorClass("CtxwinStoreUnavailableError") {}

/**
 * The connection to the database server was lost during a call. An append either committed
 * entirely or not at all, never in part: retry it with the same `operationId` to get its rows
 * whichever happened.
 *
 * @example
 * if (StoreConnectionLostError.isInstance(error)) rows = await store.append(id, input, { operationId })
 */
export class StoreConnectionLostError extends errorClass("CtxwinStoreConnectionLostError") {}

/**
 * A statement ran longer than the store's statement timeout and was cancelled; its transaction
 * was rolled back, so nothing of the call was written.
 *
 * @example
 * if (StoreTimeoutError.isInstance(error)) console.error(error.message)
 */
export class StoreTimeoutError extends errorClass("CtxwinStoreTimeoutError") {}
