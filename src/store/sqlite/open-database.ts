/**
 * Opens (or creates) a ctxwin SQLite database safely: a file that is not a SQLite database, a
 * SQLite database of another application, or one written by a newer ctxwin is refused before
 * anything is written to it.
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { StoreFormatError } from "../errors.js";
import { CTXWIN_APPLICATION_ID, MIGRATIONS, SCHEMA_V1, STORE_FORMAT_VERSION } from "./schema.js";

export type Durability = "full" | "normal";

export interface OpenDatabaseOptions {
  path: string;
  /** How long a writer waits for another process's lock before failing (ms). */
  busyTimeoutMs: number;
  durability: Durability;
}

const sqliteHeader = "SQLite format 3\u0000";

export function openDatabase({ path: file, busyTimeoutMs, durability }: OpenDatabaseOptions): Database.Database {
  assertSqliteFile(file);
  mkdirSync(path.dirname(file), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(file, { timeout: busyTimeoutMs });
  } catch (error) {
    throw new StoreFormatError(file, `Cannot open '${file}' as a ctxwin database: ${(error as Error).message}`, { cause: error });
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    // One read transaction, so that both reads see the same state while another process may be creating the schema.
    db.transaction(() => assertOurs(db, file))();
    useWriteAheadLog(db, busyTimeoutMs);
    db.pragma(`synchronous = ${durability === "full" ? "FULL" : "NORMAL"}`);
    initialize(db, file);
    return db;
  } catch (error) {
    db.close();
    if (StoreFormatError.isInstance(error)) throw error;
    throw new StoreFormatError(file, `Cannot open '${file}' as a ctxwin database: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Switches the file to WAL. SQLite answers SQLITE_BUSY at once (without the busy handler) while
 * another process holds a lock during its own switch, e.g. when several processes create a new
 * database at the same moment, so wait and retry within the busy timeout.
 */
function useWriteAheadLog(db: Database.Database, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      if (db.pragma("journal_mode", { simple: true }) === "wal") return;
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "SQLITE_BUSY" || Date.now() >= deadline) throw error;
      sleepSync(Math.min(50, 2 ** attempt));
    }
  }
}

function sleepSync(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

function assertSqliteFile(file: string): void {
  if (!existsSync(file)) return;
  const stats = statSync(file);
  if (!stats.isFile()) throw new StoreFormatError(file, `'${file}' is not a file; pass the path of a ctxwin database file.`);
  if (stats.size === 0) return;
  const header = Buffer.alloc(16);
  const descriptor = openSync(file, "r");
  try {
    readSync(descriptor, header, 0, 16, 0);
  } finally {
    closeSync(descriptor);
  }
  if (header.toString("latin1") !== sqliteHeader) {
    throw new StoreFormatError(file, `'${file}' is not a ctxwin database (not a SQLite file); it was left untouched. Point ctxwin at another path.`);
  }
}

function assertOurs(db: Database.Database, file: string): void {
  const applicationId = db.pragma("application_id", { simple: true }) as number;
  if (applicationId === CTXWIN_APPLICATION_ID) {
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > STORE_FORMAT_VERSION) {
      throw new StoreFormatError(
        file,
        `'${file}' was written by a newer ctxwin (store format ${version}; this build reads up to ${STORE_FORMAT_VERSION}). Upgrade ctxwin to open it; the file was left untouched.`,
      );
    }
    return;
  }
  if (applicationId !== 0 || countTables(db) > 0) {
    throw new StoreFormatError(file, `'${file}' is a SQLite database of another application, not a ctxwin database; it was left untouched.`);
  }
}

function countTables(db: Database.Database): number {
  return (db.prepare("SELECT count(*) AS count FROM sqlite_schema").get() as { count: number }).count;
}

/** Creates the schema of a new database, or migrates an older format to this build's. */
function initialize(db: Database.Database, file: string): void {
  const migratedFrom = migrate(db, file);
  // Format 4 rebuilt the search indexes smaller (ADR 0032); the pages the old ones used are only
  // given back to the file system by a VACUUM, itself atomic. Another process reading or writing
  // the file at this moment makes it busy: the file then stays at its old size, and works as well.
  if (migratedFrom !== undefined && migratedFrom < 4) {
    try {
      db.exec("VACUUM");
    } catch (error) {
      if (!["SQLITE_BUSY", "SQLITE_LOCKED"].includes(String((error as { code?: unknown }).code))) throw error;
    }
  }
}

/** Runs the migrations; returns the format an existing file was migrated from, if it was. */
function migrate(db: Database.Database, file: string): number | undefined {
  return db.transaction((): number | undefined => {
    let version = db.pragma("user_version", { simple: true }) as number;
    let fresh = false;
    if ((db.pragma("application_id", { simple: true }) as number) !== CTXWIN_APPLICATION_ID) {
      if (countTables(db) > 0) {
        throw new StoreFormatError(file, `'${file}' is a SQLite database of another application, not a ctxwin database; it was left untouched.`);
      }
      db.exec(SCHEMA_V1);
      db.pragma(`application_id = ${CTXWIN_APPLICATION_ID}`);
      version = 1;
      fresh = true;
    }
    if (version === STORE_FORMAT_VERSION) return undefined;
    const from = version;
    for (; version < STORE_FORMAT_VERSION; version += 1) {
      const migration = MIGRATIONS[version];
      if (migration === undefined) throw new StoreFormatError(file, `'${file}' has store format ${version}, which this build cannot migrate.`);
      if (typeof migration === "string") db.exec(migration);
      else migration(db);
    }
    db.pragma(`user_version = ${STORE_FORMAT_VERSION}`);
    return fresh ? undefined : from;
  }).immediate();
}
