/**
 * What an import did, as counts plus the lines it could not use (file:line), for the summary
 * line and `--json`. Row counts are rows committed to the store by this import, nothing else.
 */
import type { MergeCounts } from "./merge-lines.js";
import type { LineNote } from "./source-format.js";

export interface MalformedLine {
  file: string;
  line: number;
  message: string;
}

export interface ImportReport {
  format: string;
  files: number;
  /** Sessions that received at least one new row. */
  sessionsUpdated: number;
  rowsAdded: number;
  /** Rows already in the store (an earlier import), not written again. */
  rowsAlreadyPresent: number;
  /** Rows held back until their tool result (or compaction summary) is written: the next import adds them. */
  rowsWaiting: number;
  /** Sub-agent sessions imported before their parent, attached to it by this import (ADR 0067, amended). */
  childrenReattached: number;
  /**
   * Lines of a type the importer does not know: counted, never fatal, and kept in their session as
   * raw rows (`meta.type` "imported-raw-line", ADR 0066) unless no session could be named for them.
   */
  unknownLines: number;
  /** `unknownLines` by what the lines were (`progress`, `system:hook_output`, `response_item:web_search_call`). */
  unknownLineTypes: Record<string, number>;
  /** Lines holding bytes that are not UTF-8: imported with U+FFFD in their place. */
  invalidUtf8Lines: number;
  /**
   * Lines merged or kept apart, by why (ADR 0079): a line repeated in its file or found in several
   * files is kept once; a line reusing another line's uuid with other content is kept as a row of its own.
   */
  linesMerged: MergeCounts;
  malformed: MalformedLine[];
  /** Every malformed line; `malformed` lists the first `MAX_REPORTED_MALFORMED`. */
  malformedCount: number;
  /** Problems that skipped a path, a whole session or file, or changed how rows were stored, one sentence each. */
  warnings: string[];
  /**
   * The import stopped at its deadline (`importFiles({ deadline })`): what it committed is whole,
   * the rest of the lines were not looked at, and the next import adds them (ADR 0076).
   */
  partial: boolean;
}

/** Malformed lines kept in a report; past this only the count grows. */
export const MAX_REPORTED_MALFORMED = 200;

export function emptyReport(format: string): ImportReport {
  return {
    format,
    files: 0,
    sessionsUpdated: 0,
    rowsAdded: 0,
    rowsAlreadyPresent: 0,
    rowsWaiting: 0,
    childrenReattached: 0,
    unknownLines: 0,
    unknownLineTypes: {},
    invalidUtf8Lines: 0,
    linesMerged: { repeatedInFile: 0, inSeveralFiles: 0, keyReused: 0 },
    malformed: [],
    malformedCount: 0,
    warnings: [],
    partial: false,
  };
}

/** Counts a line that did not become a row as it is. */
export function addNote(report: ImportReport, note: LineNote): void {
  if (note.kind === "unknown") {
    report.unknownLines += 1;
    const lineType = note.lineType ?? "(unnamed)";
    report.unknownLineTypes[lineType] = (report.unknownLineTypes[lineType] ?? 0) + 1;
  } else if (note.kind === "invalid-utf8") report.invalidUtf8Lines += 1;
  else {
    report.malformedCount += 1;
    if (report.malformed.length < MAX_REPORTED_MALFORMED)
      report.malformed.push({ file: note.file, line: note.line, message: note.message });
  }
}

/**
 * @example formatReport(report) // "Imported 120 rows into 3 sessions from 2 files (...)"
 */
export function formatReport(report: ImportReport): string {
  const counts = [
    `${report.rowsAlreadyPresent} already present`,
    ...(report.rowsWaiting > 0
      ? [`${report.rowsWaiting} waiting for the transcript to go on (a tool result, a summary or the first reply)`]
      : []),
    ...(report.childrenReattached > 0
      ? [`${report.childrenReattached} sub-agent sessions attached to their parents`]
      : []),
    `${report.unknownLines} unknown lines${report.unknownLines === 0 ? "" : ` kept as raw rows (${unknownTypesText(report.unknownLineTypes)})`}`,
    `${report.malformedCount} malformed`,
    ...(report.invalidUtf8Lines > 0 ? [`${report.invalidUtf8Lines} lines with invalid UTF-8`] : []),
    ...mergedText(report.linesMerged),
  ];
  const lines = [
    `Imported ${report.rowsAdded} rows into ${report.sessionsUpdated} sessions from ${report.files} ${report.format} files (${counts.join(", ")}).`,
  ];
  for (const entry of report.malformed) lines.push(`malformed: ${entry.file}:${entry.line}: ${entry.message}`);
  if (report.malformedCount > report.malformed.length)
    lines.push(`malformed: ${report.malformedCount - report.malformed.length} more not shown`);
  if (report.partial) lines.push("partial: the import stopped at its deadline; the next import adds the rest.");
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  return lines.join("\n");
}

/**
 * Merges worth a word: repeats and reused uuids (the same line in several files is the ordinary
 * union, left to `--json`).
 */
function mergedText({ repeatedInFile, keyReused }: MergeCounts): string[] {
  return [
    ...(repeatedInFile > 0 ? [`${repeatedInFile} repeated lines kept once`] : []),
    ...(keyReused > 0 ? [`${keyReused} lines reusing another line's uuid kept as rows of their own`] : []),
  ];
}

/** Adds one session's merge counts to the report. */
export function addMergeCounts(report: ImportReport, counts: MergeCounts): void {
  report.linesMerged.repeatedInFile += counts.repeatedInFile;
  report.linesMerged.inSeveralFiles += counts.inSeveralFiles;
  report.linesMerged.keyReused += counts.keyReused;
}

function unknownTypesText(types: Record<string, number>): string {
  return Object.entries(types)
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([type, count]) => `${type}: ${count}`)
    .join(", ");
}
