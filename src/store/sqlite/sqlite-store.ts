/**
 * The `sqlite` backend (embedded default): better-sqlite3 in WAL mode, one file per project.
 * Appends run in `BEGIN IMMEDIATE` transactions, so several processes can write one session and
 * `seq` stays gap-free; search uses two contentless FTS5 indexes (trigram for literal substrings,
 * unicode61 words for BM25 ranking).
 */
import type Database from "better-sqlite3";
import type { RowInput } from "../../core/row.js";
import { rankedTerms } from "../../core/search-query.js";
import { windowIdFor } from "../../core/windows.js";
import { planAppend, indexedTextOf } from "../append-plan.js";
import { AppendConflictError, DuplicateRolloverError, StoreCorruptError, StoreReadOnlyError } from "../errors.js";
import type { CheckedItems, CheckedSearch, CheckedWindows } from "../options.js";
import { hitsInOrder } from "../read-hits.js";
import type {
  ActiveWindow,
  AttachParentResult,
  FloorOptions,
  HistoryStore,
  ItemPage,
  SearchPage,
  SessionParent,
  WindowPage,
} from "../port.js";
import { writeDamageMark } from "./damage-mark.js";
import type { Durability } from "./durability.js";
import type { DatabaseBackendOptions } from "../backend-options.js";
import { openDatabase } from "./open-database.js";
import { createRowDecoder, decodeRow } from "../row-codec.js";
import { windowSummaryOf } from "../window-record.js";
import { searchParts, searchSession } from "./search.js";
import { createTrigramRarity } from "./trigram-plan.js";
import { storeFailure, withTypedFailures } from "./sqlite-failures.js";
import {
  activeWindowOf,
  emptyActiveWindow,
  lineageOfRecord,
  toSessionSummary,
  type LineageRecord,
  type SessionSummaryRecord,
} from "../session-record.js";
import { prepareStatements, type SessionRecord, type WindowRecord } from "./statements.js";
import { sessionExists } from "../lineage/create-fork.js";
import type { ForkRecord, LineageBackend } from "../lineage/lineage-backend.js";
import { ancestorsOf, decideAttachment, type AttachTarget } from "../lineage/attach-parent.js";
import type { CheckedSessionsOptions } from "../lineage/lineage-options.js";
import type { ScopeSearchRequest } from "../cross-search/cross-search.js";
import { prepareCrossSearch, searchScopeRows } from "./cross-search.js";
import { withLineage } from "../lineage/with-lineage.js";
import { lineageStatementSql } from "./lineage-migration.js";
import {
  withArgumentChecks,
  type CheckedAppend,
  type CheckedBackend,
  type CheckedSearchPart,
} from "../with-argument-checks.js";

export interface SqliteStoreOptions extends DatabaseBackendOptions {
  /** The database file; with `readOnly` it must exist (it then works in a folder this user cannot write). */
  path: string;
  /** `full` (default) survives power loss; `normal` survives process crashes only. */
  durability?: Durability;
  /** How long a writer waits for another process's lock (ms, default 10 000). */
  busyTimeoutMs?: number;
  /** Files up to this size (with their `-wal`) get SQLite's full `quick_check` on open; default 32 MiB (ADR 0020). */
  fullCheckMaxBytes?: number;
}

interface EncodedRow {
  seq: number;
  window_seq: number;
  body: string;
}

/**
 * @example
 * const store = createSqliteStore({ path: ".ctxwin/ctxwin.db" });
 */
export function createSqliteStore(options: SqliteStoreOptions): HistoryStore {
  return withLineage(createSqliteBackend(options));
}

