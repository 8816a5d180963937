/**
 * The SQLite backend's vectors (ADR 0063), in the store's own file, in tables created on the
 * first write (no store format change; a file without them simply has no vectors):
 * - `ctxwin_embeddings`: every chunk's float32 vector (the truth), by model, session, seq, chunk;
 * - `ctxwin_embedding_progress`: how far each session is embedded with each model;
 * - with the `sqlite-vec` extension, a `vec0` table per model holding each vector's sign bits
 *   (`bit[D]`, 1/32 of the floats) partitioned by session: a search asks it for the nearest
 *   candidates by Hamming distance, then rescores those exactly by cosine on the floats. Where the
 *   extension cannot load (or for a dimension that is no multiple of 8), the session's vectors in
 *   the searched range are scored in JavaScript instead: the same answers, slower on big sessions.
 * The index has its own connection to the file (WAL lets it read and write beside the store's).
 */
import Database from "better-sqlite3";
import { createRequire } from "node:module";
import { EmbeddingMismatchError } from "./embedding-errors.js";
import { sqliteFailureLog } from "./failure-log.js";
import { SIGN_BLOCK_ROWS, deleteSignBlocks, packSignBlocks, readSignBlocks } from "./sign-blocks.js";
import { type SessionSigns, SignCache, signBitsOf } from "./sign-cache.js";
import { type CombinedSigns, combineSigns, nearestSignsAcross } from "./sqlite-nearest-across.js";
import {
  bestRows,
  bestRowsAcross,
  cosineSimilarity,
  inSegments,
  type NearestAcrossRow,
  type NearestRow,
  type SyncVectorIndex,
  type VectorIndex,
  type VectorProgress,
} from "./vector-index.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ctxwin_embedding_models (
  model_key INTEGER PRIMARY KEY, model_id TEXT NOT NULL UNIQUE, dimensions INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ctxwin_embedding_progress (
  model_key INTEGER NOT NULL, session_id TEXT NOT NULL, incarnation TEXT NOT NULL, through_seq INTEGER NOT NULL,
  PRIMARY KEY (model_key, session_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ctxwin_embeddings (
  vector_id INTEGER PRIMARY KEY, model_key INTEGER NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
  chunk INTEGER NOT NULL, vector BLOB NOT NULL, UNIQUE (model_key, session_id, seq, chunk));
`;
/** Each vector's sign bits, a session's rows side by side (ADR 0063, "Later"): what the candidate cache loads (mostly from packed copies, sign-blocks.ts). */
const SIGNS_SCHEMA = `
CREATE TABLE IF NOT EXISTS ctxwin_embedding_signs (
  model_key INTEGER NOT NULL, session_id TEXT NOT NULL, vector_id INTEGER NOT NULL, seq INTEGER NOT NULL, bits BLOB NOT NULL,
  PRIMARY KEY (model_key, session_id, vector_id)) WITHOUT ROWID;
`;
/** Memory the sign cache may hold across sessions (the least recently searched go first): ~2 million rows at 384 dimensions. */
export const SIGN_CACHE_BYTES = 128 * 1024 * 1024;

/** Candidates the bit index proposes per wanted row, before exact rescoring. */
const CANDIDATES_PER_ROW = 4;
const MIN_CANDIDATES = 400;
/**
 * Across sessions, only `CANDIDATES_PER_ROW` per wanted row: the candidates are random reads of
 * floats spread over the whole file (400 of them cost ~12 ms at 1,000 sessions × 100 rows on the
 * loaded machine, where one session's 400 sit together), ADR 0105.
 */
const MIN_CANDIDATES_ACROSS = 100;

export interface SqliteVectorIndexOptions {
  path: string;
  readOnly?: boolean;
  busyTimeoutMs?: number;
  /** Load the `sqlite-vec` extension when it is installed (default `true`); `false` scores in JavaScript. */
  useExtension?: boolean;
}

/** Loads `sqlite-vec` into `db`; `false` when the package or its binary for this platform is missing. */
export function loadVectorExtension(db: Database.Database): boolean {
  try {
    const require = createRequire(import.meta.url);
    const extension = require("sqlite-vec") as { load: (db: Database.Database) => void };
    extension.load(db);
    return true;
  } catch {
    // No binary for this platform, or extensions disabled: the JavaScript scoring applies (ADR 0063).
    return false;
  }
}

const asBlob = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
const asVector = (blob: Buffer, dimensions: number) =>
  new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + dimensions * 4));
const bitTableOf = (modelKey: number) => `ctxwin_embedding_bits_${modelKey}`;
/** Dimensions the sign bits keep enough of for the candidate stage; fewer are scored exactly. */
const usesBits = (dimensions: number) => dimensions >= 64;
const bitsBlob = (bits: Uint32Array) => Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength);
const bitsOfBlob = (blob: Buffer) =>
  new Uint32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));

/** @example const index = createSqliteVectorIndex({ path: ".ctxwin/ctxwin.db" }) */
export function createSqliteVectorIndex({
  path,
  readOnly = false,
  busyTimeoutMs = 10_000,
  useExtension = true,
}: SqliteVectorIndexOptions): SyncVectorIndex {
  const db = new Database(path, { readonly: readOnly, fileMustExist: true });
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  const extension = useExtension && loadVectorExtension(db);
  const tablesExist = () =>
    db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'ctxwin_embeddings'").get() !== undefined;
  let ready = tablesExist();
  const ensureTables = () => {
    if (ready) return;
    db.exec(SCHEMA);
    ready = true;
  };
  const modelRecord = (model: string) =>
    // Another connection may have created the tables since this one opened.
    ready || (ready = tablesExist())
      ? (db.prepare("SELECT model_key, dimensions FROM ctxwin_embedding_models WHERE model_id = ?").get(model) as
          { model_key: number; dimensions: number } | undefined)
      : undefined;
  const hasBitTable = (modelKey: number) =>
    db.prepare("SELECT 1 FROM sqlite_schema WHERE name = ?").get(bitTableOf(modelKey)) !== undefined;
  const signsReady = () =>
    db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'ctxwin_embedding_signs'").get() !== undefined;
  const cache = new SignCache(SIGN_CACHE_BYTES);
  /** `PRAGMA data_version` when each cached session was last checked: it moves when another connection commits. */
  const checkedAt = new WeakMap<SessionSigns, { version: number; incarnation: string | undefined }>();
  const dataVersion = () => db.pragma("data_version", { simple: true }) as number;
  /** This connection's own writes (`data_version` counts only other connections' commits). */
  let ownWrites = 0;
  /** The signatures of the last search across sessions, kept while its key (file, writes, sessions) holds. */
  let combined: { key: string; signs: CombinedSigns } | undefined;
  /** Every session's progress, kept while the file and this connection's writes are unchanged. */
  let marks: { key: string; value: ReadonlyMap<string, VectorProgress> } | undefined;
  const incarnationOf = (modelKey: number, sessionId: string) =>
    (db
      .prepare("SELECT incarnation FROM ctxwin_embedding_progress WHERE model_key = ? AND session_id = ?")
      .pluck()
      .get(modelKey, sessionId) as string | undefined) ?? undefined;

  /**
   * Reads a session's signatures: the packed blocks (sign-blocks.ts), then the rows past them one by
   * one. Where the table lacks some of those rows (a file written before it existed), they are
   * computed from the floats and stored. A writable load packs a long tail into blocks.
   */
  function loadSigns(
    modelKey: number,
    dimensions: number,
    sessionId: string,
    incarnation: string | undefined,
  ): SessionSigns {
    const key = { modelKey, sessionId, incarnation };
    const { signs, stale } = readSignBlocks(db, { ...key, dimensions, spare: SIGN_BLOCK_ROWS });
    const packed = signs.count;
    const after = signs.lastVectorId;
    // Counted on the (model, session, seq, chunk) index, which holds the vector id: ~10 ms at 100,000 rows.
    const floats = db
      .prepare("SELECT count(*) FROM ctxwin_embeddings WHERE model_key = ? AND session_id = ? AND vector_id > ?")
      .pluck()
      .get(modelKey, sessionId, after) as number;
    const tail = signsReady() ? readSignRows(modelKey, sessionId, after) : undefined;
    if (tail !== undefined && tail.ids.length === floats) signs.addRows(tail.ids, tail.seqs, tail.bits);
    else {
      const rows = db
        .prepare(
          "SELECT vector_id, seq, vector FROM ctxwin_embeddings WHERE model_key = ? AND session_id = ? AND vector_id > ? ORDER BY vector_id",
        )
        .raw()
        .iterate(modelKey, sessionId, after) as IterableIterator<[number, number, Buffer]>;
      const computed: [number, number, Uint32Array][] = [];
      for (const [id, seq, vector] of rows) computed.push([id, seq, signBitsOf(asVector(vector, dimensions))]);
      if (!readOnly) {
        db.transaction(() => {
          db.exec(SIGNS_SCHEMA);
          const insert = db.prepare(
            "INSERT OR IGNORE INTO ctxwin_embedding_signs (model_key, session_id, vector_id, seq, bits) VALUES (?, ?, ?, ?, ?)",
          );
          for (const [id, seq, bits] of computed) insert.run(modelKey, sessionId, id, seq, bitsBlob(bits));
        }).immediate();
      }
      for (const [id, seq, bits] of computed) signs.add(id, seq, bits);
    }
    if (!readOnly) packSignBlocks(db, { ...key, signs, from: packed, stale });
    if (signs.count + SIGN_BLOCK_ROWS < signs.capacity) signs.compact();
    return signs;
  }

  /** The session's rows of the signs table past `after`, packed as the blocks hold them. */
  function readSignRows(
    modelKey: number,
    sessionId: string,
    after: number,
  ): { ids: number[]; seqs: number[]; bits: Buffer } {
    const ids: number[] = [];
    const seqs: number[] = [];
    const parts: Buffer[] = [];
    const rows = db
      .prepare(
        "SELECT vector_id, seq, bits FROM ctxwin_embedding_signs WHERE model_key = ? AND session_id = ? AND vector_id > ?",
      )
      .raw()
      .iterate(modelKey, sessionId, after) as IterableIterator<[number, number, Buffer]>;
    for (const [id, seq, bits] of rows) {
      ids.push(id);
      seqs.push(seq);
      parts.push(bits);
    }
    return { ids, seqs, bits: Buffer.concat(parts) };
  }

  /**
   * The session's signatures, loaded once, caught up with what other connections wrote since
   * (`version`: `PRAGMA data_version` now, read once by a search of many sessions).
   */
  function signsOf(modelKey: number, dimensions: number, sessionId: string, version = dataVersion()): SessionSigns {
    let signs = cache.get(modelKey, sessionId);
    const checked = signs === undefined ? undefined : checkedAt.get(signs);
    if (signs !== undefined && checked !== undefined && checked.version === version) return signs;
    const incarnation = incarnationOf(modelKey, sessionId);
    if (signs !== undefined && checked?.incarnation === incarnation && signsReady()) {
      // Rows another connection added: the table's key puts them after the last id held.
      const added = db
        .prepare(
          "SELECT vector_id, seq, bits FROM ctxwin_embedding_signs WHERE model_key = ? AND session_id = ? AND vector_id > ?",
        )
        .raw()
        .all(modelKey, sessionId, signs.lastVectorId) as [number, number, Buffer][];
      for (const [id, seq, bits] of added) signs.add(id, seq, bitsOfBlob(bits));
      cache.evict();
    } else {
      signs = loadSigns(modelKey, dimensions, sessionId, incarnation);
      cache.set(modelKey, sessionId, signs);
    }
    checkedAt.set(signs, { version, incarnation });
    return signs;
  }

  const writeTransaction = db.transaction((entry: Parameters<VectorIndex["write"]>[0]) => {
    ensureTables();
    let record = modelRecord(entry.model);
    if (record === undefined) {
      const key = Number(
        db
          .prepare("INSERT INTO ctxwin_embedding_models (model_id, dimensions) VALUES (?, ?)")
          .run(entry.model, entry.dimensions).lastInsertRowid,
      );
      record = { model_key: key, dimensions: entry.dimensions };
    }
    if (record.dimensions !== entry.dimensions)
      throw new EmbeddingMismatchError(entry.model, record.dimensions, entry.dimensions);
    // A session deleted and recreated elsewhere: its old vectors (of every model) go first.
    const stale = db
      .prepare("SELECT 1 FROM ctxwin_embedding_progress WHERE session_id = ? AND incarnation <> ? LIMIT 1")
      .get(entry.sessionId, entry.incarnation);
    if (stale !== undefined) deleteSessionRows(entry.sessionId);
    const bits = usesBits(record.dimensions);
    if (bits) db.exec(SIGNS_SCHEMA);
    const insert = db.prepare(
      "INSERT INTO ctxwin_embeddings (model_key, session_id, seq, chunk, vector) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    );
    const insertBits = bits
      ? db.prepare(
          "INSERT INTO ctxwin_embedding_signs (model_key, session_id, vector_id, seq, bits) VALUES (?, ?, ?, ?, ?)",
        )
      : undefined;
    const added: [number, number, Uint32Array][] = [];
    for (const vector of entry.vectors) {
      const result = insert.run(record.model_key, entry.sessionId, vector.seq, vector.chunk, asBlob(vector.vector));
      if (result.changes === 1 && insertBits !== undefined) {
        const signs = signBitsOf(vector.vector);
        const id = Number(result.lastInsertRowid);
        insertBits.run(record.model_key, entry.sessionId, id, vector.seq, bitsBlob(signs));
        added.push([id, vector.seq, signs]);
      }
    }
    db.prepare(
      `INSERT INTO ctxwin_embedding_progress (model_key, session_id, incarnation, through_seq) VALUES (?, ?, ?, ?)
       ON CONFLICT (model_key, session_id) DO UPDATE SET incarnation = excluded.incarnation, through_seq = max(through_seq, excluded.through_seq)`,
    ).run(record.model_key, entry.sessionId, entry.incarnation, entry.throughSeq);
    return { modelKey: record.model_key, added };
  });

  function deleteSessionRows(sessionId: string): void {
    if (!ready) return;
    if (extension) {
      // vec0 bit tables an earlier version kept (no longer written or read).
      for (const { model_key: modelKey } of db.prepare("SELECT model_key FROM ctxwin_embedding_models").all() as {
        model_key: number;
      }[]) {
        if (!hasBitTable(modelKey)) continue;
        const remove = db.prepare(`DELETE FROM ${bitTableOf(modelKey)} WHERE rowid = ?`);
        for (const { vector_id: id } of db
          .prepare("SELECT vector_id FROM ctxwin_embeddings WHERE model_key = ? AND session_id = ?")
          .all(modelKey, sessionId) as { vector_id: number }[]) {
          remove.run(BigInt(id));
        }
      }
    }
    if (signsReady()) db.prepare("DELETE FROM ctxwin_embedding_signs WHERE session_id = ?").run(sessionId);
    deleteSignBlocks(db, sessionId);
    db.prepare("DELETE FROM ctxwin_embeddings WHERE session_id = ?").run(sessionId);
    db.prepare("DELETE FROM ctxwin_embedding_progress WHERE session_id = ?").run(sessionId);
  }

  return {
    kind: extension ? "sqlite-vec" : "sqlite-js",
    dimensionsOf: (model) => modelRecord(model)?.dimensions,
    progress(sessionId, model) {
      const record = modelRecord(model);
      if (record === undefined) return undefined;
      const found = db
        .prepare(
          "SELECT incarnation, through_seq FROM ctxwin_embedding_progress WHERE model_key = ? AND session_id = ?",
        )
        .get(record.model_key, sessionId) as { incarnation: string; through_seq: number } | undefined;
      return found === undefined ? undefined : { incarnation: found.incarnation, throughSeq: found.through_seq };
    },
    progressOfAll(model) {
      const record = modelRecord(model);
      if (record === undefined) return new Map();
      const key = `${record.model_key}:${dataVersion()}:${ownWrites}`;
      if (marks?.key === key) return marks.value;
      const rows = db
        .prepare("SELECT session_id, incarnation, through_seq FROM ctxwin_embedding_progress WHERE model_key = ?")
        .raw()
        .all(record.model_key) as [string, string, number][];
      marks = {
        key,
        value: new Map(rows.map(([sessionId, incarnation, throughSeq]) => [sessionId, { incarnation, throughSeq }])),
      };
      return marks.value;
    },
    write(entry) {
      ownWrites += 1;
      const stale = cache.peek(modelRecord(entry.model)?.model_key ?? -1, entry.sessionId);
      const staleIncarnation = stale === undefined ? undefined : checkedAt.get(stale)?.incarnation;
      const { modelKey, added } = writeTransaction.immediate(entry);
      if (staleIncarnation !== undefined && staleIncarnation !== entry.incarnation)
        cache.deleteSession(entry.sessionId);
      const signs = cache.peek(modelKey, entry.sessionId);
      if (signs === undefined) return;
      for (const [id, seq, bits] of added) signs.add(id, seq, bits);
      const checked = checkedAt.get(signs);
      if (checked !== undefined) checked.incarnation = entry.incarnation;
      cache.evict();
    },
    nearest({ sessionId, model, vector, lowSeq, highSeq, limit }) {
      const record = modelRecord(model);
      if (record === undefined) return [];
      if (record.dimensions !== vector.length)
        throw new EmbeddingMismatchError(model, record.dimensions, vector.length);
      const high = Math.min(highSeq, Number.MAX_SAFE_INTEGER);
      if (usesBits(record.dimensions)) {
        const k = Math.max(MIN_CANDIDATES, limit * CANDIDATES_PER_ROW);
        const candidates = signsOf(record.model_key, record.dimensions, sessionId).nearest(
          signBitsOf(vector),
          lowSeq,
          high,
          k,
        );
        const ids = JSON.stringify(candidates);
        if (extension) {
          const rescored = db
            .prepare(
              "SELECT seq, 1 - vec_distance_cosine(vector, ?) AS similarity FROM ctxwin_embeddings WHERE vector_id IN (SELECT value FROM json_each(?))",
            )
            .all(asBlob(vector), ids) as NearestRow[];
          return bestRows(rescored, limit);
        }
        const rows = db
          .prepare("SELECT seq, vector FROM ctxwin_embeddings WHERE vector_id IN (SELECT value FROM json_each(?))")
          .all(ids) as { seq: number; vector: Buffer }[];
        return bestRows(
          rows.map((row) => ({
            seq: row.seq,
            similarity: cosineSimilarity(vector, asVector(row.vector, record.dimensions)),
          })),
          limit,
        );
      }
      const rows = db
        .prepare(
          "SELECT seq, vector FROM ctxwin_embeddings WHERE model_key = ? AND session_id = ? AND seq > ? AND seq < ?",
        )
        .iterate(record.model_key, sessionId, lowSeq, high) as IterableIterator<{ seq: number; vector: Buffer }>;
      const scored: NearestRow[] = [];
      for (const row of rows)
        scored.push({ seq: row.seq, similarity: cosineSimilarity(vector, asVector(row.vector, record.dimensions)) });
      return bestRows(scored, limit);
    },
    nearestAcross({ model, vector, segments, limit }) {
      const record = modelRecord(model);
      if (record === undefined) return [];
      if (record.dimensions !== vector.length)
        throw new EmbeddingMismatchError(model, record.dimensions, vector.length);
      if (usesBits(record.dimensions)) {
        const version = dataVersion();
        const key = `${record.model_key}:${version}:${ownWrites}:${[...segments.keys()].join("\n")}`;
        if (combined?.key !== key) {
          // Released first: the sessions' own signatures may be loaded while it is rebuilt.
          combined = undefined;
          const sessions = [...segments.keys()].map(
            (sessionId) => [sessionId, signsOf(record.model_key, record.dimensions, sessionId, version)] as const,
          );
          combined = { key, signs: combineSigns(sessions, record.dimensions) };
        }
        const candidates = nearestSignsAcross({
          combined: combined.signs,
          segments: [...segments.values()],
          query: signBitsOf(vector),
          k: Math.max(MIN_CANDIDATES_ACROSS, limit * CANDIDATES_PER_ROW),
        });
        const ids = JSON.stringify(candidates);
        const rows = extension
          ? (db
              .prepare(
                "SELECT session_id AS sessionId, seq, 1 - vec_distance_cosine(vector, ?) AS similarity " +
                  "FROM ctxwin_embeddings WHERE vector_id IN (SELECT value FROM json_each(?))",
              )
              .all(asBlob(vector), ids) as NearestAcrossRow[])
          : (
              db
                .prepare(
                  "SELECT session_id, seq, vector FROM ctxwin_embeddings WHERE vector_id IN (SELECT value FROM json_each(?))",
                )
                .all(ids) as { session_id: string; seq: number; vector: Buffer }[]
            ).map((row) => ({
              sessionId: row.session_id,
              seq: row.seq,
              similarity: cosineSimilarity(vector, asVector(row.vector, record.dimensions)),
            }));
        return bestRowsAcross(rows, limit);
      }
      const read = db.prepare(
        "SELECT seq, vector FROM ctxwin_embeddings WHERE model_key = ? AND session_id = ? AND seq > ? AND seq <= ?",
      );
      const scored: NearestAcrossRow[] = [];
      for (const [sessionId, parts] of segments) {
        const low = Math.min(...parts.map((part) => part.low));
        const high = Math.min(Number.MAX_SAFE_INTEGER, Math.max(...parts.map((part) => part.high)));
        for (const row of read.iterate(record.model_key, sessionId, low, high) as IterableIterator<{
          seq: number;
          vector: Buffer;
        }>) {
          if (inSegments(parts, row.seq))
            scored.push({
              sessionId,
              seq: row.seq,
              similarity: cosineSimilarity(vector, asVector(row.vector, record.dimensions)),
            });
        }
      }
      return bestRowsAcross(scored, limit);
    },
    models() {
      if (!ready) return [];
      return (
        db.prepare("SELECT model_id, dimensions FROM ctxwin_embedding_models ORDER BY model_key").all() as {
          model_id: string;
          dimensions: number;
        }[]
      ).map((record) => ({
        model: record.model_id,
        dimensions: record.dimensions,
      }));
    },
    count(model) {
      const record = modelRecord(model);
      if (record === undefined) return { rows: 0, vectors: 0 };
      return db
        .prepare(
          "SELECT count(DISTINCT session_id || ':' || seq) AS rows, count(*) AS vectors FROM ctxwin_embeddings WHERE model_key = ?",
        )
        .get(record.model_key) as {
        rows: number;
        vectors: number;
      };
    },
    deleteSession(sessionId) {
      if (readOnly || !ready) return;
      ownWrites += 1;
      db.transaction(() => deleteSessionRows(sessionId)).immediate();
      cache.deleteSession(sessionId);
    },
    ...sqliteFailureLog(db),
    cacheBytes: () => cache.bytes + (combined?.signs.bytes ?? 0),
    close() {
      cache.clear();
      combined = undefined;
      if (db.open) db.close();
    },
  };
}
