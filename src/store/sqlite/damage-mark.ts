/**
 * The damage mark (ADR 0020): once a process finds a database damaged, it writes
 * `<database>-damaged` next to it (what was found, and the file's identity), so that every later
 * open refuses the file too, including opens whose bounded check would not reach the damaged
 * page. `ctxwin doctor` removes the mark once the file checks healthy. A mark written for another
 * file (the damaged one was moved away and a new store created in its place) is ignored.
 */
import { readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";

interface DamageMark {
  detail: string;
  at: string;
  device: number;
  inode: number;
}

export function damageMarkPath(file: string): string {
  return `${file}-damaged`;
}

/**
 * What an earlier process found, when the mark belongs to this very file.
 *
 * @example
 * const earlier = readDamageMark(file); if (earlier !== undefined) throw new StoreCorruptError(file, earlier);
 */
export function readDamageMark(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(damageMarkPath(file), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let mark: Partial<DamageMark>;
  try {
    mark = JSON.parse(text) as Partial<DamageMark>;
  } catch {
    // A mark cut short by a crash still says the file was found damaged.
    return "found damaged earlier (the damage mark is unreadable)";
  }
  const stats = statSync(file, { throwIfNoEntry: false });
  if (stats === undefined || stats.ino !== mark.inode || stats.dev !== mark.device) return undefined;
  return `found damaged at ${mark.at ?? "an earlier open"}: ${mark.detail ?? "no detail"}`;
}

/** Best effort: a folder this user cannot write keeps no mark (the open check still runs). */
export function writeDamageMark(file: string, detail: string, now: Date = new Date()): void {
  try {
    const stats = statSync(file);
    const mark: DamageMark = { detail, at: now.toISOString(), device: stats.dev, inode: stats.ino };
    writeFileSync(damageMarkPath(file), `${JSON.stringify(mark)}\n`);
  } catch {
    // Nothing to do: the mark only spares later processes a read of the damaged page.
  }
}

export function clearDamageMark(file: string): void {
  try {
    unlinkSync(damageMarkPath(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