/** The backend under `withLineage`: each session's own rows (tests compare its reads with the composed store's). */
export function createSqliteBackend({
  path,
  durability = "full",
  busyTimeoutMs = 10_000,
  now = () => new Date(),
  generateId = () => crypto.randomUUID(),
  maxRowBytes,
  onWarning = (warning) => console.warn(`ctxwin: ${warning.message}`),
  readOnly = false,
  fullCheckMaxBytes,
}: SqliteStoreOptions): LineageBackend {
  const db: Database.Database = openDatabase({
    path,
    busyTimeoutMs,
    durability,
    readOnly,
    ...(fullCheckMaxBytes === undefined ? {} : { fullCheckMaxBytes }),
  });
  let sql: ReturnType<typeof prepareStatements>;
  let lineageSql: Record<keyof typeof lineageStatementSql, Database.Statement>;
  try {
    sql = prepareStatements(db);
    lineageSql = Object.fromEntries(
      Object.entries(lineageStatementSql).map(([name, text]) => [name, db.prepare(text)]),
    ) as typeof lineageSql;
  } catch (error) {
    db.close();
    throw storeFailure(path, error);
  }
  const trigramRarity = createTrigramRarity({ probe: sql.literalProbe });
  /** Set once any call met damage: from then on every write is refused. */
  let damage: StoreCorruptError | undefined;

  const assertWritable = () => {
    if (readOnly) throw new StoreReadOnlyError(path, "opened-read-only");
    if (damage !== undefined) throw new StoreCorruptError(path, damage.detail, { cause: damage });
  };
  /** The typed error for a failed call; damage is remembered, and marked on disk for later opens. */
  const failure = (error: unknown): unknown => {
    const typed = storeFailure(path, error);
    if (StoreCorruptError.isInstance(typed) && damage === undefined) {
      damage = typed;
      if (!readOnly) writeDamageMark(path, typed.detail);
    }
    return typed;
  };

  const sessionOf = (sessionId: string) => sql.session.get(sessionId) as SessionRecord | undefined;
  const floorOf = (session: SessionRecord, options: FloorOptions) =>
    options.includeCleared === true ? 0 : session.floor_seq;

  const decoder = createRowDecoder(onWarning);
  const { decode, decodeAll } = decoder;

  /** The ranked terms of the session's last stored row, the context of the next one (ADR 0052). */
  function previousTerms(session: SessionRecord): string[] {
    const encoded = sql.row.get(session.session_key, session.last_seq) as EncodedRow | undefined;
    const row = encoded === undefined ? undefined : decodeRow(session.session_id, encoded.seq, encoded.body);
    return row?.ok === true ? rankedTerms(indexedTextOf(row.row)) : [];
  }

  const appendTransaction = db.transaction(
    (
      sessionId: string,
      inputs: RowInput[],
      operationId: string | undefined,
      expectLastSeq: number | undefined,
      parent: SessionParent | undefined,
    ): EncodedRow[] => {
      const timestamp = now().toISOString();
      let session = sessionOf(sessionId);
      if (session === undefined) {
        sql.insertSession.run(sessionId, crypto.randomUUID(), timestamp, timestamp);
        session = sessionOf(sessionId) as SessionRecord;
        if (parent !== undefined) lineageSql.setParent.run(parent.sessionId, parent.itemId, session.session_key);
      }
      if (operationId !== undefined) {
        const seen = sql.operation.get(session.session_key, operationId) as
          { first_seq: number; last_seq: number } | undefined;
        if (seen !== undefined)
          return sql.rowRange.all(session.session_key, seen.first_seq, seen.last_seq) as EncodedRow[];
      }
      if (expectLastSeq !== undefined && expectLastSeq !== session.last_seq)
        throw new AppendConflictError(sessionId, expectLastSeq, session.last_seq);
      const plan = planAppend(
        sessionId,
        inputs,
        { lastSeq: session.last_seq, activeWindowSeq: session.active_window_seq, floorSeq: session.floor_seq },
        { createdAt: timestamp, generateId, previousTerms: () => previousTerms(session) },
      );
      const rolloverIds = new Set<string>();
      for (const entry of plan.rows) {
        if (entry.rolloverId === undefined) continue;
        if (
          rolloverIds.has(entry.rolloverId) ||
          sql.rolloverExists.get(session.session_key, entry.rolloverId) !== undefined
        ) {
          throw new DuplicateRolloverError(sessionId, entry.rolloverId);
        }
        rolloverIds.add(entry.rolloverId);
      }
      const stored: EncodedRow[] = [];
      for (const entry of plan.rows) {
        const { seq, createdAt } = entry.row;
        const rowKey = sql.insertRow.run(
          session.session_key,
          seq,
          entry.windowSeq,
          entry.visible ? 1 : 0,
          entry.row.tokens ?? null,
          entry.body,
        ).lastInsertRowid;
        if (entry.searchText.length > 0) {
          sql.insertLiteral.run(rowKey, entry.searchText);
          sql.insertWords.run(rowKey, entry.terms.join(" "), entry.contextTerms.join(" "));
        }
        for (const term of entry.filterTerms) sql.insertFilterTerm.run(session.session_key, term, seq);
        sql.upsertWindow.run({
          session_key: session.session_key,
          window_seq: entry.windowSeq,
          kind: entry.boundaryKind ?? "start",
          reason: entry.reason ?? null,
          rollover_id: entry.rolloverId ?? null,
          context_tokens: entry.contextTokens ?? null,
          max_tokens: entry.maxTokens ?? null,
          seq,
          visible: entry.visible ? 1 : 0,
          at: createdAt,
        });
        stored.push({ seq, window_seq: entry.windowSeq, body: entry.body });
      }
      sql.updateSession.run(
        plan.cursor.lastSeq,
        plan.cursor.activeWindowSeq,
        plan.cursor.floorSeq,
        timestamp,
        session.session_key,
      );
      if (operationId !== undefined)
        sql.insertOperation.run(session.session_key, operationId, session.last_seq + 1, plan.cursor.lastSeq);
      return stored;
    },
  );

  const activeWindowTransaction = db.transaction((sessionId: string): ActiveWindow => {
    const session = sessionOf(sessionId);
    if (session === undefined) return emptyActiveWindow();
    const window = sql.window.get(session.session_key, session.active_window_seq) as WindowRecord | undefined;
    const encoded = sql.rowsFrom.all(session.session_key, Math.max(1, session.active_window_seq)) as EncodedRow[];
    return activeWindowOf(session, window, decodeAll(sessionId, encoded));
  });

  const searchTransaction = db.transaction((sessionId: string, checked: CheckedSearch): SearchPage => {
    const session = sessionOf(sessionId);
    if (session === undefined) return { hits: [], hasMore: false };
    return searchSession({ sql, decode, trigramRarity }, session, checked, floorOf(session, checked));
  });

  const crossSql = prepareCrossSearch(db);
  const searchScopeTransaction = db.transaction((request: ScopeSearchRequest) =>
    searchScopeRows({ state: crossSql(), decode, trigramRarity }, request),
  );

  const searchPartsTransaction = db.transaction((parts: readonly CheckedSearchPart[]): SearchPage[] => {
    const sessions = parts.map((part) => sessionOf(part.sessionId));
    if (sessions.some((session) => session === undefined))
      return parts.map((part) => searchTransaction(part.sessionId, part.checked));
    const found = parts.map((part, index) => {
      const session = sessions[index] as SessionRecord;
      return { session, checked: part.checked, floor: floorOf(session, part.checked) };
    });
    return searchParts({ sql, decode, trigramRarity }, found);
  });

  const deleteTransaction = db.transaction((sessionId: string): boolean => {
    const session = sessionOf(sessionId);
    if (session === undefined) return false;
    sql.deleteLiteral.run(session.session_key);
    sql.deleteWords.run(session.session_key);
    sql.deleteFilterTerms.run(session.session_key);
    sql.deleteRows.run(session.session_key);
    sql.deleteWindows.run(session.session_key);
    sql.deleteOperations.run(session.session_key);
    sql.deleteSession.run(session.session_key);
    return true;
  });

  /** A session's parent and fork origin, as `attachParent` reads them. */
  const lineageRecordOf = (sessionId: string): AttachTarget | undefined => {
    const found = lineageSql.sessionLineage.get(sessionId) as LineageRecord | undefined;
    return found === undefined ? undefined : lineageOfRecord(found);
  };

  const attachTransaction = db.transaction((sessionId: string, parent: SessionParent): AttachParentResult => {
    const target = lineageRecordOf(sessionId);
    const ancestors = ancestorsOf(parent.sessionId, (id) => lineageRecordOf(id)?.parent?.sessionId);
    const decision = decideAttachment({
      sessionId,
      parent,
      target,
      parentExists: sessionOf(parent.sessionId) !== undefined,
      ancestors,
    });
    if (decision === "unchanged") return "unchanged";
    lineageSql.attachParent.run(parent.sessionId, parent.itemId, sessionId);
    return "attached";
  });

  const forkTransaction = db.transaction((record: ForkRecord) => {
    if (sessionOf(record.sessionId) !== undefined) throw sessionExists(record.sessionId);
    const timestamp = now().toISOString();
    const { cursor, window } = record;
    const key = lineageSql.insertFork.run(
      record.sessionId,
      crypto.randomUUID(),
      timestamp,
      timestamp,
      cursor.lastSeq,
      cursor.activeWindowSeq,
      cursor.floorSeq,
      record.forkOf.sessionId,
      record.forkOf.atSeq,
      record.inheritedWindowCount,
    ).lastInsertRowid;
    lineageSql.insertForkWindow.run({
      session_key: key,
      window_seq: window.boundarySeq,
      kind: window.kind,
      reason: window.reason ?? null,
      rollover_id: window.rolloverId ?? null,
      context_tokens: window.contextTokens ?? null,
      max_tokens: window.maxTokens ?? null,
      first_seq: window.firstSeq,
      last_seq: window.lastSeq,
      row_count: window.rowCount,
      visible_count: window.visibleCount,
      started_at: window.startedAt,
      ended_at: window.endedAt,
    });
  });

  const store: CheckedBackend = {
    backend: "sqlite",

    async append(sessionId: string, valid: RowInput[], { operationId, expectLastSeq, parent }: CheckedAppend) {
      const stored = appendTransaction.immediate(sessionId, valid, operationId, expectLastSeq, parent);
      return decodeAll(sessionId, stored).rows;
    },

    async activeWindow(sessionId: string) {
      return activeWindowTransaction(sessionId);
    },

    async windows(sessionId: string, checked: CheckedWindows): Promise<WindowPage> {
      const session = sessionOf(sessionId);
      if (session === undefined) return { windows: [], hasMore: false };
      const records = sql.windows.all(
        session.session_key,
        floorOf(session, checked),
        checked.beforeWindowSeq ?? Number.MAX_SAFE_INTEGER,
        checked.limit + 1,
      ) as WindowRecord[];
      return {
        windows: records.slice(0, checked.limit).map((record) => windowSummaryOf(record, session.active_window_seq)),
        hasMore: records.length > checked.limit,
      };
    },

    async items(sessionId: string, checked: CheckedItems): Promise<ItemPage> {
      const session = sessionOf(sessionId);
      if (session === undefined) return { rows: [], hasMore: false, skipped: 0 };
      let low = Math.max(floorOf(session, checked), checked.afterSeq ?? 0);
      let high = checked.beforeSeq ?? Number.MAX_SAFE_INTEGER;
      if (checked.windowSeq !== undefined) {
        const window = sql.window.get(session.session_key, checked.windowSeq) as WindowRecord | undefined;
        if (window === undefined) return { rows: [], hasMore: false, skipped: 0 };
        low = Math.max(low, window.first_seq - 1);
        high = Math.min(high, window.last_seq + 1);
      }
      const newestFirst = checked.afterSeq === undefined && checked.beforeSeq !== undefined;
      const statement = newestFirst ? sql.rowsBetweenDescending : sql.rowsBetween;
      const encoded = statement.all(session.session_key, low, high, checked.limit + 1) as EncodedRow[];
      const hasMore = encoded.length > checked.limit;
      const page = encoded.slice(0, checked.limit);
      if (newestFirst) page.reverse();
      const { rows, skipped } = decodeAll(sessionId, page);
      return { rows, hasMore, skipped };
    },

    async read(sessionId: string, seq: number, options: FloorOptions) {
      const session = sessionOf(sessionId);
      if (session === undefined || seq <= floorOf(session, options)) return undefined;
      const encoded = sql.row.get(session.session_key, seq) as EncodedRow | undefined;
      return encoded === undefined ? undefined : decode(sessionId, encoded);
    },

    async readHits(sessionId: string, wanted: number[], options: FloorOptions) {
      const session = sessionOf(sessionId);
      if (session === undefined) return [];
      const floor = floorOf(session, options);
      return hitsInOrder(wanted, (seq) => {
        const encoded = seq <= floor ? undefined : (sql.row.get(session.session_key, seq) as EncodedRow | undefined);
        const row = encoded === undefined ? undefined : decode(sessionId, encoded);
        return encoded === undefined || row === undefined
          ? undefined
          : { row, windowId: windowIdFor(encoded.window_seq) };
      });
    },

    async search(sessionId: string, checked: CheckedSearch) {
      return searchTransaction(sessionId, checked);
    },

    async searchScope(request: ScopeSearchRequest) {
      return searchScopeTransaction(request);
    },

    async searchParts(parts: readonly CheckedSearchPart[]) {
      return searchPartsTransaction(parts);
    },

    async lastSeq(sessionId: string) {
      return sessionOf(sessionId)?.last_seq ?? 0;
    },

    async privacyFloor(sessionId: string) {
      return sessionOf(sessionId)?.floor_seq ?? 0;
    },

    async sessions({ parentSessionId, forkOfSessionId }: CheckedSessionsOptions) {
      const records = (
        parentSessionId !== undefined
          ? lineageSql.childSessions.all(parentSessionId)
          : forkOfSessionId !== undefined
            ? lineageSql.forkSessions.all(forkOfSessionId)
            : sql.sessions.all()
      ) as SessionSummaryRecord[];
      return records
        .filter((record) => forkOfSessionId === undefined || record.fork_of_session_id === forkOfSessionId)
        .map(toSessionSummary);
    },

    async attachParent(sessionId: string, parent: SessionParent) {
      return attachTransaction.immediate(sessionId, parent);
    },

    async createFork(record: ForkRecord) {
      forkTransaction.immediate(record);
    },

    async lineageOf(sessionId: string) {
      const found = lineageSql.lineage.get(sessionId) as
        { fork_of_session_id: string | null; fork_at_seq: number | null; floor_seq: number } | undefined;
      if (found === undefined) return undefined;
      const forkOf =
        found.fork_of_session_id === null
          ? {}
          : { forkOf: { sessionId: found.fork_of_session_id, atSeq: Number(found.fork_at_seq) } };
      return { ...forkOf, floorSeq: found.floor_seq };
    },

    async session(sessionId: string) {
      const record = sql.sessionSummary.get(sessionId) as SessionSummaryRecord | undefined;
      return record === undefined ? undefined : toSessionSummary(record);
    },

    async deleteSession(sessionId: string) {
      return deleteTransaction.immediate(sessionId);
    },

    diagnostics() {
      return { corruptRowsSkipped: decoder.skippedRows() };
    },

    async close() {
      db.close();
    },
  };
  return withTypedFailures(withArgumentChecks(store, { maxRowBytes, assertWritable }), failure);
}
