/**
 * The embedding layer of a store (ADR 0063), one wrapper around any backend's store so that the
 * default path reads as if embeddings did not exist:
 * - `append` commits through the store, then names the session to the background embedder;
 * - `search` with `mode: "hybrid"` fuses ranked word search and vector similarity (RRF, k = 60),
 *   and so does `searchSessions` across sessions, in one query over the scope (ADR 0105);
 *   `"semantic"` uses the vectors alone; both keep the privacy floor, the window, `beforeSeq`, the
 *   role and tool filters and the bounds, and say in `embeddings` how many rows are not embedded
 *   yet. A provider that fails at query time, an index that is unavailable, or a query vector of
 *   another dimension than the stored ones gives the ranked word search, saying so;
 * - `deleteSession` drops the session's vectors too; `close` stops the embedder first.
 * `withoutEmbeddings` answers hybrid and semantic searches of a store opened without a model with
 * ranked word search and a note saying why.
 */
import { InvalidQueryError, assertSearchableQuery } from "../../core/search-query.js";
import { rowMatchesFilter } from "../../core/search-filter.js";
import { windowIdFor } from "../../core/windows.js";
import { checkSearchOptions } from "../options.js";
import { StoreReadOnlyError } from "../errors.js";
import type {
  EmbeddingProgress,
  EmbeddingsControl,
  HistoryStore,
  SearchEmbeddingsNote,
  SearchHit,
  SearchOptions,
  SearchPage,
  SessionSummary,
  WindowSummary,
} from "../port.js";
import { embedTexts, embeddingModelId } from "./embed-texts.js";
import {
  EmbeddingMismatchError,
  EmbeddingProviderError,
  VectorIndexUnavailableError,
  searchMismatchMessage,
} from "./embedding-errors.js";
import { crossSessionHybrid } from "./cross-session-hybrid.js";
import type { EmbeddingsOptions } from "./embeddings-options.js";
import { createEmbeddingWorker } from "./embedding-worker.js";
import { fuseRankings } from "./fuse-rankings.js";
import { isEmbeddingMode } from "./without-embeddings.js";
import { lineageRanges, nearestInRanges, withOrigins, type SessionRange } from "./lineage-ranges.js";
import type { NearestQuery, NearestRow, VectorIndex, VectorProgress } from "./vector-index.js";

/** Rows each ranking contributes to the fusion, at least. */
const MIN_POOL = 30;

export interface WithEmbeddingsOptions extends EmbeddingsOptions {
  index: VectorIndex;
  readOnly?: boolean;
  /** Where the store lives, for the read-only error. */
  location?: string;
  sleep?: (milliseconds: number) => Promise<void>;
}

/**
 * @example
 * const store = withEmbeddings(createMemoryStore(), { model, index: createMemoryVectorIndex() });
 * await store.search("s1", { query: "login flow", mode: "hybrid" });
 */
