/**
 * Both importers bound every value of a row (ADR 0048): text, reasoning (Claude Code thinking,
 * Codex reasoning summaries) and tool outputs are cut like text; a string tool input too; another
 * input whose JSON is too long becomes `{ truncated_json, total_chars }`.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { StoredRow } from "../store/port.js";
import { importFiles } from "./import-files.js";
import { scratchStores } from "./test-support/scratch-stores.js";
import { MAX_IMPORTED_TEXT_CHARS, cutInput, cutText } from "./transcript-rows.js";

const { temporaryDirectory, openScratchStore } = scratchStores("ctxwin-huge-import-");
const HUGE = 3_000_000;
const huge = (head: string) => `${head} ${"x".repeat(HUGE)}`;

function writeLines(name: string, lines: unknown[]): string {
  const file = path.join(temporaryDirectory(), name);
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return file;
}

function partsOf(rows: StoredRow[]): Record<string, unknown>[] {
  return rows.flatMap((row) => row.parts) as Record<string, unknown>[];
}

describe("cutInput", () => {
  it("keeps an input up to the bound, cuts a string like text, and replaces longer JSON by its beginning and length", () => {
    const fits = { content: "y".repeat(MAX_IMPORTED_TEXT_CHARS - 20) };
    expect(cutInput(fits)).toBe(fits);
    expect(cutInput(huge("head"))).toBe(cutText(huge("head")));
    const json = JSON.stringify({ content: huge("head") });
    expect(cutInput({ content: huge("head") })).toEqual({
      truncated_json: json.slice(0, MAX_IMPORTED_TEXT_CHARS),
      total_chars: json.length,
    });
    expect(cutInput({ content: `${"y".repeat(MAX_IMPORTED_TEXT_CHARS - 13)}😀` })).toEqual({
      truncated_json: `{"content":"${"y".repeat(MAX_IMPORTED_TEXT_CHARS - 13)}`,
      total_chars: MAX_IMPORTED_TEXT_CHARS + 3,
    });
  });
});

describe("importing huge values", () => {
  it("claude-code: thinking is cut like text, a huge tool input becomes its JSON's beginning and length", async () => {
    const base = { sessionId: "big-1", cwd: "/home/dev/big", timestamp: "2026-11-02T09:00:00.000Z" };
    const file = writeLines("big-1.jsonl", [
      { ...base, type: "user", uuid: "u-1", message: { role: "user", content: "Write the big file." } },
      {
        ...base,
        type: "assistant",
        uuid: "u-2",
        message: { role: "assistant", content: [{ type: "thinking", thinking: huge("ponder") }] },
      },
      {
        ...base,
        type: "assistant",
        uuid: "u-3",
        message: {
          role: "assistant",
          content: [
            { type: "tool_use", id: "toolu_1", name: "Write", input: { file_path: "big.txt", content: huge("body") } },
          ],
        },
      },
      {
        ...base,
        type: "user",
        uuid: "u-4",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "written" }] },
      },
    ]);
    const store = openScratchStore();
    expect(await importFiles({ store, format: "claude-code", paths: [file] })).toMatchObject({
      sessionsUpdated: 1,
      malformedCount: 0,
    });
    const parts = partsOf((await store.items("claude-code:big-1", { includeCleared: true })).rows);
    const reasoning = parts.find((part) => part["type"] === "reasoning");
    expect(reasoning?.["text"] === cutText(huge("ponder"))).toBe(true);
    const tool = parts.find((part) => part["type"] === "dynamic-tool");
    expect(tool).toMatchObject({
      toolName: "Write",
      state: "output-available",
      output: "written",
      input: { total_chars: JSON.stringify({ file_path: "big.txt", content: huge("body") }).length },
    });
    expect(String((tool?.["input"] as { truncated_json: string }).truncated_json)).toMatch(
      /^\{"file_path":"big.txt","content":"body x+$/,
    );
    expect((await store.search("claude-code:big-1", { query: "body", mode: "ranked" })).hits).toHaveLength(1);
  });

  it("codex: reasoning summaries are cut like text, a string input too, and huge arguments become their JSON's beginning and length", async () => {
    const line = (payload: Record<string, unknown>) => ({
      timestamp: "2026-11-03T14:00:00.000Z",
      type: "response_item",
      payload,
    });
    const file = writeLines("rollout-2026-11-03T14-00-00-big-2.jsonl", [
      { timestamp: "2026-11-03T14:00:00.000Z", type: "session_meta", payload: { id: "big-2", cwd: "/home/dev/big" } },
      line({ type: "message", role: "user", content: [{ type: "input_text", text: "Patch everything." }] }),
      line({ type: "reasoning", summary: [{ type: "summary_text", text: huge("ponder") }] }),
      line({ type: "custom_tool_call", call_id: "c1", name: "apply_patch", input: huge("patch") }),
      line({ type: "custom_tool_call_output", call_id: "c1", output: "done" }),
      line({
        type: "function_call",
        call_id: "c2",
        name: "write",
        arguments: JSON.stringify({ content: huge("args") }),
      }),
      line({ type: "function_call_output", call_id: "c2", output: "ok" }),
    ]);
    const store = openScratchStore();
    expect(await importFiles({ store, format: "codex", paths: [file] })).toMatchObject({
      sessionsUpdated: 1,
      malformedCount: 0,
    });
    const parts = partsOf((await store.items("codex:big-2", { includeCleared: true })).rows);
    expect(parts.find((part) => part["type"] === "reasoning")?.["text"] === cutText(huge("ponder"))).toBe(true);
    const [patch, write] = parts.filter((part) => part["type"] === "dynamic-tool");
    expect(patch?.["input"] === cutText(huge("patch"))).toBe(true);
    expect(write?.["input"]).toMatchObject({ total_chars: JSON.stringify({ content: huge("args") }).length });
    expect((write?.["input"] as { truncated_json: string }).truncated_json.length).toBe(MAX_IMPORTED_TEXT_CHARS);
  });
});
