/**
 * Where a store keeps its vectors (ADR 0063): an index derived from the rows, per model id and
 * dimension, that can be dropped and rebuilt. One implementation per backend
 * (`sqlite-vector-index.ts`, `memory-vector-index.ts`, `postgres-vector-index.ts`); the embedder and
 * hybrid search see only this. The embedded backends answer synchronously, PostgreSQL with promises:
 * callers await every answer.
 */

import type { EmbeddingFailure } from "../port.js";

/** An answer now (SQLite, memory) or later (PostgreSQL). */
export type MaybePromise<T> = T | Promise<T>;
export interface StoredVector {
  seq: number;
  /** Chunk number inside the row (0 for the first). */
  chunk: number;
  vector: Float32Array;
}

export interface VectorWrite {
  sessionId: string;
  /** The session's incarnation: a new one (the session was deleted and recreated) drops its old vectors. */
  incarnation: string;
  model: string;
  dimensions: number;
  /** Every row up to this seq is embedded (or has no text) once the write commits. */
  throughSeq: number;
  vectors: readonly StoredVector[];
}

export interface NearestQuery {
  sessionId: string;
  model: string;
  vector: Float32Array;
  /** Exclusive seq bounds. */
  lowSeq: number;
  highSeq: number;
  /** At most this many rows. */
  limit: number;
}

/** A row near the query: its best chunk's cosine similarity. */
export interface NearestRow {
  seq: number;
  similarity: number;
}

/** Stored rows of one session with `low < seq <= high` (a segment of a cross-session search's scope, ADR 0089). */
export interface SeqSegment {
  low: number;
  high: number;
}

/** `nearest` over many sessions at once (a hybrid search across sessions, ADR 0105). */
export interface NearestAcrossQuery {
  model: string;
  vector: Float32Array;
  /** By the id of the session storing the rows: the parts of it searched. */
  segments: ReadonlyMap<string, readonly SeqSegment[]>;
  /** At most this many rows in all. */
  limit: number;
}

/** A stored row near the query, with the session that stores it. */
export interface NearestAcrossRow extends NearestRow {
  sessionId: string;
}

export interface VectorProgress {
  incarnation: string;
  throughSeq: number;
}

export interface VectorIndex {
  readonly kind: "sqlite-vec" | "sqlite-js" | "memory" | "pgvector";
  /** The stored dimension of `model`'s vectors, or `undefined` when it has none. */
  dimensionsOf(model: string): MaybePromise<number | undefined>;
  /** How far `sessionId` is embedded with `model`. */
  progress(sessionId: string, model: string): MaybePromise<VectorProgress | undefined>;
  /** How far every session is embedded with `model`, in one read (a search across sessions counts pending rows with it). */
  progressOfAll(model: string): MaybePromise<ReadonlyMap<string, VectorProgress>>;
  /**
   * Stores the vectors and moves the session's progress, in one transaction (idempotent: chunks
   * already stored are kept). Refuses (`EmbeddingMismatchError`, nothing written) a dimension
   * other than the model's stored one.
   */
  write(entry: VectorWrite): MaybePromise<void>;
  /**
   * The rows of the session nearest to `vector`, most similar first. Throws
   * `VectorIndexUnavailableError` when the backend cannot hold vectors here (PostgreSQL without pgvector).
   */
  nearest(query: NearestQuery): MaybePromise<NearestRow[]>;
  /**
   * The stored rows nearest to `vector` among every session's segments, most similar first, in one
   * pass over the index (ADR 0105). Throws as `nearest` does.
   */
  nearestAcross(query: NearestAcrossQuery): MaybePromise<NearestAcrossRow[]>;
  /**
   * The rows of every session nearest to `vector`, for an index whose queries run beside the
   * store's (pgvector): a hybrid search across all sessions asks it while the ranked query runs and
   * applies the scope afterwards (ADR 0105). Absent on the embedded backends (nothing to overlap).
   */
  nearestEverywhere?(query: Omit<NearestAcrossQuery, "segments">): MaybePromise<NearestAcrossRow[]>;
  /** Models with vectors in the store, other than none. */
  models(): MaybePromise<{ model: string; dimensions: number }[]>;
  /** Rows and vectors stored for `model`. */
  count(model: string): MaybePromise<{ rows: number; vectors: number }>;
  deleteSession(sessionId: string): MaybePromise<void>;
  /**
   * Stores a failed provider call of `model` beside the vectors (created on first use), so another
   * process can read why rows stay pending: the message and time replace the last ones, and the count
   * of failures in a row grows by one. Optional for indexes written before it (every backend has it).
   */
  recordFailure?(model: string, failure: { message: string; at: Date }): MaybePromise<EmbeddingFailure>;
  /** Forgets `model`'s failure (a batch was embedded again). */
  clearFailure?(model: string): MaybePromise<void>;
  /** `model`'s last stored failure, if it has not succeeded since. */
  lastFailure?(model: string): MaybePromise<EmbeddingFailure | undefined>;
  /** Bytes of memory the index holds as a search cache (the SQLite sign cache; absent elsewhere). */
  cacheBytes?(): number;
  close(): MaybePromise<void>;
}

/** An index that answers synchronously: the embedded backends (SQLite, memory). */
export type SyncVectorIndex = {
  [Key in keyof VectorIndex]: VectorIndex[Key] extends ((...args: infer Args) => MaybePromise<infer Result>) | undefined
    ? (...args: Args) => Result
    : VectorIndex[Key];
};

/** Cosine similarity of two vectors of one length (0 when either is all zeros). */
export function cosineSimilarity(left: Float32Array, right: Float32Array): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < left.length; index += 1) {
    const a = left[index] as number;
    const b = right[index] as number;
    dot += a * b;
    leftNorm += a * a;
    rightNorm += b * b;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}

/** The best chunk of each row, most similar first, at most `limit` rows. */
export function bestRows(scored: Iterable<NearestRow>, limit: number): NearestRow[] {
  const best = new Map<number, number>();
  for (const { seq, similarity } of scored) {
    const known = best.get(seq);
    if (known === undefined || similarity > known) best.set(seq, similarity);
  }
  return [...best.entries()]
    .map(([seq, similarity]) => ({ seq, similarity }))
    .sort((left, right) => right.similarity - left.similarity || right.seq - left.seq)
    .slice(0, limit);
}

/** Whether `seq` lies in one of `segments`. */
export const inSegments = (segments: readonly SeqSegment[], seq: number): boolean =>
  segments.some((segment) => seq > segment.low && seq <= segment.high);

/** The best chunk of each stored row across sessions, most similar first, at most `limit` rows. */
export function bestRowsAcross(scored: Iterable<NearestAcrossRow>, limit: number): NearestAcrossRow[] {
  const best = new Map<string, NearestAcrossRow>();
  for (const row of scored) {
    const key = `${row.seq}:${row.sessionId}`;
    const known = best.get(key);
    if (known === undefined || row.similarity > known.similarity) best.set(key, row);
  }
  return [...best.values()]
    .sort(
      (left, right) =>
        right.similarity - left.similarity ||
        right.seq - left.seq ||
        (left.sessionId < right.sessionId ? -1 : left.sessionId > right.sessionId ? 1 : 0),
    )
    .slice(0, limit);
}
