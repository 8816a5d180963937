/**
 * Source transcripts store a tool call and its result on separate lines; ctxwin stores them as one
 * row part. Rows wait here, in source order, until every call they hold has its result (or the
 * source ends), so the call row is stored whole and rows never leave out of order.
 */
import type { SourceItem, SourceRow } from "./import-rows.js";
import { toolPart } from "./transcript-rows.js";

interface WaitingRow {
  row: SourceRow;
  line: number;
  /** Tool calls of this row still waiting for their result. */
  waiting: Set<string>;
}

/**
 * @example
 * const rows = new CallPairing();
 * rows.push(callRow, 3, ["call_1"]);
 * rows.resolve({ callId: "call_1", output: "ok", isError: false }); // true: paired into callRow
 * for (const item of rows.drain({ sessionId, file, all: false })) yield item;
 */
export class CallPairing {
  private readonly queue: WaitingRow[] = [];
  private readonly calls = new Map<string, { waiting: WaitingRow; partIndex: number }>();

  /** Queues a row; the ids in `callIds` are calls of its parts that wait for a result. */
  push(row: SourceRow, line: number, callIds: Iterable<string> = []): void {
    const waiting: WaitingRow = { row, line, waiting: new Set(callIds) };
    this.queue.push(waiting);
    row.parts.forEach((part, partIndex) => {
      const callId = part.type === "dynamic-tool" ? (part as { toolCallId: string }).toolCallId : undefined;
      if (callId !== undefined && waiting.waiting.has(callId)) this.calls.set(callId, { waiting, partIndex });
    });
  }

  /** Puts a row before every queued row (the session's header, once its title is known). */
  unshift(row: SourceRow, line: number): void {
    this.queue.unshift({ row, line, waiting: new Set() });
  }

  /** Pairs a result with its queued call; false when no queued call has this id (an orphan). */
  resolve({ callId, output, isError }: { callId: string; output: string; isError: boolean }): boolean {
    const call = this.calls.get(callId);
    if (call === undefined) return false;
    const part = call.waiting.row.parts[call.partIndex] as { toolName: string; input: unknown };
    call.waiting.row.parts[call.partIndex] = toolPart({ toolName: part.toolName, toolCallId: callId, input: part.input, output, isError });
    call.waiting.waiting.delete(callId);
    this.calls.delete(callId);
    return true;
  }

  /** Rows whose calls are all paired, from the front; with `all`, every queued row (the source ended). */
  *drain({ sessionId, file, all }: { sessionId: string; file: string; all: boolean }): Generator<SourceItem> {
    while (this.queue.length > 0 && (all || this.queue[0]!.waiting.size === 0)) {
      const next = this.queue.shift()!;
      yield { kind: "row", sessionId, row: next.row, file, line: next.line };
    }
  }
}
