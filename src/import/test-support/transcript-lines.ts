/**
 * Transcript lines for the import tests, written from the formats' public shapes: a Claude Code
 * session and a Codex rollout of `exchanges` turns, each a prompt, a tool call, its result and an
 * answer, with an optional compaction. Times increase by a second per line.
 */
import { utimesSync, writeFileSync } from "node:fs";
import path from "node:path";

export const CLAUDE_SOURCE_ID = "7d1c0b2a-3e4f-4a5b-8c6d-9e0f1a2b3c4d";
export const CLAUDE_SESSION = `claude-code:${CLAUDE_SOURCE_ID}`;
export const CODEX_SOURCE_ID = "01a2b3c4-d5e6-7f80-9a1b-2c3d4e5f6a7b";
export const CODEX_SESSION = `codex:${CODEX_SOURCE_ID}`;

const START = Date.UTC(2026, 10, 20, 9, 0, 0);
const time = (index: number) => new Date(START + index * 1000).toISOString();

/** Claude Code lines (each a JSON string without its newline). */
/**
 * `extras`: also lines the importer keeps as raw rows (a `progress` line between a call and its
 * result) and the header's facts (a git branch, a model), as today's CLIs write them.
 */
export function claudeCodeLines({
  exchanges,
  compactAfter,
  sessionId = CLAUDE_SOURCE_ID,
  extras = false,
}: {
  exchanges: number;
  compactAfter?: number;
  sessionId?: string;
  extras?: boolean;
}): string[] {
  const lines: string[] = [];
  let parent: string | null = null;
  const add = (type: string, body: Record<string, unknown>) => {
    const uuid = `u-${String(lines.length).padStart(4, "0")}`;
    const facts = extras ? { gitBranch: "main", version: "2.1.197" } : {};
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        cwd: "/home/dev/app",
        sessionId,
        ...facts,
        type,
        uuid,
        timestamp: time(lines.length),
        ...body,
      }),
    );
    parent = uuid;
  };
  for (let exchange = 0; exchange < exchanges; exchange += 1) {
    const call = `toolu_${exchange}`;
    add("user", { message: { role: "user", content: `Step ${exchange}: where is the value ORCHID-${exchange} set?` } });
    add("assistant", {
      message: {
        role: "assistant",
        ...(extras ? { model: "claude-opus-4-8" } : {}),
        content: [{ type: "tool_use", id: call, name: "Grep", input: { pattern: `ORCHID-${exchange}` } }],
      },
    });
    if (extras) add("progress", { data: { type: "hook_progress", note: `grep ORCHID-${exchange} running` } });
    add("user", {
      message: {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: call, content: `src/settings.ts:${exchange + 1}: ORCHID-${exchange}` },
        ],
      },
    });
    add("assistant", {
      message: {
        role: "assistant",
        content: [{ type: "text", text: `ORCHID-${exchange} is set on line ${exchange + 1}.` }],
      },
    });
    if (compactAfter === exchange) {
      add("system", { subtype: "compact_boundary", content: "Conversation compacted" });
      add("user", { isCompactSummary: true, message: { role: "user", content: `Summary after step ${exchange}.` } });
    }
  }
  return lines;
}

/** Codex rollout lines (each a JSON string without its newline). */
/** `extras`: also turn settings naming the model, and an item type the importer keeps as a raw row. */
export function codexLines({
  exchanges,
  compactAfter,
  extras = false,
}: {
  exchanges: number;
  compactAfter?: number;
  extras?: boolean;
}): string[] {
  const lines: string[] = [];
  const add = (type: string, payload: Record<string, unknown>) =>
    lines.push(JSON.stringify({ timestamp: time(lines.length), type, payload }));
  add("session_meta", { id: CODEX_SOURCE_ID, timestamp: time(0), cwd: "/home/dev/billing" });
  for (let exchange = 0; exchange < exchanges; exchange += 1) {
    const call = `call_${exchange}`;
    if (extras) add("turn_context", { cwd: "/home/dev/billing", model: "gpt-5.1-codex" });
    add("response_item", {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: `Step ${exchange}: check invoice ${exchange}.` }],
    });
    if (extras)
      add("response_item", {
        type: "web_search_call",
        status: "completed",
        action: { query: `invoice ${exchange} rules` },
      });
    add("response_item", {
      type: "function_call",
      name: "shell",
      arguments: JSON.stringify({ command: ["cat", `invoice-${exchange}.txt`] }),
      call_id: call,
    });
    add("response_item", { type: "function_call_output", call_id: call, output: `total ${exchange}.01` });
    add("response_item", {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: `Invoice ${exchange} totals ${exchange}.01.` }],
    });
    if (compactAfter === exchange) add("compacted", { message: `Summary after step ${exchange}.` });
  }
  return lines;
}

/** Writes lines as a JSON lines file (every line ended by a newline) and returns its path. */
export function writeLines(
  folder: string,
  name: string,
  lines: readonly string[],
  { modifiedAt }: { modifiedAt?: number } = {},
): string {
  const file = path.join(folder, name);
  writeFileSync(file, lines.map((line) => `${line}\n`).join(""));
  if (modifiedAt !== undefined) utimesSync(file, modifiedAt / 1000, modifiedAt / 1000);
  return file;
}
