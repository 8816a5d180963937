/**
 * What every backend checks before it reads or writes, written once: that the store is open (and
 * writable, for a write), then the session id and each call's options. Every backend refuses the
 * same bad call with the same typed error (`StoreClosedError`, `StoreReadOnlyError`,
 * `InvalidArgumentError`, `RowValidationError`), and its own methods receive checked arguments.
 */
import { InvalidArgumentError } from "../core/errors.js";
import { assertSessionId, validateRowInputs, type RowInput } from "../core/row.js";
import { StoreClosedError } from "./errors.js";
import type { LineageBackend } from "./lineage/lineage-backend.js";
import { checkParent, checkSessionsOptions, type CheckedSessionsOptions } from "./lineage/lineage-options.js";
import {
  checkItemsOptions,
  checkOperationId,
  checkReadHits,
  checkSearchOptions,
  checkSeq,
  checkWindowsOptions,
  type CheckedItems,
  type CheckedSearch,
  type CheckedWindows,
} from "./options.js";
import type {
  FloorOptions,
  ItemPage,
  SearchPage,
  SessionParent,
  SessionSummary,
  StoredRow,
  WindowPage,
} from "./port.js";

/** The options of an `append`, checked. */
export interface CheckedAppend {
  operationId: string | undefined;
  expectLastSeq: number | undefined;
  /** The parent a new session records (ADR 0059); an existing session keeps its own. */
  parent: SessionParent | undefined;
}

/** One session's search in `searchParts`, checked. */
export interface CheckedSearchPart {
  sessionId: string;
  checked: CheckedSearch;
}

/**
 * A backend as `withArgumentChecks` calls it: each method runs on an open store, with a valid
 * session id and checked options; a write runs only after `assertWritable` let it.
 */
export interface CheckedBackend extends Omit<
  LineageBackend,
  "append" | "windows" | "items" | "read" | "readHits" | "search" | "searchParts" | "sessions"
> {
  append(sessionId: string, inputs: RowInput[], options: CheckedAppend): Promise<StoredRow[]>;
  windows(sessionId: string, options: CheckedWindows): Promise<WindowPage>;
  items(sessionId: string, options: CheckedItems): Promise<ItemPage>;
  read(sessionId: string, seq: number, options: FloorOptions): Promise<StoredRow | undefined>;
  readHits(sessionId: string, seqs: number[], options: FloorOptions): ReturnType<LineageBackend["readHits"]>;
  search(sessionId: string, options: CheckedSearch): Promise<SearchPage>;
  searchParts?(parts: readonly CheckedSearchPart[]): Promise<SearchPage[]>;
  sessions(options: CheckedSessionsOptions): Promise<SessionSummary[]>;
}

export interface ArgumentCheckOptions {
  /** Largest row `append` accepts (bytes; default `MAX_ROW_BYTES`). */
  maxRowBytes?: number | undefined;
  /** Throws when the store may not be written (opened read-only, damaged); called on an open store. */
  assertWritable?: () => void;
}

/**
 * The backend's port with its arguments checked; after `close()` every call but `diagnostics`
 * throws `StoreClosedError`, and `close()` closes the backend once.
 *
 * @example
 * const backend = withArgumentChecks(createMemoryBackend(), { maxRowBytes: 65_536 });
 * await backend.items("s1", { limit: 0 }); // InvalidArgumentError: limit must be an integer from 1 to 1000
 */
export function withArgumentChecks(
  backend: CheckedBackend,
  { maxRowBytes, assertWritable = () => {} }: ArgumentCheckOptions = {},
): LineageBackend {
  let closed = false;
  const open = () => {
    if (closed) throw new StoreClosedError();
  };
  const writable = () => {
    open();
    assertWritable();
  };
  const searchParts = backend.searchParts?.bind(backend);
  return {
    backend: backend.backend,

    async append(sessionId, inputs, options = {}) {
      writable();
      assertSessionId(sessionId);
      const operationId = checkOperationId(options.operationId);
      const expectLastSeq = checkSeq("expectLastSeq", options.expectLastSeq);
      const valid = validateRowInputs(inputs, maxRowBytes === undefined ? {} : { maxRowBytes });
      const parent = options.parent === undefined ? undefined : checkParent(options.parent);
      return backend.append(sessionId, valid, { operationId, expectLastSeq, parent });
    },

    async activeWindow(sessionId) {
      open();
      assertSessionId(sessionId);
      return backend.activeWindow(sessionId);
    },

    async windows(sessionId, options = {}) {
      open();
      return backend.windows(sessionId, checkWindowsOptions(sessionId, options));
    },

    async items(sessionId, options = {}) {
      open();
      return backend.items(sessionId, checkItemsOptions(sessionId, options));
    },

    async read(sessionId, seq, options = {}) {
      open();
      assertSessionId(sessionId);
      if (typeof seq !== "number" || !Number.isSafeInteger(seq))
        throw new InvalidArgumentError(`seq must be an integer; got ${String(seq)}.`);
      return backend.read(sessionId, seq, options);
    },

    async readHits(sessionId, seqs, options = {}) {
      open();
      return backend.readHits(sessionId, checkReadHits(sessionId, seqs), options);
    },

    async search(sessionId, options) {
      open();
      return backend.search(sessionId, checkSearchOptions(sessionId, options));
    },

    ...(searchParts === undefined
      ? {}
      : {
          async searchParts(parts) {
            open();
            return searchParts(
              parts.map((part) => ({
                sessionId: part.sessionId,
                checked: checkSearchOptions(part.sessionId, part.options),
              })),
            );
          },
        }),

    async searchScope(request) {
      open();
      return backend.searchScope(request);
    },

    async lastSeq(sessionId) {
      open();
      assertSessionId(sessionId);
      return backend.lastSeq(sessionId);
    },

    async privacyFloor(sessionId) {
      open();
      assertSessionId(sessionId);
      return backend.privacyFloor(sessionId);
    },

    async sessions(options = {}) {
      open();
      return backend.sessions(checkSessionsOptions(options));
    },

    async session(sessionId) {
      open();
      assertSessionId(sessionId);
      return backend.session(sessionId);
    },

    async attachParent(sessionId, parent) {
      writable();
      assertSessionId(sessionId);
      return backend.attachParent(sessionId, checkParent(parent));
    },

    async createFork(record) {
      writable();
      return backend.createFork(record);
    },

    async lineageOf(sessionId) {
      open();
      assertSessionId(sessionId);
      return backend.lineageOf(sessionId);
    },

    async deleteSession(sessionId) {
      writable();
      assertSessionId(sessionId);
      return backend.deleteSession(sessionId);
    },

    diagnostics: () => backend.diagnostics(),

    async close() {
      if (closed) return;
      closed = true;
      await backend.close();
    },
  };
}
