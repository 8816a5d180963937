/**
 * The `memory` backend: the same contract as SQLite, held in process memory. For tests and
 * ephemeral sessions; rows are kept as JSON so that reads return fresh copies, as a database would.
 */
import type { RowInput } from "../../core/row.js";
import { termCounts, type TermCounts } from "../../core/bm25.js";
import { filterTermsRequired, filterWalkTerm, hasSearchFilter, rowMatchesFilter } from "../../core/search-filter.js";
import { containsLiteral } from "../../core/search-query.js";
import { windowIdFor } from "../../core/windows.js";
import { planAppend, type PlannedRow, type SessionCursor } from "../append-plan.js";
import { AppendConflictError, DuplicateRolloverError } from "../errors.js";
import { LITERAL_SCAN_LIMIT, filteredScan } from "../filtered-scan.js";
import type { CheckedItems, CheckedSearch, CheckedWindows } from "../options.js";
import { hitsInOrder } from "../read-hits.js";
import type {
  ActiveWindow,
  FloorOptions,
  HistoryStore,
  ItemPage,
  SearchHit,
  SearchPage,
  ForkOrigin,
  SessionParent,
  SessionSummary,
  StoredRow,
  WindowPage,
  WindowSummary,
} from "../port.js";
import { rankRows, scoreAcross } from "./ranked-search.js";
import type { ScopeMatch, ScopeSearchRequest } from "../cross-search/cross-search.js";
import { ownersOf } from "../cross-search/search-scope.js";
import { sessionExists } from "../lineage/create-fork.js";
import type { ForkRecord, LineageBackend } from "../lineage/lineage-backend.js";
import { ancestorsOf, decideAttachment } from "../lineage/attach-parent.js";
import { matchesLineage, type CheckedSessionsOptions } from "../lineage/lineage-options.js";
import { withLineage } from "../lineage/with-lineage.js";
import type { BackendOptions } from "../backend-options.js";
import { emptyActiveWindow } from "../session-record.js";
import { withArgumentChecks, type CheckedAppend, type CheckedBackend } from "../with-argument-checks.js";

interface MemoryRow {
  seq: number;
  windowSeq: number;
  visible: boolean;
  searchText: string;
  /** Ranked terms of `searchText`, the context of the next row. */
  terms: string[];
  /** Ranked-search occurrences of each term, own and context (ADR 0052), and their total. */
  counts: ReadonlyMap<string, TermCounts>;
  length: number;
  /** Filter terms of a searchable row (ADR 0051). */
  filterTerms: string[];
  body: string;
}

/** A window as the memory store keeps it: its summary but the id and the active flag, which follow from the session. */
type MemoryWindow = Omit<WindowSummary, "windowId" | "active">;

interface MemorySession {
  incarnation: string;
  rows: MemoryRow[];
  windows: Map<number, MemoryWindow>;
  operations: Map<string, { firstSeq: number; lastSeq: number }>;
  cursor: SessionCursor;
  createdAt: string;
  updatedAt: string;
  /** Rows up to this seq are a fork origin's (ADR 0059); `rows[0]` holds seq `baseSeq + 1`. */
  baseSeq: number;
  parent: SessionParent | undefined;
  forkOf: ForkOrigin | undefined;
  inheritedWindowCount: number;
}

export type MemoryStoreOptions = BackendOptions;

