/**
 * Schema of the PostgreSQL backend, inside one PostgreSQL schema per project (option `schema`,
 * default `ctxwin`), so several projects can share a database. `ctxwin_meta` marks the schema as
 * ctxwin's and holds the format version (older formats are migrated on open, newer ones refused
 * untouched), like SQLite's `application_id` and `user_version`.
 *
 * Rows keep their JSON body as text (a corrupt body is skipped on read, as on SQLite) next to two
 * search columns written by the same append: `literal_text`, the case-folded text literal search
 * matches with `LIKE` (a pg_trgm GIN index when the extension is available), and `words`, the
 * ranked-search words as a `tsvector` built by ctxwin from `core/`'s tokenizer (ADR 0036).
 *
 * Format 2: rows holding a history lookup are indexed without it (ADR 0053).
 * Format 3: `words` labels the row's own terms A and its context's (the last terms of the row
 * before it) B, `word_count` holds how many terms it has in all, and each session counts its
 * indexed rows and their terms (`indexed_rows`, `indexed_terms`): what BM25 needs, so that
 * PostgreSQL ranks as SQLite's FTS5 does (ADR 0052); `ctxwin_filter_terms` lists each searchable
 * row's role and tools (ADR 0051).
 * Format 4: sessions record their parent and fork origin (ADR 0059).
 * Format 5: `words` is kept in the row (`STORAGE MAIN`), not out of line: a walk testing each
 * row's words reads the row's page alone (ADR 0103); long text columns go out of line instead.
 * A new schema is created as format 1 and migrated up
 * (`migrations.ts`), so every store ends in the same schema.
 */

/** Format version written by this build (`migrations.ts` turns older ones into it). */
export const POSTGRES_FORMAT_VERSION = 5;

export const DEFAULT_POSTGRES_SCHEMA = "ctxwin";

const schemaNamePattern = /^[a-z_][a-z0-9_]{0,62}$/;

/** Whether `name` can be used as the store's schema name (lower-case, unquoted identifier). */
export function isValidSchemaName(name: unknown): name is string {
  return typeof name === "string" && schemaNamePattern.test(name) && !name.startsWith("pg_");
}

/**
 * A `schema` query parameter of the URL (`postgres://host/db?schema=project_a`) moved into the
 * options, so a URL alone (`--store`, `CTXWIN_DATABASE_URL`) can name the schema. An explicit
 * `schema` option wins.
 *
 * @example schemaFromUrl("postgres://h/db?schema=a", undefined) // { url: "postgres://h/db", schema: "a" }
 */
export function schemaFromUrl(url: string, schema: string | undefined): { url: string; schema: string | undefined } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, schema };
  }
  const fromUrl = parsed.searchParams.get("schema");
  if (fromUrl === null) return { url, schema };
  parsed.searchParams.delete("schema");
  return { url: parsed.toString(), schema: schema ?? fromUrl };
}

/** The tables of a store, qualified by its schema. */
export function tableNames(schema: string) {
  const table = (name: string) => `"${schema}".${name}`;
  return {
    meta: table("ctxwin_meta"),
    sessions: table("ctxwin_sessions"),
    rows: table("ctxwin_rows"),
    windows: table("ctxwin_windows"),
    operations: table("ctxwin_operations"),
    filterTerms: table("ctxwin_filter_terms"),
  };
}

export type TableNames = ReturnType<typeof tableNames>;

/**
 * Statements creating format 1. `trigramOperatorClass` is the qualified `gin_trgm_ops` when the
 * pg_trgm extension is available, else undefined (literal search then reads the session's rows).
 */
export function schemaV1(schema: string, trigramOperatorClass: string | undefined): string[] {
  const t = tableNames(schema);
  return [
    `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
    `CREATE TABLE ${t.meta} (name text PRIMARY KEY, value text NOT NULL)`,
    `CREATE TABLE ${t.sessions} (
      session_key bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id text NOT NULL UNIQUE,
      incarnation text NOT NULL,
      last_seq bigint NOT NULL DEFAULT 0,
      active_window_seq bigint NOT NULL DEFAULT 0,
      floor_seq bigint NOT NULL DEFAULT 0,
      created_at text NOT NULL,
      updated_at text NOT NULL
    )`,
    `CREATE TABLE ${t.rows} (
      session_key bigint NOT NULL,
      seq bigint NOT NULL,
      window_seq bigint NOT NULL,
      visible boolean NOT NULL,
      tokens bigint,
      body text NOT NULL,
      literal_text text,
      words tsvector,
      PRIMARY KEY (session_key, seq)
    )`,
    `CREATE INDEX ctxwin_rows_words ON ${t.rows} USING gin (words)`,
    ...(trigramOperatorClass === undefined
      ? []
      : [`CREATE INDEX ctxwin_rows_literal ON ${t.rows} USING gin (literal_text ${trigramOperatorClass})`]),
    `CREATE TABLE ${t.windows} (
      session_key bigint NOT NULL,
      window_seq bigint NOT NULL,
      kind text NOT NULL,
      reason text,
      rollover_id text,
      context_tokens bigint,
      max_tokens bigint,
      first_seq bigint NOT NULL,
      last_seq bigint NOT NULL,
      row_count bigint NOT NULL,
      visible_count bigint NOT NULL,
      started_at text NOT NULL,
      ended_at text NOT NULL,
      PRIMARY KEY (session_key, window_seq)
    )`,
    `CREATE UNIQUE INDEX ctxwin_windows_by_rollover ON ${t.windows} (session_key, rollover_id) WHERE rollover_id IS NOT NULL`,
    `CREATE TABLE ${t.operations} (
      session_key bigint NOT NULL,
      operation_id text NOT NULL,
      first_seq bigint NOT NULL,
      last_seq bigint NOT NULL,
      PRIMARY KEY (session_key, operation_id)
    )`,
    `INSERT INTO ${t.meta} (name, value) VALUES ('application', 'ctxwin'), ('format', '1')`,
  ];
}
