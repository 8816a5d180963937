/**
 * What a SQLite store file holds of embeddings (ADR 0063), for `ctxwin doctor`: the models with
 * vectors (id and dimension), per model the rows embedded and the rows still pending, and whether
 * the `sqlite-vec` extension loads here (else searches score the vectors in JavaScript). Read-only:
 * nothing is written, no model is needed. The last failure of each model is stored in the file by
 * the embedder (until it embeds again), so a model that never got a vector is listed too. The
 * same report of a PostgreSQL schema is postgres-embedding-status.ts's.
 */
import Database from "better-sqlite3";
import { openStore } from "../open-store.js";
import type { EmbeddingFailure, HistoryStore, SessionSummary } from "../port.js";
import { readSqliteFailures } from "./failure-log.js";
import { loadVectorExtension } from "./sqlite-vector-index.js";

export interface EmbeddingModelStatus {
  /** `provider:modelId`. */
  model: string;
  /** Absent for a model that failed before any vector was stored. */
  dimensions?: number;
  /** Rows with at least one stored vector, and the vectors (chunks) themselves. */
  embeddedRows: number;
  vectors: number;
  /** Rows not embedded with this model yet (all sessions): only word search finds them. */
  pendingRows: number;
  /** Why rows stay pending: the model's last failure, kept until a batch is embedded again. */
  lastFailure?: EmbeddingFailure;
  /** PostgreSQL only: an HNSW index serves the model's searches, or (above 2,000 dimensions) they score its vectors exactly. */
  search?: "hnsw" | "exact";
}

export interface EmbeddingStatus {
  /** Whether the file holds any vectors at all. */
  vectors: boolean;
  /**
   * SQLite: `sqlite-vec` when the extension loads on this machine, `javascript` when searches fall
   * back to scoring in JavaScript. PostgreSQL: `pgvector` when the database has the extension,
   * `pgvector-not-created` when the server has it but the database does not use it yet (the
   * first embedding write creates it), `pgvector-missing` when the server lacks it.
   */
  index: "sqlite-vec" | "javascript" | "pgvector" | "pgvector-not-created" | "pgvector-missing";
  /** PostgreSQL only: the installed pgvector version. */
  extensionVersion?: string;
  models: EmbeddingModelStatus[];
}

/**
 * @example const status = await embeddingStatus({ path: ".ctxwin/ctxwin.db" }); // { vectors: false, index: "sqlite-vec", models: [] }
 */
export async function embeddingStatus({ path }: { path: string }): Promise<EmbeddingStatus> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  let index: EmbeddingStatus["index"];
  let records: ModelRecord[] = [];
  let progress: ProgressRecord[] = [];
  let failures = new Map<string, EmbeddingFailure>();
  try {
    failures = readSqliteFailures(db);
    index = loadVectorExtension(db) ? "sqlite-vec" : "javascript";
    if (db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'ctxwin_embedding_models'").get() !== undefined) {
      records = db
        .prepare(
          `SELECT m.model_key, m.model_id, m.dimensions,
             (SELECT count(DISTINCT session_id || ':' || seq) FROM ctxwin_embeddings e WHERE e.model_key = m.model_key) AS rows,
             (SELECT count(*) FROM ctxwin_embeddings e WHERE e.model_key = m.model_key) AS vectors
           FROM ctxwin_embedding_models m ORDER BY m.model_key`,
        )
        .all() as typeof records;
      progress = db
        .prepare("SELECT model_key, session_id, incarnation, through_seq FROM ctxwin_embedding_progress")
        .all() as typeof progress;
    }
  } finally {
    db.close();
  }
  if (records.length === 0 && failures.size === 0) return { vectors: false, index, models: [] };
  const sessions = await sessionsOf(openStore({ path, readOnly: true }));
  return {
    vectors: records.some((record) => record.vectors > 0),
    index,
    models: modelStatuses({ sessions, records, progress, failures }),
  };
}

/** A stored model with its counts, as both backends read it. */
export interface ModelRecord {
  model_key: number;
  model_id: string;
  dimensions: number;
  /** Rows with a vector, and the vectors. */
  rows: number;
  vectors: number;
  search?: EmbeddingModelStatus["search"];
}

/** How far one session is embedded with one model. */
export interface ProgressRecord {
  model_key: number;
  session_id: string;
  incarnation: string;
  through_seq: number;
}

/** Every session of `store`, which is closed after. */
export async function sessionsOf(store: HistoryStore): Promise<SessionSummary[]> {
  try {
    return await store.sessions();
  } finally {
    await store.close();
  }
}

