/**
 * Where an edit forks: before the edited message and before what ctxwin appended with it (a
 * warning in front of it, or the boundary and lead-in of the rollover it triggered).
 */
import { describe, expect, it } from "vitest";
import { budgetWarningRow } from "../../core/rollover/notice-rows.js";
import { rejectedInputRow } from "../../core/rollover/notice-rows.js";
import { rolloverTransactionRows, userInputRow } from "../../core/rollover/rollover-rows.js";
import type { RowInput } from "../../core/row.js";
import { memoryStore } from "../test-support/session-fixture.js";
import { editPointOf } from "./edit-point.js";

const user = (text: string): RowInput => userInputRow({ parts: [{ type: "text", text }] });
const assistant = (text: string): RowInput => ({ role: "assistant", parts: [{ type: "text", text }] });

describe("editPointOf", () => {
  it("forks just before a plain message", async () => {
    const store = memoryStore();
    await store.append("s", [user("one"), assistant("a"), user("two")]);
    expect((await editPointOf({ store, sessionId: "s", itemId: "3" })).atSeq).toBe(2);
  });

  it("forks before a budget warning that was appended in front of the message", async () => {
    const store = memoryStore();
    await store.append("s", [user("one"), assistant("a")]);
    await store.append("s", [
      budgetWarningRow({ text: "[Context budget] ...", windowId: "w:0", contextTokens: 10, maxTokens: 20 }),
      user("two"),
    ]);
    expect(await editPointOf({ store, sessionId: "s", itemId: "4" })).toMatchObject({ itemSeq: 4, atSeq: 2 });
  });

  it("forks before the rollover the message triggered (boundary, lead-in, message)", async () => {
    const store = memoryStore();
    await store.append("s", [user("one"), assistant("a")]);
    await store.append(
      "s",
      rolloverTransactionRows({
        rolloverId: "r1",
        reason: "on-send",
        previousWindowId: "w:0",
        flushOpportunity: true,
        contextTokens: 10,
        maxTokens: 20,
        windowId: "w:3",
        trigger: user("two"),
      }),
    );
    expect(await editPointOf({ store, sessionId: "s", itemId: "5" })).toMatchObject({ itemSeq: 5, atSeq: 2 });
  });

  it("a rejected input is a message the user typed: it can be edited", async () => {
    const store = memoryStore();
    await store.append("s", [
      user("one"),
      assistant("a"),
      rejectedInputRow({
        parts: [{ type: "text", text: "huge" }],
        reason: "too large",
        estimatedTokens: 9,
        hardCeiling: 5,
      }),
    ]);
    expect(await editPointOf({ store, sessionId: "s", itemId: "3" })).toMatchObject({
      atSeq: 2,
      row: { meta: { type: "rejected-input" } },
    });
  });
});
