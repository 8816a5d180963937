/**
 * Opens (or creates) a ctxwin SQLite database safely: a file that is not a SQLite database, a
 * SQLite database of another application, one written by a newer ctxwin, or an empty file is
 * refused before anything is written to it. A new database is built under a temporary name and
 * linked into place whole (ADR 0019), so no process ever sees a half-created file. A read-only
 * open never writes and works in a folder this user cannot write.
 */
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  unlinkSync,
} from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { StoreCorruptError, StoreFormatError, StoreReadOnlyError } from "../errors.js";
import { readDamageMark, writeDamageMark } from "./damage-mark.js";
import { FULL_CHECK_MAX_BYTES, findDamage } from "./open-check.js";
import { CTXWIN_APPLICATION_ID, MIGRATIONS, SCHEMA_V1, STORE_FORMAT_VERSION } from "./schema.js";
import { isReadOnlyFailure } from "./sqlite-failures.js";
import type { Durability } from "./durability.js";

export type { Durability };

export interface OpenDatabaseOptions {
  path: string;
  /** How long a writer waits for another process's lock before failing (ms). */
  busyTimeoutMs: number;
  durability: Durability;
  /** Never write (no schema creation, no WAL switch); the file must exist. */
  readOnly?: boolean;
  /** Files up to this size get a full `quick_check` on open (ADR 0020). */
  fullCheckMaxBytes?: number;
}

const sqliteHeader = "SQLite format 3\u0000";

/**
 * @example
 * const db = openDatabase({ path: ".ctxwin/ctxwin.db", busyTimeoutMs: 10_000, durability: "full" });
 */
export function openDatabase(options: OpenDatabaseOptions): Database.Database {
  return options.readOnly === true ? openReadOnly(options) : openWritable(options);
}

function openWritable({
  path: file,
  busyTimeoutMs,
  durability,
  fullCheckMaxBytes = FULL_CHECK_MAX_BYTES,
}: OpenDatabaseOptions): Database.Database {
  assertUsableFile(file);
  assertNotMarkedDamaged(file);
  if (!existsSync(file)) {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
    } catch (error) {
      throw openFailure(file, error);
    }
    createDatabaseFile(file, durability);
  }
  const db = connect(file, { timeout: busyTimeoutMs });
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    // One read transaction, so that both reads see the same state while another process may be creating the schema.
    const version = db.transaction(() => assertOurs(db, file))();
    if (version > 0) assertUndamaged(db, file, { fullCheckMaxBytes, mark: true });
    useWriteAheadLog(db, busyTimeoutMs);
    db.pragma(`synchronous = ${durability === "full" ? "FULL" : "NORMAL"}`);
    // A file at this build's format needs no write to open; only creating or migrating takes the write lock.
    if (version !== STORE_FORMAT_VERSION) initialize(db, file);
    return db;
  } catch (error) {
    db.close();
    throw openFailure(file, error);
  }
}

/**
 * Opens an existing database without writing to it. SQLite reads a WAL database through a
 * `-shm` file it creates next to it; in a folder this user cannot write, and with no `-wal`
 * waiting to be checkpointed, the file is complete as it is and is read as an immutable snapshot.
 * An older format is migrated once through a writable open when the folder allows it.
 */
