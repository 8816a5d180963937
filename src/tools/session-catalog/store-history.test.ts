/**
 * The store-wide `session_history` (what `ctxwin mcp` serves), called directly: integers written
 * as text, the label of every answer (an MCP client is not "this session"), and the wording of
 * the refusals it adds to the single-session tool.
 */
import { describe, expect, it } from "vitest";
import { HISTORY_LABEL, STORE_HISTORY_LABEL } from "../../core/history-view/limits.js";
import { openStore } from "../../store/open-store.js";
import { reply, text } from "../../store/test-support/conformance-rows.js";
import { createStoreHistory } from "./store-history.js";

async function storeHistory() {
  const store = openStore({ backend: "memory" });
  for (const sessionId of ["alpha", "beta", "gamma"]) {
    await store.append(sessionId, [
      text(`${sessionId} asks about the deploy`),
      reply(`${sessionId} answers: deploy on friday`),
      text(`${sessionId} thanks`),
    ]);
  }
  return createStoreHistory({ store, projectDirectory: "/work/app" });
}

type Answer = { label: string; ok: boolean; error?: { code: string; message: string }; [key: string]: unknown };

describe("store-wide session_history", () => {
  it("reads a canonical decimal string wherever an integer is expected, its own fields and the session's", async () => {
    const history = await storeHistory();
    const call = async (input: unknown) => (await history.execute(input)) as unknown as Answer;
    const listed = await call({ action: "list_sessions", limit: "1", session_offset: "1" });
    expect(listed).toMatchObject({ ok: true, sessions_total: 3, next: { session_offset: 2 } });
    expect(listed["sessions"]).toHaveLength(1);
    const across = await call({ action: "search", query: "deploy", limit: "2", session_offset: "1" });
    expect(across).toMatchObject({ ok: true, scope: "all_sessions" });
    expect((across["results"] as unknown[]).length).toBeGreaterThan(0);
    const items = await call({ action: "list_items", session_id: "beta", limit: "2", max_item_chars: "20" });
    expect((items["items"] as unknown[]).length).toBe(2);
    const page = await call({
      action: "read_item",
      session_id: "beta",
      item_id: "2",
      offset_chars: "0",
      limit_chars: "4",
    });
    expect(page).toMatchObject({ ok: true, text: "beta" });

    for (const bad of ["1.5", "1e1", "", " 1", "+1", "01", "-1"]) {
      const offset = await call({ action: "list_sessions", session_offset: bad });
      expect(offset.error).toEqual({
        code: "invalid_input",
        message: `Invalid input: session_offset must be an integer from 0 to 1000000; got ${JSON.stringify(bad)}.`,
      });
      const limit = await call({ action: "list_sessions", limit: bad });
      expect(limit.error).toEqual({
        code: "invalid_input",
        message: `Invalid input: limit must be an integer from 1 to 50; got ${JSON.stringify(bad)}.`,
      });
    }
    expect((await call({ action: "list_sessions", limit: "51" })).error?.message).toBe(
      'Invalid input: limit must be an integer from 1 to 50; got "51".',
    );
  });

  it("labels every answer as data from the sessions the store keeps, never as this session's own history", async () => {
    const history = await storeHistory();
    const inputs: unknown[] = [
      { action: "list_sessions" },
      { action: "search", query: "deploy" },
      { action: "list_windows", session_id: "alpha" },
      { action: "list_items", session_id: "alpha" },
      { action: "search", session_id: "alpha", query: "deploy" },
      { action: "read_item", session_id: "alpha", item_id: "1" },
      { action: "read_item", session_id: "alpha", item_id: "99" },
      { action: "read_item", session_id: "alpha", item_id: "1", limit_chars: "lots" },
      { action: "search", session_id: "alpha", query: "" },
      { action: "list_windows", session_id: "nobody" },
      { action: "list_windows" },
    ];
    for (const input of inputs) {
      const answer = (await history.execute(input)) as unknown as Answer;
      expect(answer.label, JSON.stringify(input)).toBe(STORE_HISTORY_LABEL);
    }
    expect(STORE_HISTORY_LABEL).not.toMatch(/this session/);
    expect(HISTORY_LABEL).toMatch(/this session/);
  });

  it("says which filters apply where, in one grammatical sentence", async () => {
    const history = await storeHistory();
    const refusals: [input: Record<string, unknown>, message: string][] = [
      [
        { action: "list_items", session_id: "alpha", project: "/work" },
        "Invalid input: project applies to list_sessions and to search without session_id; " +
          "leave it out when session_id is given.",
      ],
      [
        { action: "search", session_id: "alpha", query: "x", source: "codex", session_offset: 2 },
        "Invalid input: source and session_offset apply to list_sessions and to search without session_id; " +
          "leave them out when session_id is given.",
      ],
      [
        { action: "search", query: "x", window_id: "w:0" },
        "Invalid input: window_id works within one session only; give session_id too.",
      ],
      // offset pages cross-session hits (ADR 0089); before_item stays within one session.
      [
        { action: "search", query: "x", mode: "ranked", before_item: "3", offset: 2 },
        "Invalid input: before_item works within one session only; give session_id too.",
      ],
    ];
    for (const [input, message] of refusals) {
      const answer = (await history.execute(input)) as unknown as Answer;
      expect(answer.error?.message, JSON.stringify(input)).toBe(message);
    }
    // Hybrid across sessions is the one query too (ADR 0105): it pages by hit, and session_offset is ignored.
    const hybrid = (await history.execute({
      action: "search",
      query: "x",
      mode: "hybrid",
      offset: 2,
      session_offset: 5,
    })) as unknown as Answer & { ok: boolean; mode: string };
    expect(hybrid).toMatchObject({ ok: true, mode: "hybrid" });
  });
});
