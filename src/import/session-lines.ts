/**
 * Reads the lines one session has in its files, one sequence per file. A file is read once: a file
 * holding several sessions (a ctxwin export) keeps the other sessions' lines until they are
 * imported, and the lines the report counts (unknown, malformed, invalid UTF-8) are counted the
 * first time a file is read.
 */
import { addNote, type ImportReport } from "./import-report.js";
import type { SourceFormat, SourceLine } from "./source-format.js";

export interface FileReader {
  format: SourceFormat;
  /** Sessions of each file not imported yet; a file's cached lines go when it reaches 0. */
  remaining: Map<string, number>;
  cache: Map<string, Map<string, SourceLine[]>>;
  onFileRead: () => void;
  /** Throws `DeadlineReached` once the import's deadline has passed (checked before each line). */
  checkDeadline?: () => void;
}

/** Thrown inside an import when its deadline has passed: the import stops and reports `partial`. */
export class DeadlineReached extends Error {
  constructor() {
    super("the import reached its deadline");
    this.name = "DeadlineReached";
  }
}

/**
 * @example const sequences = await readSessionLines({ reader, sessionId, files, report, settled: true });
 */
export async function readSessionLines({
  reader,
  sessionId,
  files,
  report,
  settled = true,
}: {
  reader: FileReader;
  /** Undefined: only count the file's lines (a file that names no session). */
  sessionId: string | undefined;
  files: readonly string[];
  report: ImportReport;
  settled?: boolean;
}): Promise<SourceLine[][]> {
  const sequences: SourceLine[][] = [];
  for (const file of files) {
    const bySession = reader.cache.get(file) ?? (await readFile(reader, file, report, settled));
    if (sessionId === undefined) continue;
    sequences.push(bySession.get(sessionId) ?? []);
    const left = (reader.remaining.get(file) ?? 1) - 1;
    reader.remaining.set(file, left);
    if (left > 0) reader.cache.set(file, bySession);
    else reader.cache.delete(file);
  }
  return sequences;
}

async function readFile(
  reader: FileReader,
  file: string,
  report: ImportReport,
  settled: boolean,
): Promise<Map<string, SourceLine[]>> {
  const bySession = new Map<string, SourceLine[]>();
  try {
    for await (const entry of reader.format.lines(file)) {
      reader.checkDeadline?.();
      if (entry.kind !== "line") {
        // The half-written last line of a transcript still being written is not malformed.
        if (entry.kind === "malformed" && entry.partial === true && !settled) continue;
        addNote(report, entry);
        continue;
      }
      const lines = bySession.get(entry.sessionId);
      if (lines === undefined) bySession.set(entry.sessionId, [entry.line]);
      else lines.push(entry.line);
    }
  } catch (error) {
    // A file that cannot be read (removed, no permission) is a warning; anything else is a bug.
    if ((error as NodeJS.ErrnoException).code === undefined) throw error;
    report.warnings.push(`${file}: ${(error as Error).message}`);
  }
  reader.onFileRead();
  return bySession;
}
