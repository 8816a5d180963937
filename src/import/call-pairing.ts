/**
 * Source transcripts store a tool call and its result on separate lines; ctxwin stores them as one
 * row part. Rows wait here, in source order, until every call they hold has its result, so the
 * call row is stored whole and rows never leave out of order. A call stops waiting when its result
 * comes, when the user's next prompt shows the call will never get one (the agent was stopped), or
 * when the source is settled (no longer written). Until then an import holds the row back and the
 * next import adds it whole: a transcript imported while it grows gives the rows of one import of
 * the finished file.
 */
import type { BuiltRow, Json, LineNote, SourceRow } from "./source-format.js";
import { rawLineRow, toolPart } from "./transcript-rows.js";

interface WaitingRow {
  row: SourceRow;
  file: string;
  line: number;
  /** Tool calls of this row still waiting for their result. */
  waiting: Set<string>;
  /** The row leaves only once the source is settled (see `push`). */
  untilSettled: boolean;
}

/**
 * @example
 * const rows = new CallPairing();
 * rows.push(callRow, { file, line: 3 }, ["call_1"]);
 * rows.resolve({ callId: "call_1", output: "ok", isError: false }); // true: paired into callRow
 * const ready = rows.drain({ settled: false });
 */
export class CallPairing {
  private readonly queue: WaitingRow[] = [];
  private readonly calls = new Map<string, { waiting: WaitingRow; partIndex: number }>();

  /**
   * Queues a row; the ids in `callIds` are calls of its parts that wait for a result. With
   * `untilSettled`, the row (a result whose call is not in the lines read, a compaction summary
   * without its boundary) waits until the source is settled: another file may still bring the
   * line that completes it.
   */
  push(
    row: SourceRow,
    at: { file: string; line: number },
    callIds: Iterable<string> = [],
    { untilSettled = false }: { untilSettled?: boolean } = {},
  ): void {
    const waiting: WaitingRow = { row, ...at, waiting: new Set(callIds), untilSettled };
    this.queue.push(waiting);
    row.parts.forEach((part, partIndex) => {
      const callId = part.type === "dynamic-tool" ? (part as { toolCallId: string }).toolCallId : undefined;
      if (callId !== undefined && waiting.waiting.has(callId)) this.calls.set(callId, { waiting, partIndex });
    });
  }

  /** Puts a row before every queued row (the session's header, once its title is known). */
  unshift(row: SourceRow, at: { file: string; line: number }): void {
    this.queue.unshift({ row, ...at, waiting: new Set(), untilSettled: false });
  }

  /**
   * Pairs a result with its queued call; false when no queued call waits for this id (an orphan).
   * `childSession`: the sub-agent session the call started; the call's row lists it in
   * `metadata.childSessions` (ADR 0067).
   */
  resolve(
    { callId, output, isError }: { callId: string; output: string; isError: boolean },
    { childSession }: { childSession?: string | undefined } = {},
  ): boolean {
    const call = this.calls.get(callId);
    if (call === undefined) return false;
    const row = call.waiting.row;
    const part = row.parts[call.partIndex] as { toolName: string; input: unknown };
    row.parts[call.partIndex] = toolPart({
      toolName: part.toolName,
      toolCallId: callId,
      input: part.input,
      output,
      isError,
    });
    if (childSession !== undefined) {
      const metadata = (row.metadata ?? {}) as Record<string, unknown>;
      const children = Array.isArray(metadata["childSessions"]) ? (metadata["childSessions"] as string[]) : [];
      if (!children.includes(childSession)) row.metadata = { ...metadata, childSessions: [...children, childSession] };
    }
    call.waiting.waiting.delete(callId);
    this.calls.delete(callId);
    return true;
  }

  /** The tool name of a queued call still waiting for its result. */
  toolNameOf(callId: string): string | undefined {
    const call = this.calls.get(callId);
    return call === undefined ? undefined : (call.waiting.row.parts[call.partIndex] as { toolName?: string }).toolName;
  }

  /** Every waiting call is final without a result: the user moved on (a later result is an orphan). */
  abandonOpenCalls(): void {
    for (const { waiting } of this.calls.values()) waiting.waiting.clear();
    this.calls.clear();
  }

  /** Rows ready to leave, from the front; `settled`: every queued row (the source is finished). */
  drain({ settled }: { settled: boolean }): BuiltRow[] {
    const ready: BuiltRow[] = [];
    while (this.queue.length > 0) {
      const front = this.queue[0]!;
      if (!settled && (front.waiting.size > 0 || front.untilSettled)) break;
      this.queue.shift();
      ready.push({ row: front.row, file: front.file, line: front.line });
    }
    if (settled) this.calls.clear();
    return ready;
  }

  /** Rows still queued (held back). */
  get size(): number {
    return this.queue.length;
  }
}

/**
 * What an importer does with a line it does not know: counts it in `notes`, and queues it whole
 * as a raw row (ADR 0066).
 *
 * @example
 * const keepRaw = rawLineKeeper("codex", queue, notes);
 * keepRaw(id, value, "response_item:web_search_call", { file, line }, createdAt);
 */
export function rawLineKeeper(source: "claude-code" | "codex", queue: CallPairing, notes: LineNote[]) {
  return (id: string, value: Json, lineType: string, at: { file: string; line: number }, createdAt?: string): void => {
    notes.push({ kind: "unknown", ...at, lineType });
    queue.push(rawLineRow({ id, createdAt, source, lineType, value }), at);
  };
}
