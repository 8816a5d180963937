import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderRowText } from "../../core/row-text.js";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import { sessionHistoryTool } from "./session-history-tool.js";
import { backends, storePerTest, type OpenedStore } from "./test-support/backends.js";
import { callTool, expectError, expectOk } from "./test-support/call-tool.js";
import * as rows from "./test-support/history-rows.js";
import { seedMixedHistory } from "./test-support/mixed-history.js";

/** Tool output of about `size` characters: log lines with quotes, control characters, CJK and emoji. */
function logOutput(size: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let index = 0; length < size; index += 1) {
    const line =
      index % 97 === 0
        ? `${index}\t"quoted" \u0001 字字 😀😀 end`
        : `${index} INFO request handled in ${index % 250} ms path=/api/orders/${index}`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n");
}

/** Reads an item page after page through `next`, checking each page, and returns the pages. */
async function readEveryPage(
  historyTool: ReturnType<typeof sessionHistoryTool>,
  seq: number,
  rendered: string,
): Promise<string[]> {
  const pages: string[] = [];
  let offset = 0;
  for (let call = 0; call < 2_000; call += 1) {
    const page = expectOk(
      await callTool(historyTool, {
        action: "read_item",
        item_id: String(seq),
        offset_chars: offset,
        limit_chars: 16_000,
      }),
      "read_item",
    );
    expect(page.offset_chars).toBe(offset);
    expect(page.total_chars).toBe(rendered.length);
    expect(page.text.length).toBeGreaterThan(0);
    expect(page.text.length).toBeLessThanOrEqual(16_000);
    expect(page.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    pages.push(page.text);
    if (!page.has_more) {
      expect(page).toMatchObject({ next_offset_chars: null, next: null });
      break;
    }
    expect(page.next).toEqual({ offset_chars: page.next_offset_chars });
    offset = page.next_offset_chars!;
  }
  expect(pages.join("")).toBe(rendered);
  return pages;
}

describe.each(backends)("session_history read_item ($name)", (backend) => {
  let store: HistoryStore;
  storePerTest(backend, (opened) => (store = opened));

  it("pages a multi-page tool output so that the pages concatenate to exactly the rendered item", async () => {
    const [row] = await store.append("s1", [
      rows.toolCall({ name: "run_tests", input: { filter: "orders" }, output: logOutput(300 * 1024) }),
    ]);
    const pages = await readEveryPage(sessionHistoryTool({ store, sessionId: "s1" }), row!.seq, renderRowText(row!));
    expect(pages.length).toBeGreaterThan(15);
  });

  it("reads with default paging and shortens a page to keep the result within 16 KiB", async () => {
    const [row] = await store.append("s1", [rows.assistantText("字".repeat(20_000))]);
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const defaults = expectOk(
      await callTool(historyTool, { action: "read_item", item_id: String(row!.seq) }),
      "read_item",
    );
    // 8000 CJK characters are 24 000 bytes: the page is cut to fit.
    expect(defaults.text.length).toBeLessThan(8_000);
    expect(defaults.text.length).toBeGreaterThan(5_000);
    expect(defaults).toMatchObject({ offset_chars: 0, has_more: true, next_offset_chars: defaults.text.length });
  });

  it("moves an offset that splits a surrogate pair back to the start of the pair", async () => {
    const [row] = await store.append("s1", [rows.userText("a😀b")]);
    const page = expectOk(
      await callTool(sessionHistoryTool({ store, sessionId: "s1" }), {
        action: "read_item",
        item_id: row!.seq,
        offset_chars: 2,
      }),
      "read_item",
    );
    expect(page).toMatchObject({ offset_chars: 1, text: "😀b", has_more: false });
  });

  it("renders tool calls compactly and drops reasoning", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const legacy = expectOk(
      await callTool(historyTool, { action: "read_item", item_id: String(seq.legacyMixed) }),
      "read_item",
    );
    expect(legacy.text).toBe(
      'Old-style assistant row about the backfill\n[source: https://example.com/doc]\n[image]\ngrep({"pattern":"TODO"}) → (no result)',
    );
    expect(legacy.window_id).toBe("w:14");
    const history = expectOk(
      await callTool(historyTool, { action: "read_item", item_id: String(seq.historyCall) }),
      "read_item",
    );
    expect(history.text).toBe('session_history({"action":"search","query":"secret"}) → [history result omitted]');
  });

  it("refuses hidden, rejected, boundary and unknown items alike, without their content", async () => {
    const { seq } = await seedMixedHistory(store, "s1");
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    for (const itemId of [seq.leadIn1, seq.continue2, seq.rejected, seq.rollover1, seq.rollover2, 999, 10 ** 15]) {
      const result = expectError(
        await callTool(historyTool, { action: "read_item", item_id: String(itemId) }),
        "item_not_available",
      );
      expect(JSON.stringify(result)).not.toMatch(/marker/);
    }
  });

  it("answers bad ids, offsets and limits with error results", async () => {
    const [row] = await store.append("s1", [rows.userText("short item")]);
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const cases: [Record<string, unknown>, string][] = [
      [{ action: "read_item" }, "invalid_input"],
      [{ action: "read_item", item_id: "0" }, "invalid_input"],
      [{ action: "read_item", item_id: "-1" }, "invalid_input"],
      [{ action: "read_item", item_id: "1.5" }, "invalid_input"],
      [{ action: "read_item", item_id: "w:0" }, "invalid_input"],
      [{ action: "read_item", item_id: "99999999999999999999" }, "invalid_input"],
      [{ action: "read_item", item_id: { seq: 1 } }, "invalid_input"],
      [{ action: "read_item", item_id: "1", offset_chars: -1 }, "invalid_input"],
      [{ action: "read_item", item_id: "1", offset_chars: 1e300 }, "invalid_input"],
      [{ action: "read_item", item_id: "1", offset_chars: 11 }, "offset_past_end"],
      [{ action: "read_item", item_id: "1", limit_chars: 0 }, "invalid_input"],
      [{ action: "read_item", item_id: "1", limit_chars: 16_001 }, "invalid_input"],
      [{ action: "read_item", item_id: "1", limit_chars: "08000" }, "invalid_input"],
      [{ action: "read_item", item_id: "1", limit_chars: "8000.0" }, "invalid_input"],
    ];
    for (const [input, code] of cases) expectError(await callTool(historyTool, input), code);
    const end = expectOk(
      await callTool(historyTool, { action: "read_item", item_id: String(row!.seq), offset_chars: 10 }),
      "read_item",
    );
    expect(end).toMatchObject({ text: "", has_more: false, next: null });
  });
});

