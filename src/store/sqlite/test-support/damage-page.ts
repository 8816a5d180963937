/**
 * Test helpers that damage a real ctxwin file the way a disk fault does: one page overwritten
 * with a fixed garbage pattern (deterministic), the file header left intact.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import Database from "better-sqlite3";

/** A fixed garbage page (not zeros, which can look like an empty page). */
function garbage(pageSize: number): Buffer {
  return Buffer.from(Array.from({ length: pageSize }, (_, index) => (index * 151 + 89) % 256));
}

/**
 * @example overwritePage(file, 7);
 */
export function overwritePage(file: string, page: number, pageSize = 4096): void {
  const descriptor = openSync(file, "r+");
  try {
    writeSync(descriptor, garbage(pageSize), 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(descriptor);
  }
}

/** The root page of a table or index. */
export function rootPageOf(file: string, name: string): number {
  const db = new Database(file, { readonly: true });
  try {
    const entry = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = ?").get(name) as
      { rootpage: number } | undefined;
    if (entry === undefined || entry.rootpage === 0) throw new Error(`${name} has no root page in ${file}`);
    return entry.rootpage;
  } finally {
    db.close();
  }
}

/** A leaf page of a table's B-tree that is neither its first nor its last (the bounded open check reads only those). */
export function middleLeafOf(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  try {
    const pages = db
      .prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path")
      .all(table) as { pageno: number }[];
    const middle = pages[Math.floor(pages.length / 2)];
    if (middle === undefined || pages.length < 3)
      throw new Error(`${table} has ${pages.length} leaf pages; the test needs at least 3`);
    return middle.pageno;
  } finally {
    db.close();
  }
}
