/**
 * Calls the tool the way the AI SDK does: validate the input with the tool's own input schema,
 * then run `execute(input, { toolCallId, messages })`. Also checks the result's promises that hold
 * for every call: valid JSON of at most 16 KiB, carrying the history label. Test-only.
 */
import { asSchema, type Tool } from "ai";
import { expect } from "vitest";
import { utf8ByteLength } from "../../../core/code-units.js";
import { HISTORY_LABEL, MAX_RESULT_BYTES } from "../../../core/history-view/limits.js";
import type { SessionHistoryRawInput } from "../input-schema.js";
import type { SessionHistoryResult } from "../results.js";

let callCounter = 0;

export async function callTool(
  historyTool: Tool<SessionHistoryRawInput, SessionHistoryResult>,
  input: unknown,
): Promise<SessionHistoryResult> {
  const schema = asSchema(historyTool.inputSchema);
  const validation = await schema.validate!(input);
  if (!validation.success)
    throw new Error(`the tool's input schema refused ${JSON.stringify(input)}: ${String(validation.error)}`);
  const execute = historyTool.execute;
  if (execute === undefined) throw new Error("session_history has no execute");
  const result = (await execute(validation.value, {
    toolCallId: `call-${(callCounter += 1)}`,
    messages: [],
    context: {},
  })) as SessionHistoryResult;
  const json = JSON.stringify(result);
  expect(utf8ByteLength(json)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
  expect(JSON.parse(json)).toEqual(result);
  expect(result.label).toBe(HISTORY_LABEL);
  return result;
}

/** Narrows a result to a successful one of the given action, failing the test otherwise. */
export function expectOk<Action extends SessionHistoryResult["action"]>(
  result: SessionHistoryResult,
  action: Action,
): Extract<SessionHistoryResult, { ok: true; action: Action }> {
  if (!result.ok)
    throw new Error(`expected ${String(action)} to succeed, got ${result.error.code}: ${result.error.message}`);
  expect(result.action).toBe(action);
  return result as Extract<SessionHistoryResult, { ok: true; action: Action }>;
}

export function expectError(result: SessionHistoryResult, code: string): Extract<SessionHistoryResult, { ok: false }> {
  if (result.ok) throw new Error(`expected error ${code}, got a successful ${result.action} result`);
  expect(result.error.code).toBe(code);
  return result;
}