describe("session_history read_item of a 5 MB item (sqlite, the default backend)", () => {
  let opened: OpenedStore;
  beforeEach(() => {
    opened = backends.find((backend) => backend.name === "sqlite")!.open();
  });
  afterEach(() => opened.close());

  // The tool instance keeps the rendered item between pages (RecentItems), so the row is read
  // and rendered once; the generous bound is for loaded machines, not a timing assertion.
  it("pages a 5 MB tool output so that the pages concatenate to exactly the rendered item", async () => {
    const [row] = await opened.store.append("s1", [
      rows.toolCall({ name: "run_tests", input: { filter: "orders" }, output: logOutput(5 * 1024 * 1024) }),
    ]);
    const rendered = renderRowText(row!);
    expect(rendered.length).toBeGreaterThan(5 * 1024 * 1024);
    const pages = await readEveryPage(sessionHistoryTool({ store: opened.store, sessionId: "s1" }), row!.seq, rendered);
    expect(pages.length).toBeGreaterThan(300);
  }, 120_000);

  it("never serves a remembered item after its session was deleted and started again", async () => {
    const tool = sessionHistoryTool({ store: opened.store, sessionId: "s1" });
    await opened.store.append("s1", [rows.userText("first life: the old secret")]);
    expect(await callTool(tool, { action: "read_item", item_id: "1" })).toMatchObject({
      ok: true,
      text: "first life: the old secret",
    });
    await opened.store.deleteSession("s1");
    await opened.store.append("s1", [rows.userText("second life")]);
    expect(await callTool(tool, { action: "read_item", item_id: "1" })).toMatchObject({
      ok: true,
      text: "second life",
    });
  });
});

describe("session_history over rows stored by other builds (sqlite)", () => {
  let directory: string;
  let store: HistoryStore;
  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-history-legacy-"));
    store = openStore({ path: path.join(directory, "ctxwin.db"), onWarning: () => undefined });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it("shows a legacy body without a format version and skips a corrupt one", async () => {
    await store.append("s1", [
      rows.userText("first"),
      rows.userText("to be made legacy"),
      rows.userText("to be corrupted"),
      rows.userText("last"),
    ]);
    const db = new Database(path.join(directory, "ctxwin.db"));
    db.prepare("UPDATE ctxwin_rows SET body = ? WHERE seq = 2").run(
      JSON.stringify({
        id: "old-2",
        role: "user",
        parts: [{ type: "text", text: "legacy body without v" }],
        createdAt: "2024-05-01T10:00:00.000Z",
        oldField: 1,
      }),
    );
    db.prepare("UPDATE ctxwin_rows SET body = ? WHERE seq = 3").run("{not json");
    db.close();
    const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
    const items = expectOk(await callTool(historyTool, { action: "list_items" }), "list_items");
    expect(items.items.map((item) => [item.item_id, item.preview])).toEqual([
      ["1", "first"],
      ["2", "legacy body without v"],
      ["4", "last"],
    ]);
    expectError(await callTool(historyTool, { action: "read_item", item_id: "3" }), "item_not_available");
    expect(expectOk(await callTool(historyTool, { action: "read_item", item_id: "2" }), "read_item").text).toBe(
      "legacy body without v",
    );
  });
});