/**
 * @example
 * const store = createMemoryStore();
 * await store.append("s1", [{ role: "user", parts: [{ type: "text", text: "hi" }] }]);
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): HistoryStore {
  return withLineage(createMemoryBackend(options));
}

/** The memory backend before `withLineage`: a fork's reads see its own rows only. */
function createMemoryBackend({
  now = () => new Date(),
  generateId = () => crypto.randomUUID(),
  maxRowBytes,
}: MemoryStoreOptions = {}): LineageBackend {
  const sessions = new Map<string, MemorySession>();

  const rowOf = (session: MemorySession, seq: number): MemoryRow | undefined =>
    seq > session.baseSeq ? session.rows[seq - 1 - session.baseSeq] : undefined;
  const parse = (sessionId: string, memoryRow: MemoryRow): StoredRow =>
    (({ v: _version, ...rest }) => ({ sessionId, seq: memoryRow.seq, ...rest }))(
      JSON.parse(memoryRow.body),
    ) as StoredRow;
  const floorOf = (session: MemorySession | undefined, options: FloorOptions) =>
    options.includeCleared === true || session === undefined ? 0 : session.cursor.floorSeq;

  function recordWindows(session: MemorySession, planned: PlannedRow[]): void {
    for (const entry of planned) {
      let window = session.windows.get(entry.windowSeq);
      if (window === undefined) {
        window = {
          boundarySeq: entry.windowSeq,
          kind: entry.boundaryKind ?? "start",
          reason: entry.reason,
          rolloverId: entry.rolloverId,
          contextTokens: entry.contextTokens,
          maxTokens: entry.maxTokens,
          firstSeq: entry.row.seq,
          lastSeq: entry.row.seq,
          rowCount: 0,
          visibleCount: 0,
          startedAt: entry.row.createdAt,
          endedAt: entry.row.createdAt,
        };
        session.windows.set(entry.windowSeq, window);
      }
      window.lastSeq = entry.row.seq;
      window.rowCount += 1;
      window.visibleCount += entry.visible ? 1 : 0;
      window.endedAt = entry.row.createdAt;
    }
  }

  function summarize(session: MemorySession, window: MemoryWindow): WindowSummary {
    return {
      windowId: windowIdFor(window.boundarySeq),
      boundarySeq: window.boundarySeq,
      kind: window.kind,
      ...(window.reason === undefined ? {} : { reason: window.reason }),
      ...(window.rolloverId === undefined ? {} : { rolloverId: window.rolloverId }),
      ...(window.contextTokens === undefined || window.maxTokens === undefined
        ? {}
        : { contextTokens: window.contextTokens, maxTokens: window.maxTokens }),
      firstSeq: window.firstSeq,
      lastSeq: window.lastSeq,
      rowCount: window.rowCount,
      visibleCount: window.visibleCount,
      startedAt: window.startedAt,
      endedAt: window.endedAt,
      active: window.boundarySeq === session.cursor.activeWindowSeq,
    };
  }

  const summaryOf = (sessionId: string, session: MemorySession): SessionSummary => ({
    sessionId,
    incarnation: session.incarnation,
    lastSeq: session.cursor.lastSeq,
    floorSeq: session.cursor.floorSeq,
    windowCount: session.windows.size + session.inheritedWindowCount,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    ...(session.parent === undefined ? {} : { parent: { ...session.parent } }),
    ...(session.forkOf === undefined ? {} : { forkOf: { ...session.forkOf } }),
  });

  const store: CheckedBackend = {
    backend: "memory",

    async append(sessionId: string, valid: RowInput[], { operationId, expectLastSeq, parent }: CheckedAppend) {
      const existing = sessions.get(sessionId);
      if (existing !== undefined && operationId !== undefined) {
        const seen = existing.operations.get(operationId);
        if (seen !== undefined)
          return existing.rows
            .slice(seen.firstSeq - 1 - existing.baseSeq, seen.lastSeq - existing.baseSeq)
            .map((row) => parse(sessionId, row));
      }
      const start = existing?.cursor ?? { lastSeq: 0, activeWindowSeq: 0, floorSeq: 0 };
      if (expectLastSeq !== undefined && expectLastSeq !== start.lastSeq)
        throw new AppendConflictError(sessionId, expectLastSeq, start.lastSeq);
      const timestamp = now().toISOString();
      const previousTerms = () => existing?.rows[start.lastSeq - 1]?.terms ?? [];
      const plan = planAppend(sessionId, valid, start, { createdAt: timestamp, generateId, previousTerms });
      const knownRollovers = new Set([...(existing?.windows.values() ?? [])].map((window) => window.rolloverId));
      for (const entry of plan.rows) {
        if (entry.rolloverId === undefined) continue;
        if (knownRollovers.has(entry.rolloverId)) throw new DuplicateRolloverError(sessionId, entry.rolloverId);
        knownRollovers.add(entry.rolloverId);
      }
      const session: MemorySession = existing ?? {
        incarnation: crypto.randomUUID(),
        rows: [],
        windows: new Map(),
        operations: new Map(),
        cursor: start,
        createdAt: timestamp,
        updatedAt: timestamp,
        baseSeq: 0,
        parent,
        forkOf: undefined,
        inheritedWindowCount: 0,
      };
      for (const entry of plan.rows) {
        session.rows.push({
          seq: entry.row.seq,
          windowSeq: entry.windowSeq,
          visible: entry.visible,
          searchText: entry.searchText,
          terms: entry.terms,
          counts: termCounts({ own: entry.terms, context: entry.contextTerms }),
          length: entry.terms.length + entry.contextTerms.length,
          filterTerms: entry.filterTerms,
          body: entry.body,
        });
      }
      recordWindows(session, plan.rows);
      session.cursor = plan.cursor;
      session.updatedAt = timestamp;
      if (operationId !== undefined)
        session.operations.set(operationId, { firstSeq: start.lastSeq + 1, lastSeq: plan.cursor.lastSeq });
      sessions.set(sessionId, session);
      return plan.rows.map((entry) => parse(sessionId, rowOf(session, entry.row.seq) as MemoryRow));
    },

    async activeWindow(sessionId: string): Promise<ActiveWindow> {
      const session = sessions.get(sessionId);
      if (session === undefined) return emptyActiveWindow();
      const boundarySeq = session.cursor.activeWindowSeq;
      const window = session.windows.get(boundarySeq);
      const rows = session.rows
        .slice(Math.max(0, boundarySeq - 1 - session.baseSeq))
        .map((row) => parse(sessionId, row));
      return {
        windowId: windowIdFor(boundarySeq),
        boundarySeq,
        kind: window?.kind ?? "start",
        rows,
        skipped: 0,
        lastSeq: session.cursor.lastSeq,
      };
    },

    async windows(sessionId: string, checked: CheckedWindows): Promise<WindowPage> {
      const session = sessions.get(sessionId);
      if (session === undefined) return { windows: [], hasMore: false };
      const floor = floorOf(session, checked);
      const eligible = [...session.windows.values()]
        .filter(
          (window) =>
            window.boundarySeq >= floor &&
            (checked.beforeWindowSeq === undefined || window.boundarySeq < checked.beforeWindowSeq),
        )
        .sort((left, right) => right.boundarySeq - left.boundarySeq);
      return {
        windows: eligible.slice(0, checked.limit).map((window) => summarize(session, window)),
        hasMore: eligible.length > checked.limit,
      };
    },

    async items(sessionId: string, checked: CheckedItems): Promise<ItemPage> {
      const session = sessions.get(sessionId);
      if (session === undefined) return { rows: [], hasMore: false, skipped: 0 };
      const floor = floorOf(session, checked);
      const matching = session.rows.filter(
        (row) =>
          row.seq > floor &&
          (checked.windowSeq === undefined || row.windowSeq === checked.windowSeq) &&
          (checked.afterSeq === undefined || row.seq > checked.afterSeq) &&
          (checked.beforeSeq === undefined || row.seq < checked.beforeSeq),
      );
      const newestFirst = checked.afterSeq === undefined && checked.beforeSeq !== undefined;
      const page = newestFirst ? matching.slice(-checked.limit) : matching.slice(0, checked.limit);
      return { rows: page.map((row) => parse(sessionId, row)), hasMore: matching.length > checked.limit, skipped: 0 };
    },

    async read(sessionId: string, seq: number, options: FloorOptions) {
      const session = sessions.get(sessionId);
      if (session === undefined || seq <= floorOf(session, options)) return undefined;
      const row = rowOf(session, seq);
      return row === undefined ? undefined : parse(sessionId, row);
    },

    async readHits(sessionId: string, wanted: number[], options: FloorOptions) {
      const session = sessions.get(sessionId);
      if (session === undefined) return [];
      const floor = floorOf(session, options);
      return hitsInOrder(wanted, (seq) => {
        const row = seq <= floor ? undefined : rowOf(session, seq);
        return row === undefined ? undefined : { row: parse(sessionId, row), windowId: windowIdFor(row.windowSeq) };
      });
    },

    async search(sessionId: string, checked: CheckedSearch): Promise<SearchPage> {
      const session = sessions.get(sessionId);
      if (session === undefined) return { hits: [], hasMore: false };
      const floor = floorOf(session, checked);
      const inRange = (row: MemoryRow) =>
        row.seq > floor &&
        (checked.windowSeq === undefined || row.windowSeq === checked.windowSeq) &&
        (checked.beforeSeq === undefined || row.seq < checked.beforeSeq);
      const candidates = session.rows.filter((row) => row.visible && inRange(row));
      // The rows that can pass the filter (ADR 0051): none, and there is nothing to read.
      const term = filterWalkTerm(checked);
      const termRows = term === undefined ? 0 : candidates.filter((row) => row.filterTerms.includes(term)).length;
      if (term !== undefined && termRows === 0) return { hits: [], hasMore: false };
      let ordered: MemoryRow[];
      if (checked.mode === "literal") {
        ordered = candidates.filter((row) => containsLiteral(row.searchText, checked.query)).reverse();
      } else {
        // Indexed rows: those with text, as on SQLite (ADR 0052).
        const corpus = session.rows.filter((row) => row.searchText.length > 0);
        const rangeRows = session.rows.filter(inRange).length;
        ordered = rankRows({
          candidates: candidates.filter((row) => row.searchText.length > 0),
          rangeRows,
          query: checked.query,
          corpus,
          order: checked.order,
        });
      }
      // Filters narrow what the search found, after the ranked bound; a literal scan stops early (ADR 0033).
      if (hasSearchFilter(checked)) {
        const scan = filteredScan<SearchHit>({
          ...checked,
          scanLimit: checked.mode === "literal" ? LITERAL_SCAN_LIMIT : Number.POSITIVE_INFINITY,
        });
        // Fewer rows can pass than one call reads: read just those, as SQLite and PostgreSQL do.
        const scanned =
          termRows < LITERAL_SCAN_LIMIT
            ? ordered.filter((row) => term !== undefined && row.filterTerms.includes(term))
            : ordered;
        for (const row of scanned) {
          const stored = parse(sessionId, row);
          if (
            scan.take(
              row.seq,
              rowMatchesFilter(stored, checked) ? { row: stored, windowId: windowIdFor(row.windowSeq) } : undefined,
            )
          )
            break;
        }
        return scan.page();
      }
      const page = ordered.slice(checked.offset, checked.offset + checked.limit);
      return {
        hits: page.map((row) => ({ row: parse(sessionId, row), windowId: windowIdFor(row.windowSeq) })),
        hasMore: ordered.length > checked.offset + checked.limit,
      };
    },

    async lastSeq(sessionId: string) {
      return sessions.get(sessionId)?.cursor.lastSeq ?? 0;
    },

    async privacyFloor(sessionId: string) {
      return sessions.get(sessionId)?.cursor.floorSeq ?? 0;
    },

    async searchScope({ scopeOf, query, mode, scanLimit, filter }: ScopeSearchRequest) {
      const scope = scopeOf(
        [...sessions.entries()].map(([sessionId, session]) => ({
          sessionId,
          floorSeq: session.cursor.floorSeq,
          lastSeq: session.cursor.lastSeq,
          updatedAt: session.updatedAt,
          parent: session.parent,
          forkOf: session.forkOf,
        })),
      );
      const inScope: { storedIn: string; row: MemoryRow; rank: number }[] = [];
      // A role or tool filter: the rows holding its terms (ADR 0051, 0093).
      const required = filterTermsRequired(filter);
      for (const storedIn of scope.segments.keys()) {
        for (const row of sessions.get(storedIn)?.rows ?? []) {
          const passes = row.visible && required.every((term) => row.filterTerms.includes(term));
          const owners = passes ? ownersOf(scope, storedIn, row.seq) : [];
          if (owners.length > 0) inScope.push({ storedIn, row, rank: Math.min(...owners.map((owner) => owner.rank)) });
        }
      }
      // The newest sessions' newest rows first, as the bound of SQLite's and PostgreSQL's reads.
      inScope.sort((left, right) => left.rank - right.rank || right.row.seq - left.row.seq);
      let found: { storedIn: string; row: MemoryRow; score: number }[];
      if (mode === "literal") {
        found = inScope
          .filter((entry) => containsLiteral(entry.row.searchText, query))
          .map((entry) => ({ ...entry, score: 0 }));
      } else {
        // Word weights come from every indexed row of the store (ADR 0052, 0089).
        const corpus = [...sessions.values()].flatMap((session) =>
          session.rows.filter((row) => row.searchText.length > 0),
        );
        const indexed = inScope.filter((entry) => entry.row.searchText.length > 0);
        const byRow = new Map(indexed.map((entry) => [entry.row, entry]));
        found = scoreAcross({ candidates: indexed.map((entry) => entry.row), corpus, query }).map(({ row, score }) => ({
          ...byRow.get(row)!,
          score,
        }));
      }
      const matches: ScopeMatch[] = found
        .slice(0, scanLimit)
        .map((entry) => ({ storedIn: entry.storedIn, seq: entry.row.seq, score: entry.score }));
      return { scope, matches, partial: found.length > scanLimit };
    },

    async sessions(filter: CheckedSessionsOptions): Promise<SessionSummary[]> {
      return [...sessions.entries()]
        .filter(([, session]) => matchesLineage(filter, session))
        .map(([sessionId, session]) => summaryOf(sessionId, session))
        .sort(
          (left, right) =>
            right.updatedAt.localeCompare(left.updatedAt) || left.sessionId.localeCompare(right.sessionId),
        );
    },

    async session(sessionId: string) {
      const session = sessions.get(sessionId);
      return session === undefined ? undefined : summaryOf(sessionId, session);
    },

    async deleteSession(sessionId: string) {
      return sessions.delete(sessionId);
    },

    async attachParent(sessionId: string, checked: SessionParent) {
      const target = sessions.get(sessionId);
      // No await between the checks and the write: one synchronous step, like a transaction.
      const ancestors = ancestorsOf(checked.sessionId, (id) => sessions.get(id)?.parent?.sessionId);
      const decision = decideAttachment({
        sessionId,
        parent: checked,
        target,
        parentExists: sessions.has(checked.sessionId),
        ancestors,
      });
      if (decision === "unchanged" || target === undefined) return "unchanged";
      target.parent = checked;
      return "attached";
    },

    async createFork(record: ForkRecord) {
      if (sessions.has(record.sessionId)) throw sessionExists(record.sessionId);
      const timestamp = now().toISOString();
      const { window } = record;
      sessions.set(record.sessionId, {
        incarnation: crypto.randomUUID(),
        rows: [],
        windows: new Map([[window.boundarySeq, { ...window }]]),
        operations: new Map(),
        cursor: { ...record.cursor },
        createdAt: timestamp,
        updatedAt: timestamp,
        baseSeq: record.forkOf.atSeq,
        parent: undefined,
        forkOf: { ...record.forkOf },
        inheritedWindowCount: record.inheritedWindowCount,
      });
    },

    async lineageOf(sessionId: string) {
      const session = sessions.get(sessionId);
      return session === undefined
        ? undefined
        : {
            ...(session.forkOf === undefined ? {} : { forkOf: { ...session.forkOf } }),
            floorSeq: session.cursor.floorSeq,
          };
    },

    diagnostics() {
      return { corruptRowsSkipped: 0 };
    },

    async close() {
      sessions.clear();
    },
  };
  return withArgumentChecks(store, { maxRowBytes });
}