/**
 * The status of each model with vectors, and of each model that failed before it stored any.
 *
 * @example modelStatuses({ sessions, records: [], progress: [], failures: new Map() }) // []
 */
export function modelStatuses({
  sessions,
  records,
  progress,
  failures,
}: {
  sessions: readonly SessionSummary[];
  records: readonly ModelRecord[];
  progress: readonly ProgressRecord[];
  failures: ReadonlyMap<string, EmbeddingFailure>;
}): EmbeddingModelStatus[] {
  const models = records.map((record): EmbeddingModelStatus => {
    const through = new Map(
      progress.filter((entry) => entry.model_key === record.model_key).map((entry) => [entry.session_id, entry]),
    );
    const failure = failures.get(record.model_id);
    return {
      model: record.model_id,
      dimensions: record.dimensions,
      embeddedRows: record.rows,
      vectors: record.vectors,
      pendingRows: pendingRowsOf(sessions, through),
      ...(record.search === undefined ? {} : { search: record.search }),
      ...(failure === undefined ? {} : { lastFailure: failure }),
    };
  });
  for (const [model, failure] of failures) {
    if (records.some((record) => record.model_id === model)) continue;
    models.push({
      model,
      embeddedRows: 0,
      vectors: 0,
      pendingRows: pendingRowsOf(sessions, new Map()),
      lastFailure: failure,
    });
  }
  return models;
}

/** Rows past each session's mark; a fork's shared rows are its origin's to embed (ADR 0063, "Forks"). */
export function pendingRowsOf(
  sessions: readonly SessionSummary[],
  through: ReadonlyMap<string, { incarnation: string; through_seq: number }>,
): number {
  let pendingRows = 0;
  for (const session of sessions) {
    const done = through.get(session.sessionId);
    const mark = done !== undefined && done.incarnation === session.incarnation ? done.through_seq : 0;
    pendingRows += Math.max(0, session.lastSeq - Math.max(mark, session.forkOf?.atSeq ?? 0));
  }
  return pendingRows;
}

/**
 * The status as lines for people.
 *
 * @example describeEmbeddingStatus({ vectors: false, index: "sqlite-vec", models: [] }) // ["Embeddings: none stored (…)", …]
 */
export function describeEmbeddingStatus(status: EmbeddingStatus): string[] {
  const where = describeIndex(status);
  if (status.models.length === 0)
    return [`Embeddings: none stored (hybrid search needs 'ctxwin embed --embedding-model <provider:id>'); ${where}.`];
  return [`Embeddings: ${where}.`, ...status.models.flatMap(describeModel)];
}

function describeIndex({ index, extensionVersion }: EmbeddingStatus): string {
  switch (index) {
    case "sqlite-vec":
      return "the sqlite-vec extension loads here (vector search uses it)";
    case "javascript":
      return "the sqlite-vec extension does not load here: vector search scores in JavaScript (same answers, slower on big sessions)";
    case "pgvector":
      return `the database has the pgvector extension${extensionVersion === undefined ? "" : ` ${extensionVersion}`} (vector search uses it)`;
    case "pgvector-not-created":
      return (
        "the server has the pgvector extension but this database does not use it yet: " +
        "the first embedding write runs CREATE EXTENSION vector, which needs a superuser or the database owner"
      );
    case "pgvector-missing":
      return (
        "the server has no pgvector extension: hybrid and semantic searches answer with ranked word " +
        "search until pgvector is installed on the server (e.g. Debian's postgresql-<major>-pgvector)"
      );
  }
}

function describeModel(model: EmbeddingModelStatus): string[] {
  const size =
    model.dimensions === undefined
      ? "no vectors yet"
      : `${model.dimensions} dimensions` +
        (model.search === undefined
          ? ""
          : model.search === "hnsw"
            ? ", HNSW index"
            : ", scored exactly (over 2,000 dimensions: no HNSW index)");
  const counts =
    `  ${model.model} (${size}): ${model.embeddedRows} row(s) embedded in ${model.vectors} vector(s), ${model.pendingRows} row(s) pending` +
    (model.pendingRows > 0 && model.lastFailure === undefined
      ? ` (fill with 'ctxwin embed --embedding-model …')`
      : "") +
    ".";
  const failure = model.lastFailure;
  if (failure === undefined) return [counts];
  return [
    counts,
    `    Last embedding failure (${failure.at}, ${failure.consecutive} failed call(s) in a row): ${failure.message}`,
    "    Rows stay pending until it embeds again: check the model id, its API key " +
      "(e.g. OPENAI_API_KEY) or --embedding-base-url, then run 'ctxwin embed --embedding-model <provider:id>'.",
  ];
}
