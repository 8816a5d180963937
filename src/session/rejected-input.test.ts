/**
 * An input rejected as too large (ADR 0069): kept with its text as typed (cut with `meta.cut` only
 * when over the store's row limit), marked as a `rejected-input` row, never sent in any later
 * request, and usable as the source of an edit.
 */
import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../store/memory/memory-store.js";
import { CEILING, budgetSession, textOfTokens } from "./test-support/rollover-setup.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import { deterministic, memoryStore, rowText } from "./test-support/session-fixture.js";
import { readAllRows } from "./test-support/session-invariants.js";

const lastLine = (text: string) => text.split("\n").at(-1);
const echoModel = () =>
  scriptedModel({ script: (call) => ({ text: `answer to ${lastLine(call.text)?.slice(0, 40)}`, inputTokens: 300 }) });
const utf8 = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe("an input rejected as too large", () => {
  it("is kept whole as a rejected-input row, never sent later, and can be edited into a new turn", async () => {
    const store = memoryStore();
    const { model, calls } = echoModel();
    const session = budgetSession({ store, model });
    await session.send("hello");
    const huge = `PASTED-LOG ${textOfTokens(CEILING * 3, "line")}`;

    const blocked = await session.send(huge);
    expect(blocked.status).toBe("blocked");
    expect(blocked.reason).toMatch(/does not fit even a fresh context window/);
    expect(calls).toHaveLength(1);
    const rejected = (await readAllRows(store, "s")).at(-1)!;
    expect(rejected).toMatchObject({ role: "user", uiVisible: true, meta: { type: "rejected-input" } });
    expect(rowText(rejected)).toBe(huge);
    expect(rejected.meta?.["cut"]).toBeUndefined();

    expect(await session.send("a short question")).toMatchObject({ status: "completed" });
    expect(calls.at(-1)!.text).not.toContain("PASTED-LOG");
    expect(calls.at(-1)!.text).toContain("user: hello");

    const edit = await session.edit({
      itemId: String(rejected.seq),
      input: "PASTED-LOG, just the last line",
      newSessionId: "s-edit",
    });
    expect(edit.result).toMatchObject({ status: "completed" });
    const lines = calls
      .at(-1)!
      .text.split("\n")
      .filter((line) => !line.startsWith("system:"));
    expect(lines).toEqual(["user: hello", "assistant: answer to user: hello", "user: PASTED-LOG, just the last line"]);
    // The original session still holds the rejected text as it was typed.
    expect(rowText((await store.read("s", rejected.seq))!)).toBe(huge);
  });

  it("over the store's row limit: kept as far as the store allows, with meta.cut, never sent", async () => {
    const store = createMemoryStore({ maxRowBytes: 100_000, ...deterministic("store") });
    const { model, calls } = echoModel();
    const session = budgetSession({ store, model });
    const huge = `PASTED-LOG ${"word ".repeat(60_000)}`;

    const blocked = await session.send(huge);
    expect(blocked.status).toBe("blocked");
    const [rejected] = await readAllRows(store, "s");
    expect(rejected?.meta).toMatchObject({
      type: "rejected-input",
      cut: { totalChars: huge.length, droppedFiles: 0, maxRowBytes: 100_000 },
    });
    const kept = rowText(rejected!);
    expect(huge.startsWith(kept)).toBe(true);
    expect(kept.length).toBeGreaterThan(90_000);
    expect(rejected!.meta?.["cut"]).toMatchObject({ keptChars: kept.length });
    expect(utf8(rejected)).toBeLessThanOrEqual(100_000 + 200);

    expect(await session.send("next")).toMatchObject({ status: "completed" });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.text).not.toContain("PASTED-LOG");
  });

  it("an input that fits the window but not the store's row limit is rejected the same way, not lost", async () => {
    const store = createMemoryStore({ maxRowBytes: 20_000, ...deterministic("store") });
    const { model, calls } = echoModel();
    const session = budgetSession({ store, model, settings: { contextLimit: 200_000 } });
    const large = `PASTED ${"word ".repeat(6_000)}`;

    const blocked = await session.send(large);
    expect(blocked).toMatchObject({
      status: "blocked",
      reason: expect.stringMatching(/too large to store.*20,000 bytes/),
    });
    expect(calls).toHaveLength(0);
    const rows = await readAllRows(store, "s");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.meta).toMatchObject({
      type: "rejected-input",
      cut: { totalChars: large.length, maxRowBytes: 20_000 },
    });
    expect(large.startsWith(rowText(rows[0]!))).toBe(true);
  });
});
