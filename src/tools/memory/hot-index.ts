/**
 * The hot-memory index: pins and access statistics of memory files, one small JSON file at
 * `<root>/hot-index.json` (ADR 0007). Readers take a snapshot without locking (the file is only
 * ever replaced atomically); writers hold `<root>/.hot-index.lock` while they read, change and
 * write it, so concurrent processes never lose each other's pins or counts.
 *
 * ```json
 * { "version": 1, "files": { "project/conventions.md": { "pinned": true,
 *   "access": { "count": 3, "score": 2.4, "scoreAt": "2025-01-02T03:04:05.000Z", "lastAccessAt": "…" } } } }
 * ```
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { recordAccess, type AccessRecord } from "../../core/hot-memories/access-score.js";
import { CtxwinError } from "../../core/errors.js";
import { DEFAULT_HOT_MEMORY_LIMITS } from "../../core/hot-memories/limits.js";
import { MemoryIndexFormatError } from "./errors.js";
import { withFileLock } from "./file-lock.js";
import type { MemoryLayout } from "./layout.js";
import { writeFileAtomic } from "./text-files.js";

export const HOT_INDEX_VERSION = 1;

export interface HotIndexEntry {
  pinned?: boolean;
  access?: AccessRecord;
}

export interface HotIndexSnapshot {
  files: Map<string, HotIndexEntry>;
  /** Set when the file could not be used (corrupt or newer format); the index then reads as empty. */
  problem?: string;
  /** A newer format: never overwrite it. */
  newerVersion?: unknown;
}

interface StoredEntry {
  pinned?: boolean;
  access?: { count: number; score: number; scoreAt: string; lastAccessAt: string };
}

/**
 * Reads the index; a missing file is an empty index.
 *
 * @example
 * const { files } = readHotIndex(layout);
 */
export function readHotIndex(layout: MemoryLayout): HotIndexSnapshot {
  let raw: string;
  try {
    raw = fs.readFileSync(layout.indexFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { files: new Map() };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {
      files: new Map(),
      problem: `The memory index ${layout.indexFile} is not valid JSON; it is ignored and will be rebuilt.`,
    };
  }
  const document = parsed as { version?: unknown; files?: unknown };
  if (
    typeof document !== "object" ||
    document === null ||
    typeof document.files !== "object" ||
    document.files === null
  ) {
    return {
      files: new Map(),
      problem: `The memory index ${layout.indexFile} has an unexpected shape; it is ignored and will be rebuilt.`,
    };
  }
  if (document.version !== HOT_INDEX_VERSION) {
    if (typeof document.version === "number" && document.version > HOT_INDEX_VERSION) {
      return {
        files: new Map(),
        problem: new MemoryIndexFormatError(layout.indexFile, document.version).message,
        newerVersion: document.version,
      };
    }
    return {
      files: new Map(),
      problem: `The memory index ${layout.indexFile} has an unknown version; it is ignored and will be rebuilt.`,
    };
  }
  const files = new Map<string, HotIndexEntry>();
  for (const [key, value] of Object.entries(document.files as Record<string, unknown>)) {
    const entry = decodeEntry(value);
    if (entry !== undefined) files.set(key, entry);
  }
  return { files };
}

/**
 * Changes the index under its lock. `change` edits the map in place.
 *
 * @example
 * await updateHotIndex({ layout, change: (files) => files.set("project/a.md", { pinned: true }) });
 */
export async function updateHotIndex({
  layout,
  change,
  maxWaitMs,
}: {
  layout: MemoryLayout;
  change: (files: Map<string, HotIndexEntry>) => void;
  maxWaitMs?: number;
}): Promise<void> {
  fs.mkdirSync(layout.root, { recursive: true });
  await withFileLock({
    lockFile: layout.indexLockFile,
    maxWaitMs,
    run: () => {
      const snapshot = readHotIndex(layout);
      if (snapshot.newerVersion !== undefined)
        throw new MemoryIndexFormatError(layout.indexFile, snapshot.newerVersion);
      // Keep an unreadable index for inspection instead of overwriting it.
      if (snapshot.problem !== undefined)
        fs.renameSync(layout.indexFile, `${layout.indexFile}.unreadable-${randomBytes(4).toString("hex")}`);
      change(snapshot.files);
      const stored: Record<string, StoredEntry> = {};
      for (const key of [...snapshot.files.keys()].sort()) {
        const encoded = encodeEntry(snapshot.files.get(key) as HotIndexEntry);
        if (encoded !== undefined) stored[key] = encoded;
      }
      const problem = writeFileAtomic({
        file: layout.indexFile,
        content: `${JSON.stringify({ version: HOT_INDEX_VERSION, files: stored }, null, 1)}\n`,
      });
      if (problem !== undefined) throw new CtxwinError("CtxwinMemoryIndexWriteError", problem.message);
    },
  });
}

/** Counts one access of each key at `now`. */
export function recordAccesses(
  files: Map<string, HotIndexEntry>,
  keys: readonly string[],
  now: number,
  halfLifeMs = DEFAULT_HOT_MEMORY_LIMITS.halfLifeMs,
): void {
  for (const key of keys) {
    const entry = files.get(key) ?? {};
    files.set(key, { ...entry, access: recordAccess({ record: entry.access, now, halfLifeMs }) });
  }
}

/** Moves the entries of `from` (a file, or a directory with everything below it) to `to`. */
export function moveEntries(files: Map<string, HotIndexEntry>, from: string, to: string): void {
  for (const [key, entry] of [...files]) {
    if (key !== from && !key.startsWith(`${from}/`)) continue;
    files.delete(key);
    files.set(`${to}${key.slice(from.length)}`, entry);
  }
}

/** Removes the entries of `key` and everything below it. */
export function removeEntries(files: Map<string, HotIndexEntry>, key: string): void {
  for (const existing of [...files.keys()]) {
    if (existing === key || existing.startsWith(`${key}/`)) files.delete(existing);
  }
}

function decodeEntry(value: unknown): HotIndexEntry | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const stored = value as StoredEntry;
  const entry: HotIndexEntry = {};
  if (stored.pinned === true) entry.pinned = true;
  const access = stored.access;
  if (access !== undefined && typeof access === "object" && access !== null) {
    const scoreAt = Date.parse(access.scoreAt);
    const lastAccessAt = Date.parse(access.lastAccessAt);
    if (
      Number.isFinite(access.count) &&
      access.count > 0 &&
      Number.isFinite(access.score) &&
      access.score >= 0 &&
      Number.isFinite(scoreAt) &&
      Number.isFinite(lastAccessAt)
    ) {
      entry.access = { count: access.count, score: access.score, scoreAt, lastAccessAt };
    }
  }
  return entry.pinned === true || entry.access !== undefined ? entry : undefined;
}

function encodeEntry(entry: HotIndexEntry): StoredEntry | undefined {
  const stored: StoredEntry = {};
  if (entry.pinned === true) stored.pinned = true;
  if (entry.access !== undefined) {
    stored.access = {
      count: entry.access.count,
      score: entry.access.score,
      scoreAt: new Date(entry.access.scoreAt).toISOString(),
      lastAccessAt: new Date(entry.access.lastAccessAt).toISOString(),
    };
  }
  return stored.pinned === true || stored.access !== undefined ? stored : undefined;
}
