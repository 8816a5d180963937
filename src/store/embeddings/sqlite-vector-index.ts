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
import { bestRows, cosineSimilarity, type NearestRow, type VectorIndex } from "./vector-index.js";

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

/** Candidates the bit index proposes per wanted row, before exact rescoring. */
const CANDIDATES_PER_ROW = 4;
const MIN_CANDIDATES = 100;
/** vec0's largest `k`. */
const MAX_CANDIDATES = 4_096;

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
const asVector = (blob: Buffer, dimensions: number) => new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + dimensions * 4));
const bitTableOf = (modelKey: number) => `ctxwin_embedding_bits_${modelKey}`;
const usesBits = (dimensions: number) => dimensions % 8 === 0 && dimensions >= 64;

/** @example const index = createSqliteVectorIndex({ path: ".ctxwin/ctxwin.db" }) */
export function createSqliteVectorIndex({ path, readOnly = false, busyTimeoutMs = 10_000, useExtension = true }: SqliteVectorIndexOptions): VectorIndex {
  const db = new Database(path, { readonly: readOnly, fileMustExist: true });
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  const extension = useExtension && loadVectorExtension(db);
  const tablesExist = () => db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'ctxwin_embeddings'").get() !== undefined;
  let ready = tablesExist();
  const ensureTables = () => {
    if (ready) return;
    db.exec(SCHEMA);
    ready = true;
  };
  const modelRecord = (model: string) =>
    ready ? (db.prepare("SELECT model_key, dimensions FROM ctxwin_embedding_models WHERE model_id = ?").get(model) as { model_key: number; dimensions: number } | undefined) : undefined;
  /** Bit tables known complete in this process (checked once against the float rows). */
  const bitsChecked = new Set<number>();

  const hasBitTable = (modelKey: number) => db.prepare("SELECT 1 FROM sqlite_schema WHERE name = ?").get(bitTableOf(modelKey)) !== undefined;
  const createBitTable = (modelKey: number, dimensions: number) =>
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${bitTableOf(modelKey)} USING vec0(session_id TEXT PARTITION KEY, seq INTEGER, embedding bit[${dimensions}])`);

  /** Whether the bit table of a model can answer: it exists and holds every vector (rebuilt when a writer without the extension left it behind). */
  function bitsUsable(modelKey: number, dimensions: number): boolean {
    if (!extension || !usesBits(dimensions)) return false;
    if (bitsChecked.has(modelKey)) return true;
    const floats = (db.prepare("SELECT count(*) AS n FROM ctxwin_embeddings WHERE model_key = ?").get(modelKey) as { n: number }).n;
    const bits = hasBitTable(modelKey) ? (db.prepare(`SELECT count(*) AS n FROM ${bitTableOf(modelKey)}`).get() as { n: number }).n : -1;
    if (bits !== floats) {
      if (readOnly) return false;
      db.transaction(() => {
        db.exec(`DROP TABLE IF EXISTS ${bitTableOf(modelKey)}`);
        createBitTable(modelKey, dimensions);
        const insert = db.prepare(`INSERT INTO ${bitTableOf(modelKey)}(rowid, session_id, seq, embedding) VALUES (?, ?, ?, vec_quantize_binary(?))`);
        for (const row of db.prepare("SELECT vector_id, session_id, seq, vector FROM ctxwin_embeddings WHERE model_key = ?").all(modelKey) as {
          vector_id: number;
          session_id: string;
          seq: number;
          vector: Buffer;
        }[]) {
          insert.run(BigInt(row.vector_id), row.session_id, BigInt(row.seq), row.vector);
        }
      }).immediate();
    }
    bitsChecked.add(modelKey);
    return true;
  }

  const writeTransaction = db.transaction((entry: Parameters<VectorIndex["write"]>[0]) => {
    ensureTables();
    let record = modelRecord(entry.model);
    if (record === undefined) {
      const key = Number(db.prepare("INSERT INTO ctxwin_embedding_models (model_id, dimensions) VALUES (?, ?)").run(entry.model, entry.dimensions).lastInsertRowid);
      record = { model_key: key, dimensions: entry.dimensions };
    }
    if (record.dimensions !== entry.dimensions) throw new EmbeddingMismatchError(entry.model, record.dimensions, entry.dimensions);
    // A session deleted and recreated elsewhere: its old vectors (of every model) go first.
    const stale = db.prepare("SELECT 1 FROM ctxwin_embedding_progress WHERE session_id = ? AND incarnation <> ? LIMIT 1").get(entry.sessionId, entry.incarnation);
    if (stale !== undefined) deleteSessionRows(entry.sessionId);
    const bits = extension && usesBits(record.dimensions);
    if (bits) createBitTable(record.model_key, record.dimensions);
    const insert = db.prepare("INSERT INTO ctxwin_embeddings (model_key, session_id, seq, chunk, vector) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
    const insertBits = bits ? db.prepare(`INSERT INTO ${bitTableOf(record.model_key)}(rowid, session_id, seq, embedding) VALUES (?, ?, ?, vec_quantize_binary(?))`) : undefined;
    for (const vector of entry.vectors) {
      const result = insert.run(record.model_key, entry.sessionId, vector.seq, vector.chunk, asBlob(vector.vector));
      if (result.changes === 1) insertBits?.run(BigInt(result.lastInsertRowid), entry.sessionId, BigInt(vector.seq), asBlob(vector.vector));
    }
    db.prepare(
      `INSERT INTO ctxwin_embedding_progress (model_key, session_id, incarnation, through_seq) VALUES (?, ?, ?, ?)
       ON CONFLICT (model_key, session_id) DO UPDATE SET incarnation = excluded.incarnation, through_seq = max(through_seq, excluded.through_seq)`,
    ).run(record.model_key, entry.sessionId, entry.incarnation, entry.throughSeq);
  });

  function deleteSessionRows(sessionId: string): void {
    if (!ready) return;
    if (extension) {
      for (const { model_key: modelKey } of db.prepare("SELECT model_key FROM ctxwin_embedding_models").all() as { model_key: number }[]) {
        if (!hasBitTable(modelKey)) continue;
        const remove = db.prepare(`DELETE FROM ${bitTableOf(modelKey)} WHERE rowid = ?`);
        for (const { vector_id: id } of db.prepare("SELECT vector_id FROM ctxwin_embeddings WHERE model_key = ? AND session_id = ?").all(modelKey, sessionId) as { vector_id: number }[]) {
          remove.run(BigInt(id));
        }
      }
    }
    db.prepare("DELETE FROM ctxwin_embeddings WHERE session_id = ?").run(sessionId);
    db.prepare("DELETE FROM ctxwin_embedding_progress WHERE session_id = ?").run(sessionId);
  }

  return {
    kind: extension ? "sqlite-vec" : "sqlite-js",
    dimensionsOf: (model) => modelRecord(model)?.dimensions,
    progress(sessionId, model) {
      const record = modelRecord(model);
      if (record === undefined) return undefined;
      const found = db.prepare("SELECT incarnation, through_seq FROM ctxwin_embedding_progress WHERE model_key = ? AND session_id = ?").get(record.model_key, sessionId) as
        | { incarnation: string; through_seq: number }
        | undefined;
      return found === undefined ? undefined : { incarnation: found.incarnation, throughSeq: found.through_seq };
    },
    write(entry) {
      writeTransaction.immediate(entry);
    },
    nearest({ sessionId, model, vector, lowSeq, highSeq, limit }) {
      const record = modelRecord(model);
      if (record === undefined) return [];
      if (record.dimensions !== vector.length) throw new EmbeddingMismatchError(model, record.dimensions, vector.length);
      const high = Math.min(highSeq, Number.MAX_SAFE_INTEGER);
      if (bitsUsable(record.model_key, record.dimensions)) {
        const k = Math.min(MAX_CANDIDATES, Math.max(MIN_CANDIDATES, limit * CANDIDATES_PER_ROW));
        // vec0's seq filter costs more than the distances: leave it out when the bounds hold every row.
        const whole = lowSeq <= 0 && high >= Number.MAX_SAFE_INTEGER;
        const table = bitTableOf(record.model_key);
        const candidates = (
          whole
            ? db.prepare(`SELECT rowid AS id FROM ${table} WHERE embedding MATCH vec_quantize_binary(?) AND k = ? AND session_id = ?`).all(asBlob(vector), k, sessionId)
            : db
                .prepare(`SELECT rowid AS id FROM ${table} WHERE embedding MATCH vec_quantize_binary(?) AND k = ? AND session_id = ? AND seq > ? AND seq < ?`)
                .all(asBlob(vector), k, sessionId, BigInt(lowSeq), BigInt(high))
        ) as { id: number }[];
        const rescored = db
          .prepare("SELECT seq, 1 - vec_distance_cosine(vector, ?) AS similarity FROM ctxwin_embeddings WHERE vector_id IN (SELECT value FROM json_each(?))")
          .all(asBlob(vector), JSON.stringify(candidates.map((candidate) => candidate.id))) as NearestRow[];
        return bestRows(rescored, limit);
      }
      const rows = db
        .prepare("SELECT seq, vector FROM ctxwin_embeddings WHERE model_key = ? AND session_id = ? AND seq > ? AND seq < ?")
        .iterate(record.model_key, sessionId, lowSeq, high) as IterableIterator<{ seq: number; vector: Buffer }>;
      const scored: NearestRow[] = [];
      for (const row of rows) scored.push({ seq: row.seq, similarity: cosineSimilarity(vector, asVector(row.vector, record.dimensions)) });
      return bestRows(scored, limit);
    },
    models() {
      if (!ready) return [];
      return (db.prepare("SELECT model_id, dimensions FROM ctxwin_embedding_models ORDER BY model_key").all() as { model_id: string; dimensions: number }[]).map((record) => ({
        model: record.model_id,
        dimensions: record.dimensions,
      }));
    },
    count(model) {
      const record = modelRecord(model);
      if (record === undefined) return { rows: 0, vectors: 0 };
      return db.prepare("SELECT count(DISTINCT session_id || ':' || seq) AS rows, count(*) AS vectors FROM ctxwin_embeddings WHERE model_key = ?").get(record.model_key) as {
        rows: number;
        vectors: number;
      };
    },
    deleteSession(sessionId) {
      if (readOnly || !ready) return;
      db.transaction(() => deleteSessionRows(sessionId)).immediate();
    },
    close() {
      if (db.open) db.close();
    },
  };
}
