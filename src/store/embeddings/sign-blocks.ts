/**
 * Packed copies of a session's signatures (ADR 0063, "Later", amended 2026-12-06), so that a
 * session's first search reads a few large blobs instead of one row per vector (~0.9 s for
 * 100,000 rows at 1,536 dimensions, one tenth of that from blocks).
 * `ctxwin_embedding_sign_blocks` holds runs of `SIGN_BLOCK_ROWS` consecutive rows of
 * `ctxwin_embedding_signs` (which stays the truth, written as before): their vector ids and seqs
 * as float64 arrays and their sign bits side by side, with the session's incarnation. The loader
 * packs them (writers do not), so a file written before the table existed, or by a version that
 * does not know it, is read row by row until its next writable load packs it. A block of another
 * incarnation (the session was deleted and recreated by a version without this table) is ignored
 * and deleted.
 */
import type Database from "better-sqlite3";
import { SessionSigns } from "./sign-cache.js";

export const SIGN_BLOCKS_SCHEMA = `
CREATE TABLE IF NOT EXISTS ctxwin_embedding_sign_blocks (
  block_id INTEGER PRIMARY KEY, model_key INTEGER NOT NULL, session_id TEXT NOT NULL, incarnation TEXT NOT NULL,
  last_vector_id INTEGER NOT NULL, ids BLOB NOT NULL, seqs BLOB NOT NULL, bits BLOB NOT NULL,
  UNIQUE (model_key, session_id, last_vector_id));
`;

/** Rows per block: the loader leaves fewer than this many in the row-by-row tail. */
export const SIGN_BLOCK_ROWS = 1_024;

export interface SignBlockKey {
  modelKey: number;
  sessionId: string;
  /** The session's incarnation now (`undefined` when it has no progress row: blocks are then not used). */
  incarnation: string | undefined;
}

const blocksExist = (db: Database.Database) =>
  db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'ctxwin_embedding_sign_blocks'").get() !== undefined;
/** A copy into fresh (aligned) memory. */
const float64sOf = (blob: Buffer) => new Float64Array(new Uint8Array(blob).buffer);

/**
 * The session's packed signatures, in a `SessionSigns` with room for `spare` more rows; `stale`
 * when blocks of another incarnation (or malformed ones) were found and left out.
 *
 * @example const { signs } = readSignBlocks(db, { modelKey: 1, sessionId: "s", incarnation: "i1", dimensions: 384, spare: 1_024 });
 */
export function readSignBlocks(
  db: Database.Database,
  { modelKey, sessionId, incarnation, dimensions, spare }: SignBlockKey & { dimensions: number; spare: number },
): { signs: SessionSigns; stale: boolean } {
  const rowBytes = Math.ceil(dimensions / 32) * 4;
  const blocks: { ids: Float64Array; seqs: Float64Array; bits: Buffer }[] = [];
  let stale = false;
  if (incarnation !== undefined && blocksExist(db)) {
    const rows = db
      .prepare(
        "SELECT incarnation, ids, seqs, bits FROM ctxwin_embedding_sign_blocks WHERE model_key = ? AND session_id = ? ORDER BY last_vector_id",
      )
      .raw()
      .iterate(modelKey, sessionId) as IterableIterator<[string, Buffer, Buffer, Buffer]>;
    for (const [blockIncarnation, ids, seqs, bits] of rows) {
      const count = ids.byteLength / 8;
      const wellFormed =
        Number.isInteger(count) && seqs.byteLength === ids.byteLength && bits.byteLength === count * rowBytes;
      if (blockIncarnation !== incarnation || !wellFormed) stale = true;
      else blocks.push({ ids: float64sOf(ids), seqs: float64sOf(seqs), bits });
    }
  }
  // Blocks after a stale one may not follow on from the good ones: all are read again row by row.
  if (stale) blocks.length = 0;
  const total = blocks.reduce((sum, block) => sum + block.ids.length, 0);
  const signs = new SessionSigns(dimensions, { capacity: total + spare });
  for (const block of blocks) signs.addRows(block.ids, block.seqs, block.bits);
  return { signs, stale };
}

/**
 * Packs the rows of `signs` from `from` on into blocks of `SIGN_BLOCK_ROWS` (a shorter rest stays
 * in the row-by-row tail), and deletes the session's blocks of other incarnations when `stale`.
 * Does nothing when another connection packed first (the stored blocks no longer end where
 * `signs`' blocks did), or holds the write lock.
 *
 * @example packSignBlocks(db, { modelKey: 1, sessionId: "s", incarnation: "i1", signs, from: 0, stale: false });
 */
export function packSignBlocks(
  db: Database.Database,
  {
    modelKey,
    sessionId,
    incarnation,
    signs,
    from,
    stale,
  }: SignBlockKey & { signs: SessionSigns; from: number; stale: boolean },
): void {
  if (incarnation === undefined) return;
  const blocks = Math.floor((signs.count - from) / SIGN_BLOCK_ROWS);
  if (blocks === 0 && !stale) return;
  const packedThrough = from === 0 ? 0 : (signs.rows(from - 1, from).ids[0] as number);
  // A search does not wait for another connection's write to pack: the next load packs instead.
  const busyTimeout = db.pragma("busy_timeout", { simple: true }) as number;
  db.pragma("busy_timeout = 0");
  try {
    writeBlocks(db, { modelKey, sessionId, incarnation, signs, from, stale, blocks, packedThrough });
  } catch (error) {
    if (!isBusy(error)) throw error;
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

const isBusy = (error: unknown) =>
  error instanceof Error && "code" in error && String(error.code).startsWith("SQLITE_BUSY");

interface PackPlan extends SignBlockKey {
  incarnation: string;
  signs: SessionSigns;
  from: number;
  stale: boolean;
  /** Whole blocks to write from `from` on. */
  blocks: number;
  /** The vector id the stored blocks must end at (0: none stored) for these to follow on. */
  packedThrough: number;
}

function writeBlocks(
  db: Database.Database,
  { modelKey, sessionId, incarnation, signs, from, stale, blocks, packedThrough }: PackPlan,
): void {
  db.transaction(() => {
    db.exec(SIGN_BLOCKS_SCHEMA);
    if (stale) {
      db.prepare(
        "DELETE FROM ctxwin_embedding_sign_blocks WHERE model_key = ? AND session_id = ? AND incarnation <> ?",
      ).run(modelKey, sessionId, incarnation);
    }
    const last = db
      .prepare("SELECT max(last_vector_id) FROM ctxwin_embedding_sign_blocks WHERE model_key = ? AND session_id = ?")
      .pluck()
      .get(modelKey, sessionId) as number | null;
    if ((last ?? 0) !== packedThrough) return;
    const insert = db.prepare(
      "INSERT OR IGNORE INTO ctxwin_embedding_sign_blocks (model_key, session_id, incarnation, last_vector_id, ids, seqs, bits) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    for (let block = 0; block < blocks; block += 1) {
      const start = from + block * SIGN_BLOCK_ROWS;
      const { ids, seqs, bits } = signs.rows(start, start + SIGN_BLOCK_ROWS);
      const blob = (array: Float64Array | Uint8Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
      insert.run(modelKey, sessionId, incarnation, ids[ids.length - 1], blob(ids), blob(seqs), blob(bits));
    }
  }).immediate();
}

/** Drops a session's blocks (with its vectors). */
export function deleteSignBlocks(db: Database.Database, sessionId: string): void {
  if (blocksExist(db)) db.prepare("DELETE FROM ctxwin_embedding_sign_blocks WHERE session_id = ?").run(sessionId);
}