export function withEmbeddings(inner: HistoryStore, options: WithEmbeddingsOptions): HistoryStore {
  const { model, index, readOnly = false, timeoutMs = 30_000 } = options;
  const modelId = embeddingModelId(model);
  const onWarning = options.onWarning ?? ((message: string) => console.warn(`ctxwin: ${message}`));
  const worker = createEmbeddingWorker({
    store: inner,
    index,
    model,
    readOnly,
    onWarning,
    timeoutMs,
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    ...(options.maxChunkChars === undefined ? {} : { maxChunkChars: options.maxChunkChars }),
    ...(options.retryDelaysMs === undefined ? {} : { retryDelaysMs: options.retryDelaysMs }),
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
  });

  /** The window a search is confined to, `undefined` without one, `null` for an unknown window. */
  async function windowOf(
    sessionId: string,
    checked: ReturnType<typeof checkSearchOptions>,
  ): Promise<WindowSummary | null | undefined> {
    if (checked.windowSeq === undefined) return undefined;
    const page = await inner.windows(sessionId, {
      beforeWindow: windowIdFor(checked.windowSeq + 1),
      limit: 1,
      includeCleared: checked.includeCleared,
    });
    const window = page.windows[0];
    return window === undefined || window.boundarySeq !== checked.windowSeq ? null : window;
  }

  /** Exclusive seq bounds of a search: the floor, `beforeSeq`, the window; `undefined` for an unknown window. */
  function boundsOf(
    floorSeq: number,
    checked: ReturnType<typeof checkSearchOptions>,
    window: WindowSummary | null | undefined,
  ): { lowSeq: number; highSeq: number } | undefined {
    if (window === null) return undefined;
    const lowSeq = checked.includeCleared ? 0 : floorSeq;
    const highSeq = checked.beforeSeq ?? Number.MAX_SAFE_INTEGER;
    return window === undefined
      ? { lowSeq, highSeq }
      : { lowSeq: Math.max(lowSeq, window.firstSeq - 1), highSeq: Math.min(highSeq, window.lastSeq + 1) };
  }

  /** The rows of the session not embedded yet: all of them (`throughSeq`), and those inside `bounds`. */
  function pendingOf(
    summary: SessionSummary | undefined,
    progress: VectorProgress | undefined,
    bounds: { lowSeq: number; highSeq: number },
  ) {
    if (summary === undefined) return { throughSeq: 0, all: 0, inBounds: 0 };
    const through = progress !== undefined && progress.incarnation === summary.incarnation ? progress.throughSeq : 0;
    const inBounds = Math.max(0, Math.min(bounds.highSeq - 1, summary.lastSeq) - Math.max(bounds.lowSeq, through));
    return { throughSeq: through, all: Math.max(0, summary.lastSeq - through), inBounds };
  }

  async function noteOf(
    pendingRows: number,
    status: SearchEmbeddingsNote["status"],
    reason?: string,
  ): Promise<SearchEmbeddingsNote> {
    const dimensions = await index.dimensionsOf(modelId);
    // Other models matter only while this one has no vectors at all.
    const others =
      status === "used" && dimensions === undefined
        ? (await index.models()).filter((entry) => entry.model !== modelId)
        : [];
    const parts = [
      reason,
      pendingRows > 0
        ? `${pendingRows} row(s) of the searched range are not embedded yet; only word search can find them.`
        : undefined,
      others.length > 0
        ? `The store holds vectors of ${others.map((entry) => entry.model).join(", ")}, not of ${modelId}: its rows are being embedded again.`
        : undefined,
    ].filter((part): part is string => part !== undefined);
    return {
      status,
      model: modelId,
      ...(dimensions === undefined ? {} : { dimensions }),
      pendingRows,
      ...(parts.length === 0 ? {} : { message: parts.join(" ") }),
    };
  }

  /** The query's vector, or the provider's failure as a value (any other failure is thrown). */
  async function queryVectorOf(query: string): Promise<Float32Array | EmbeddingProviderError> {
    try {
      return (await embedTexts({ model, texts: [query], timeoutMs })).vectors[0] as Float32Array;
    } catch (error) {
      if (EmbeddingProviderError.isInstance(error)) return error;
      throw error;
    }
  }

  /**
   * The nearest rows over the lineage's ranges, or why there are none as a value: the index is
   * unavailable, or the query's vector has another dimension than the stored ones (any other
   * failure is thrown).
   */
  async function nearestOf(
    ranges: readonly SessionRange[],
    query: Omit<NearestQuery, "sessionId" | "lowSeq" | "highSeq">,
  ): Promise<NearestRow[] | { message: string }> {
    try {
      return await nearestInRanges(index, ranges, query);
    } catch (error) {
      if (VectorIndexUnavailableError.isInstance(error)) return error;
      if (EmbeddingMismatchError.isInstance(error)) return { message: searchMismatchMessage(error) };
      throw error;
    }
  }

  /**
   * One search's round trips (ADR 0063, amended): word search starts at once (it needs nothing the
   * others read); the session, the embedding progress, the window and the query's vector are
   * fetched together; then the nearest vectors, and the rows of the nearest that may make the page,
   * while word search still runs; then any other row the page needs, a page at a time.
   */
  async function embeddingSearch(sessionId: string, options: SearchOptions): Promise<SearchPage> {
    const mode = options.mode as "hybrid" | "semantic";
    // The shared checks of every other option; the query itself only needs to be searchable text.
    const checked = checkSearchOptions(sessionId, { ...options, mode: "ranked", query: "probe" });
    const query = assertSearchableQuery(options.query, "literal");
    const pool = Math.min(1_000, Math.max(MIN_POOL, checked.offset + checked.limit + 1));
    const words = async (limit: number, offset: number): Promise<SearchPage> => {
      try {
        return await inner.search(sessionId, {
          ...options,
          query,
          mode: "ranked",
          limit,
          offset,
          order: mode === "semantic" ? "relevance" : checked.order,
        });
      } catch (error) {
        if (InvalidQueryError.isInstance(error) && mode === "hybrid") return { hits: [], hasMore: false };
        throw error;
      }
    };
    const lexicalPage = mode === "hybrid" ? words(pool, 0) : undefined;
    // A search that ends before it needs the word page (an unknown window) leaves it unread.
    lexicalPage?.catch(() => undefined);
    const [summary, progress, window, queryVector] = await Promise.all([
      inner.session(sessionId),
      index.progress(sessionId, modelId),
      windowOf(sessionId, checked),
      queryVectorOf(query),
    ]);
    const bounds = boundsOf(summary?.floorSeq ?? 0, checked, window);
    const pending = pendingOf(summary, progress, bounds ?? { lowSeq: 0, highSeq: 0 });
    // A search wakes the embedder only when the session has rows to embed (it costs reads otherwise).
    if (pending.all > 0) worker.schedule(sessionId);
    if (bounds === undefined) return { hits: [], hasMore: false, embeddings: await noteOf(0, "used") };
    const ranges = await lineageRanges(inner, sessionId, bounds, summary);
    // A fork's shared rows are its origins' to embed and to count (ADR 0063, "Forks").
    const progresses = await Promise.all(
      ranges.map((range, position) =>
        position === 0 && range.sessionId === sessionId ? progress : index.progress(range.sessionId, modelId),
      ),
    );
    let pendingRows = 0;
    ranges.forEach((range, position) => {
      const counts = pendingOf(range.summary, progresses[position], range);
      pendingRows += counts.inBounds;
      if (range.sessionId !== sessionId && counts.all > 0) worker.schedule(range.sessionId);
    });
    const wordsOnly = async (reason: string): Promise<SearchPage> => {
      const end = checked.offset + checked.limit;
      // The word page hybrid started holds this page when the pool reaches past it (it always does but at the largest offsets).
      const page =
        lexicalPage !== undefined && pool > end
          ? await lexicalPage.then(({ hits, hasMore }) => ({
              hits: hits.slice(checked.offset, end),
              hasMore: hasMore || hits.length > end,
            }))
          : await words(checked.limit, checked.offset);
      return {
        ...page,
        embeddings: await noteOf(pendingRows, "unavailable", `${reason} These are ranked word-search results.`),
      };
    };

    if (!(queryVector instanceof Float32Array)) return wordsOnly(queryVector.message);
    const nearestRows = nearestOf(ranges, {
      model: modelId,
      vector: queryVector,
      limit: pool * (checked.role === undefined && checked.toolName === undefined ? 1 : 4),
    });
    // Hybrid: the top of the nearest rows is read while word search runs (most pages are made of it).
    const nearestHits =
      lexicalPage === undefined
        ? Promise.resolve([])
        : nearestRows.then((rows) => (Array.isArray(rows) ? readNearest(sessionId, rows, checked) : []));
    const [nearest, lexical, prefetched] = await Promise.all([
      nearestRows,
      lexicalPage?.then((page) => page.hits) ?? Promise.resolve([]),
      nearestHits,
    ]);
    if (!Array.isArray(nearest)) return wordsOnly(nearest.message);
    let ordered =
      mode === "hybrid"
        ? fuseRankings([lexical.map((hit) => hit.row.seq), nearest.map((row) => row.seq)])
        : nearest.map((row) => row.seq);
    if (checked.order === "newest") ordered = [...ordered].sort((left, right) => right - left);
    const known = new Map<number, SearchHit | null>(prefetched);
    for (const hit of lexical) known.set(hit.row.seq, hit);
    const page = await pageOf(sessionId, ordered, known, checked);
    return { ...page, embeddings: await noteOf(pendingRows, "used") };
  }

  /** The first rows of `nearest` a page can hold, read: each seq with its hit, or `null` for a row the filters or the floor leave out. */
  async function readNearest(
    sessionId: string,
    nearest: readonly NearestRow[],
    checked: ReturnType<typeof checkSearchOptions>,
  ): Promise<[number, SearchHit | null][]> {
    const seqs = nearest.slice(0, checked.offset + checked.limit + 1).map((row) => row.seq);
    if (seqs.length === 0) return [];
    const read = new Map(
      (await inner.readHits(sessionId, seqs, { includeCleared: checked.includeCleared })).map((hit) => [
        hit.row.seq,
        hit,
      ]),
    );
    return seqs.map((seq) => {
      const hit = read.get(seq);
      return [seq, hit !== undefined && rowMatchesFilter(hit.row, checked) ? hit : null];
    });
  }

  /**
   * The page of `ordered` after `offset`, and whether more pass: the rows already read are kept
   * (`known`; `null` for one left out), the others are read (and filtered) a slice at a time with
   * `readHits`.
   */
  async function pageOf(
    sessionId: string,
    ordered: readonly number[],
    known: Map<number, SearchHit | null>,
    checked: ReturnType<typeof checkSearchOptions>,
  ) {
    const hits: SearchHit[] = [];
    let passed = 0;
    for (let start = 0; start < ordered.length;) {
      const slice = ordered.slice(start, start + Math.max(MIN_POOL, checked.offset + checked.limit + 1 - passed));
      start += slice.length;
      const missing = slice.filter((seq) => !known.has(seq));
      const read =
        missing.length === 0
          ? []
          : await inner.readHits(sessionId, missing, { includeCleared: checked.includeCleared });
      const loaded = new Map(read.filter((hit) => rowMatchesFilter(hit.row, checked)).map((hit) => [hit.row.seq, hit]));
      for (const seq of slice) {
        const hit = known.get(seq) ?? loaded.get(seq);
        if (hit === undefined || hit === null) continue;
        passed += 1;
        if (passed <= checked.offset) continue;
        if (hits.length === checked.limit) return { hits, hasMore: true };
        hits.push(hit);
      }
    }
    return { hits, hasMore: false };
  }

  const control: EmbeddingsControl = {
    model: modelId,
    idle: () => worker.idle(),
    async backfill({ sessionIds, onProgress } = {}) {
      if (readOnly) throw new StoreReadOnlyError(options.location ?? "the store", "opened-read-only");
      // A fork's shared rows are its origin's to embed: the origins of named forks come along.
      const ids =
        sessionIds === undefined
          ? (await inner.sessions()).map((summary) => summary.sessionId)
          : await withOrigins(inner, sessionIds);
      const progress: EmbeddingProgress = { sessions: ids.length, sessionsDone: 0, embeddedRows: 0, pendingRows: 0 };
      for (const sessionId of ids) progress.pendingRows += await worker.pendingRows(sessionId);
      onProgress?.({ ...progress });
      for (const sessionId of ids) {
        await worker.catchUp(sessionId, (rows) => {
          progress.embeddedRows += rows;
          progress.pendingRows = Math.max(0, progress.pendingRows - rows);
          onProgress?.({ ...progress });
        });
        progress.sessionsDone += 1;
        onProgress?.({ ...progress });
      }
      return progress;
    },
    pendingRows: (sessionId) => worker.pendingRows(sessionId),
  };

  return {
    ...inner,
    embeddings: control,
    async append(sessionId, rows, appendOptions) {
      const stored = await inner.append(sessionId, rows, appendOptions);
      worker.schedule(sessionId);
      return stored;
    },
    search: (sessionId, searchOptions) =>
      isEmbeddingMode(searchOptions?.mode)
        ? embeddingSearch(sessionId, searchOptions)
        : inner.search(sessionId, searchOptions),
    searchSessions: (crossOptions, vectors) =>
      crossOptions?.mode === "hybrid" && vectors === undefined
        ? crossSessionHybrid({ inner, index, modelId, queryVectorOf, noteOf }, crossOptions)
        : inner.searchSessions(crossOptions, vectors),
    async deleteSession(sessionId) {
      const deleted = await inner.deleteSession(sessionId);
      if (deleted && !readOnly) await index.deleteSession(sessionId);
      return deleted;
    },
    diagnostics: () => ({ ...inner.diagnostics(), embeddings: worker.diagnostics() }),
    async close() {
      await worker.close();
      await index.close();
      await inner.close();
    },
  };
}