function openReadOnly({
  path: file,
  busyTimeoutMs,
  durability,
  fullCheckMaxBytes = FULL_CHECK_MAX_BYTES,
}: OpenDatabaseOptions): Database.Database {
  if (!existsSync(file))
    throw new StoreFormatError(file, `No ctxwin database at '${file}' (a read-only open never creates one).`);
  assertUsableFile(file);
  assertNotMarkedDamaged(file);
  let db = connect(file, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    let version: number;
    try {
      version = db.transaction(() => assertOurs(db, file))();
    } catch (error) {
      if (!isReadOnlyFailure(error)) throw error;
      db.close();
      db = openSnapshot(file, error);
      version = assertOurs(db, file);
    }
    if (version > 0) assertUndamaged(db, file, { fullCheckMaxBytes, mark: false });
    if (version === STORE_FORMAT_VERSION) return db;
    if (version === 0)
      throw new StoreFormatError(file, `'${file}' is an empty SQLite database with no ctxwin history in it yet.`);
    db.close();
    migrateForReading(file, version, busyTimeoutMs, durability);
    db = connect(file, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
    return db;
  } catch (error) {
    db.close();
    throw openFailure(file, error);
  }
}

function migrateForReading(file: string, version: number, busyTimeoutMs: number, durability: Durability): void {
  try {
    openWritable({ path: file, busyTimeoutMs, durability, fullCheckMaxBytes: 0 }).close();
  } catch (error) {
    if (!StoreReadOnlyError.isInstance(error)) throw error;
    throw new StoreReadOnlyError(file, "not-writable", {
      cause: error,
      detail: `it has store format ${version} and needs a one-time upgrade to format ${STORE_FORMAT_VERSION}, which writes`,
    });
  }
}

/**
 * The database as an immutable snapshot (SQLite's `immutable=1` URI parameter), for a folder
 * this user cannot write. Needs URI file names, which better-sqlite3 enables when the
 * environment has `SQLITE_USE_URI=1` as it loads (the `ctxwin` command sets it).
 */
function openSnapshot(file: string, cause: unknown): Database.Database {
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw new StoreReadOnlyError(file, "not-writable", {
      cause,
      detail: `its newest writes are still in '${wal}' and reading them needs a '-shm' file in that folder`,
    });
  }
  try {
    return new Database(`${pathToFileURL(file).href}?immutable=1`, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new StoreReadOnlyError(file, "not-writable", {
      cause: error,
      detail: "reading a WAL database there needs a '-shm' file next to it, or SQLITE_USE_URI=1 in the environment",
    });
  }
}

function connect(file: string, options: Database.Options): Database.Database {
  try {
    return new Database(file, options);
  } catch (error) {
    throw openFailure(file, error);
  }
}

/** A typed error for a failed open: read-only failures keep their meaning, everything else is a format problem. */
function openFailure(file: string, error: unknown): Error {
  if (StoreFormatError.isInstance(error) || StoreReadOnlyError.isInstance(error) || StoreCorruptError.isInstance(error))
    return error as Error;
  if (isReadOnlyFailure(error)) return new StoreReadOnlyError(file, "not-writable", { cause: error });
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM" || code === "EROFS")
    return new StoreReadOnlyError(file, "not-writable", { cause: error, detail: (error as Error).message });
  return new StoreFormatError(file, `Cannot open '${file}' as a ctxwin database: ${(error as Error).message}`, {
    cause: error,
  });
}

/**
 * Builds a new database under a temporary name in the same folder and links it to `file`, which
 * fails if another process got there first (its file is then used and ours discarded). On a file
 * system without hard links the file is copied into place instead, refusing to overwrite.
 */
function createDatabaseFile(file: string, durability: Durability): void {
  const temporary = `${file}.new-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  try {
    const db = connect(temporary, {});
    try {
      db.pragma("journal_mode = WAL");
      db.pragma(`synchronous = ${durability === "full" ? "FULL" : "NORMAL"}`);
      initialize(db, temporary);
    } finally {
      db.close();
    }
    try {
      linkSync(temporary, file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return;
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS") throw error;
      copyFileSync(temporary, file, constants.COPYFILE_EXCL);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
    throw openFailure(file, error);
  } finally {
    for (const leftover of [temporary, `${temporary}-wal`, `${temporary}-shm`]) removeIfPresent(leftover);
  }
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/**
 * Switches the file to WAL. SQLite answers SQLITE_BUSY at once (without the busy handler) while
 * another process holds a lock during its own switch, so wait and retry within the busy timeout.
 */
function useWriteAheadLog(db: Database.Database, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      if (db.pragma("journal_mode", { simple: true }) === "wal") return;
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      // Any busy variant: another process holds a lock, or rebuilds the log's index after a crash (SQLITE_BUSY_RECOVERY).
      if (!String((error as { code?: unknown }).code).startsWith("SQLITE_BUSY") || Date.now() >= deadline) throw error;
      sleepSync(Math.min(50, 2 ** attempt));
    }
  }
}

function sleepSync(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

function assertNotMarkedDamaged(file: string): void {
  const earlier = readDamageMark(file);
  if (earlier !== undefined) throw new StoreCorruptError(file, earlier);
}

/**
 * Runs the bounded damage check (ADR 0020). A damaged file is marked, so that later opens refuse
 * it too, except by a read-only open, which writes nothing at all.
 */
function assertUndamaged(
  db: Database.Database,
  file: string,
  { fullCheckMaxBytes, mark }: { fullCheckMaxBytes: number; mark: boolean },
): void {
  // SQLite then checks each cell's size as it reads a page, which finds more damage before use.
  db.pragma("cell_size_check = ON");
  const damage = findDamage(db, file, { fullCheckMaxBytes });
  if (damage === undefined) return;
  if (mark) writeDamageMark(file, damage);
  throw new StoreCorruptError(file, damage);
}

/**
 * Refuses what is not a database file. An empty file is refused too: ctxwin never leaves one (a
 * new database appears whole), so it is a placeholder or the remains of a failed copy, and
 * turning it into a new, empty history would hide the history the user expected there. An empty
 * file whose `-wal` holds data is a database whose pages were not yet copied back: SQLite reads it.
 */
export function assertUsableFile(file: string): void {
  if (!existsSync(file)) return;
  const stats = statSync(file);
  if (!stats.isFile())
    throw new StoreFormatError(file, `'${file}' is not a file; pass the path of a ctxwin database file.`);
  if (stats.size === 0) {
    const wal = `${file}-wal`;
    if (existsSync(wal) && statSync(wal).size > 0) return;
    throw new StoreFormatError(
      file,
      `'${file}' is an empty file (0 bytes), not a ctxwin database; it was left untouched. ` +
        "If it is not needed, delete it and ctxwin creates a new history there; " +
        "otherwise restore the database from a backup.",
    );
  }
  const header = Buffer.alloc(16);
  const descriptor = openSync(file, "r");
  try {
    readSync(descriptor, header, 0, 16, 0);
  } finally {
    closeSync(descriptor);
  }
  if (header.toString("latin1") !== sqliteHeader) {
    throw new StoreFormatError(
      file,
      `'${file}' is not a ctxwin database (not a SQLite file); it was left untouched. Point ctxwin at another path.`,
    );
  }
}

/** Checks the file is ours and not newer than this build; returns its format version (0 for an empty database). */
function assertOurs(db: Database.Database, file: string): number {
  const applicationId = db.pragma("application_id", { simple: true }) as number;
  if (applicationId === CTXWIN_APPLICATION_ID) {
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > STORE_FORMAT_VERSION) {
      throw new StoreFormatError(
        file,
        `'${file}' was written by a newer ctxwin (store format ${version}; ` +
          `this build reads up to ${STORE_FORMAT_VERSION}). Upgrade ctxwin to open it; the file was left untouched.`,
      );
    }
    return version;
  }
  if (applicationId !== 0 || countTables(db) > 0) {
    throw new StoreFormatError(
      file,
      `'${file}' is a SQLite database of another application, not a ctxwin database; it was left untouched.`,
    );
  }
  return 0;
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
  return db
    .transaction((): number | undefined => {
      let version = db.pragma("user_version", { simple: true }) as number;
      let fresh = false;
      if ((db.pragma("application_id", { simple: true }) as number) !== CTXWIN_APPLICATION_ID) {
        if (countTables(db) > 0) {
          throw new StoreFormatError(
            file,
            `'${file}' is a SQLite database of another application, not a ctxwin database; it was left untouched.`,
          );
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
        if (migration === undefined)
          throw new StoreFormatError(file, `'${file}' has store format ${version}, which this build cannot migrate.`);
        if (typeof migration === "string") db.exec(migration);
        else migration(db);
      }
      db.pragma(`user_version = ${STORE_FORMAT_VERSION}`);
      return fresh ? undefined : from;
    })
    .immediate();
}
