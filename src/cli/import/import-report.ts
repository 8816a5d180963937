/**
 * What an import did, as counts plus the lines it could not use (file:line), for the summary
 * line and `--json`.
 */

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
  /** Lines of a type the importer does not know: counted, never fatal. */
  unknownLines: number;
  malformed: MalformedLine[];
  /** Problems that skipped a whole session or file, one sentence each. */
  warnings: string[];
}

/** Malformed lines kept in a report; past this only the count grows. */
export const MAX_REPORTED_MALFORMED = 200;

export function emptyReport(format: string): ImportReport & { malformedCount: number } {
  return { format, files: 0, sessionsUpdated: 0, rowsAdded: 0, rowsAlreadyPresent: 0, unknownLines: 0, malformed: [], malformedCount: 0, warnings: [] };
}

/**
 * @example formatReport(report) // "Imported 120 rows into 3 sessions from 2 files (...)"
 */
export function formatReport(report: ImportReport & { malformedCount: number }): string {
  const lines = [
    `Imported ${report.rowsAdded} rows into ${report.sessionsUpdated} sessions from ${report.files} ${report.format} files` +
      ` (${report.rowsAlreadyPresent} already present, ${report.unknownLines} unknown lines skipped, ${report.malformedCount} malformed).`,
  ];
  for (const entry of report.malformed) lines.push(`malformed: ${entry.file}:${entry.line}: ${entry.message}`);
  if (report.malformedCount > report.malformed.length) lines.push(`malformed: ${report.malformedCount - report.malformed.length} more not shown`);
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  return lines.join("\n");
}
