/**
 * What the demo report counts, from the stored step rows as they arrive: only tool calls that
 * succeeded (a refused read is not a file read), files read again in a later window than their
 * first read, and the largest request by the model's count and by ctxwin's own estimate.
 */
import { readStepMetadata } from "../../core/rollover/step-usage.js";
import { toolNameOf } from "../../core/row-text.js";
import type { RowPart } from "../../core/row.js";

export interface DemoToolCall {
  toolName: string;
  input: Record<string, unknown>;
}

/**
 * Whether a stored tool call succeeded: it has a result, and the result is no refusal. The
 * workspace and memory tools refuse with a text starting `Error`; `session_history` with
 * `ok: false`; `new_context` with `status: "refused"`.
 *
 * @example
 * toolCallSucceeded({ type: "tool-read_file", state: "output-available", output: "Error: no such file" }) // false
 */
export function toolCallSucceeded(part: { state?: unknown; output?: unknown }): boolean {
  if (part.state !== "output-available") return false;
  const output = part.output;
  if (typeof output === "string") return !output.startsWith("Error");
  if (typeof output === "object" && output !== null) {
    const record = output as Record<string, unknown>;
    return record["ok"] !== false && record["status"] !== "refused" && record["status"] !== "error";
  }
  return true;
}

/**
 * The successful tool calls of a step row, in order.
 *
 * @example
 * for (const call of succeededCalls(row.parts)) console.log(call.toolName);
 */
export function succeededCalls(parts: readonly RowPart[]): DemoToolCall[] {
  const calls: DemoToolCall[] = [];
  for (const part of parts as ReadonlyArray<{ type: string; state?: unknown; output?: unknown; input?: unknown }>) {
    const toolName = toolNameOf(part);
    if (toolName === undefined || !toolCallSucceeded(part)) continue;
    const input = typeof part.input === "object" && part.input !== null ? (part.input as Record<string, unknown>) : {};
    calls.push({ toolName, input });
  }
  return calls;
}

/**
 * Counts of one demo run.
 *
 * @example
 * const tally = createDemoTally();
 * tally.windowOpened("w:14");
 * tally.fileRead("README.md"); // true when it was read in an earlier window already
 */
export function createDemoTally() {
  let windowId = "w:0";
  const firstReadIn = new Map<string, string>();
  const readOrder: string[] = [];
  const reReads: string[] = [];
  const peak = { modelCount: 0, estimate: 0 };
  return {
    windowOpened(next: string): void {
      windowId = next;
    },
    /** Records a successful read; `true` when the file had been read in an earlier window. */
    fileRead(path: string): boolean {
      const first = firstReadIn.get(path);
      if (first === undefined) {
        firstReadIn.set(path, windowId);
        readOrder.push(path);
        return false;
      }
      if (first === windowId) return false;
      reReads.push(path);
      return true;
    },
    /** The engine's checked estimate of the request a stored step answered. */
    stepStored(row: { metadata?: unknown }): void {
      const estimate = readStepMetadata(row)?.checkedInputTokens;
      if (estimate !== undefined) peak.estimate = Math.max(peak.estimate, estimate);
    },
    requestCounted(inputTokens: number): void {
      peak.modelCount = Math.max(peak.modelCount, inputTokens);
    },
    /** Distinct files read successfully, in the order of their first read. */
    get readOrder(): readonly string[] {
      return readOrder;
    },
    /** Files read again after a rollover, once per re-read. */
    get reReads(): readonly string[] {
      return reReads;
    },
    get peak(): { modelCount: number; estimate: number } {
      return { ...peak };
    },
  };
}
