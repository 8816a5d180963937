/**
 * What every source format gives the import engine (import-sessions.ts): the sessions a file
 * holds, the file's lines with their identity, and the rows of one session built from its lines
 * once the lines of all its files are merged into transcript order.
 */
import type { RowInput } from "../core/row.js";

export type Json = Record<string, unknown>;

/** A row with the id the importer derived from the source (stable across runs and files). */
export type SourceRow = RowInput & { id: string };

/** One line of a source file that may become (part of) a row. */
export interface SourceLine {
  /** The line's identity across files and runs: a uuid, a row id, or a hash of the line. */
  key: string;
  /** Milliseconds since the epoch, when the line states its time; orders lines no file orders. */
  time: number | undefined;
  value: Json;
  file: string;
  line: number;
  /** The key of the line this one follows in the conversation (Claude Code's `parentUuid`), when the line names one. */
  parent?: string;
}

/** A line the report counts: not a row, never fatal. */
export type LineNote =
  /** `lineType`: what the line was (`mode`, `system:hook_output`), for the report's breakdown. */
  | { kind: "unknown"; file: string; line: number; lineType?: string }
  /** `partial`: the file's last line, not yet ended by a newline (it may still be being written). */
  | { kind: "malformed"; file: string; line: number; message: string; partial?: boolean }
  | { kind: "invalid-utf8"; file: string; line: number };

export type FileEntry = { kind: "line"; sessionId: string; line: SourceLine } | LineNote;

/** A row built from a session's lines, with the line it came from (for the report). */
export interface BuiltRow {
  row: SourceRow;
  file: string;
  line: number;
}

export interface SessionRows {
  rows: BuiltRow[];
  notes: LineNote[];
  /**
   * A sub-agent's session: its parent's session id (ADR 0067). The parent names the child in the
   * metadata of the row holding the call that started it (`childSessions`).
   */
  parentSessionId?: string;
  /**
   * Rows held back because a tool call in them (or before them) still waits for its result, or
   * a compaction for its summary, while the source is still being written: the next import adds
   * them whole.
   */
  waiting: number;
}

/** What a format builds one session's rows from. */
export interface RowsInput {
  sessionId: string;
  /** The session's lines in transcript order. */
  lines: readonly SourceLine[];
  /** The source is no longer being written: calls without results and compactions without summaries are final. */
  settled: boolean;
}

export interface SourceFormat {
  name: "ctxwin" | "claude-code" | "codex";
  /** The sessions whose lines a file holds, reading as little of it as the format allows. */
  sessionsOf(file: string): Promise<string[]>;
  /** Every line of a file, in file order, each with its session (or a note). */
  lines(file: string): AsyncGenerator<FileEntry>;
  /**
   * The rows of one session from its lines in transcript order. `settled`: the source is no
   * longer being written, so calls without results and compactions without summaries are final.
   */
  rows(input: RowsInput): SessionRows;
  /**
   * A key names one row whatever else its line holds (ctxwin exports: row ids), so lines sharing a
   * key are one line; otherwise a line reusing a key with other content is a row of its own (ADR 0079).
   */
  keysNameRows?: boolean;
  /** The form of a stored row's id this format writes today (older builds wrote other forms). */
  normalizeStoredId?(id: string): string;
}
