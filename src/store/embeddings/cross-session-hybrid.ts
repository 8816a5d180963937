/**
 * A hybrid search across sessions on a store with an embedding model (ADR 0105): the query is
 * embedded while the store's one cross-session query runs (`searchSessions`, ADR 0089), which asks
 * the vector index once for the rows nearest to it over the scope it worked out (every visible
 * session's segments: floors, lineage, sub-agent visibility) and fuses them with its ranked matches.
 * The page says whether vectors took part and how many rows of the searched sessions are not
 * embedded yet. A query that cannot be embedded, an index that is unavailable, or a vector of
 * another dimension gives ranked word search across sessions, saying so, as one session's search does.
 */
import { assertSearchableQuery } from "../../core/search-query.js";
import type {
  CrossSearchOptions,
  CrossSearchPage,
  CrossSearchVectors,
  HistoryStore,
  SearchEmbeddingsNote,
} from "../port.js";
import {
  EmbeddingMismatchError,
  type EmbeddingProviderError,
  VectorIndexUnavailableError,
  searchMismatchMessage,
} from "./embedding-errors.js";
import { hybridPool } from "../cross-search/hybrid-matches.js";
import { inSegments, type NearestAcrossRow, type SeqSegment, type VectorIndex } from "./vector-index.js";

export interface CrossSessionHybridContext {
  inner: HistoryStore;
  index: VectorIndex;
  modelId: string;
  queryVectorOf: (query: string) => Promise<Float32Array | EmbeddingProviderError>;
  noteOf: (
    pendingRows: number,
    status: SearchEmbeddingsNote["status"],
    reason?: string,
  ) => Promise<SearchEmbeddingsNote>;
}

/**
 * @example const page = await crossSessionHybrid(context, { query: "login flow", mode: "hybrid" });
 */
export async function crossSessionHybrid(
  { inner, index, modelId, queryVectorOf, noteOf }: CrossSessionHybridContext,
  options: CrossSearchOptions,
): Promise<CrossSearchPage> {
  const queryVector = queryVectorOf(assertSearchableQuery(options.query, "ranked"));
  // A search that fails before it asks for the vectors (bad options) leaves the query's vector unread.
  queryVector.catch(() => undefined);
  const early = earlyNearest(index, modelId, options, queryVector);
  let reason: string | undefined;
  let pending: Promise<number> = Promise.resolve(0);
  const vectors: CrossSearchVectors = {
    async nearest(segments, limit, lastSeqs) {
      pending = pendingRowsIn({ inner, index, modelId, segments, lastSeqs });
      const vector = await queryVector;
      if (!(vector instanceof Float32Array)) {
        reason = vector.message;
        return [];
      }
      try {
        if (early?.limit === limit) {
          const rows = await early.rows;
          return rows.filter((row) => inSegments(segments.get(row.sessionId) ?? [], row.seq));
        }
        return await index.nearestAcross({ model: modelId, vector, segments, limit });
      } catch (error) {
        if (VectorIndexUnavailableError.isInstance(error)) reason = error.message;
        else if (EmbeddingMismatchError.isInstance(error)) reason = searchMismatchMessage(error);
        else throw error;
        return [];
      }
    },
  };
  const page = await inner.searchSessions(options, vectors);
  const pendingRows = await pending;
  const embeddings =
    reason === undefined
      ? await noteOf(pendingRows, "used")
      : await noteOf(pendingRows, "unavailable", `${reason} These are ranked word-search results.`);
  return { ...page, embeddings };
}

/**
 * The nearest rows of every session, asked at once beside the ranked query when the index runs on
 * its own connections (pgvector, `nearestEverywhere`) and the search has no filter that would make
 * the scope a small part of the store (`sessionIds`, a role or tool filter): the scope's segments
 * are applied to its rows afterwards. `undefined` otherwise (the scope's own query runs).
 */
function earlyNearest(
  index: VectorIndex,
  modelId: string,
  options: CrossSearchOptions,
  queryVector: Promise<Float32Array | EmbeddingProviderError>,
): { limit: number; rows: Promise<NearestAcrossRow[]> } | undefined {
  const { limit = 10, offset = 0 } = options;
  if (
    index.nearestEverywhere === undefined ||
    options.sessionIds !== undefined ||
    options.role !== undefined ||
    options.toolName !== undefined ||
    !Number.isSafeInteger(limit) ||
    !Number.isSafeInteger(offset)
  )
    return undefined;
  const pool = hybridPool(offset + limit);
  const rows = queryVector.then((vector) =>
    vector instanceof Float32Array ? (index.nearestEverywhere?.({ model: modelId, vector, limit: pool }) ?? []) : [],
  );
  // Read only when the search asks for the vectors (a bad option fails it before).
  rows.catch(() => undefined);
  return { limit: pool, rows };
}

/**
 * Rows of the searched segments not embedded yet: each storing session's rows past its progress
 * mark and up to its last row (from the scope's snapshot; read again where the backend did not
 * give it), each row counted once.
 */
async function pendingRowsIn({
  inner,
  index,
  modelId,
  segments,
  lastSeqs,
}: {
  inner: Pick<HistoryStore, "sessions">;
  index: VectorIndex;
  modelId: string;
  segments: ReadonlyMap<string, readonly SeqSegment[]>;
  lastSeqs: ReadonlyMap<string, number>;
}): Promise<number> {
  const complete = [...segments.keys()].every((sessionId) => lastSeqs.has(sessionId));
  const [known, marks] = await Promise.all([
    complete
      ? lastSeqs
      : inner.sessions().then((summaries) => new Map(summaries.map((summary) => [summary.sessionId, summary.lastSeq]))),
    index.progressOfAll(modelId),
  ]);
  let pendingRows = 0;
  for (const [sessionId, parts] of segments) {
    const lastSeq = known.get(sessionId) ?? 0;
    const through = marks.get(sessionId)?.throughSeq ?? 0;
    for (const part of merged(parts))
      pendingRows += Math.max(0, Math.min(part.high, lastSeq) - Math.max(part.low, through));
  }
  return pendingRows;
}

/** Segments of one session merged where they overlap (an origin's own segment holds its forks' shared ones). */
function merged(parts: readonly SeqSegment[]): SeqSegment[] {
  const sorted = [...parts].sort((left, right) => left.low - right.low);
  const result: SeqSegment[] = [];
  for (const part of sorted) {
    const last = result.at(-1);
    if (last !== undefined && part.low <= last.high) last.high = Math.max(last.high, part.high);
    else result.push({ low: part.low, high: part.high });
  }
  return result;
}
