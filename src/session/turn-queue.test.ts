import { describe, expect, it } from "vitest";
import { createTurnQueue, type PendingRollover } from "./turn-queue.js";

const owner = { id: "send-1" };
const other = { id: "send-2" };
const latch: PendingRollover = {
  reason: "mid-stream",
  flushOpportunity: true,
  contextTokens: 9_000,
  maxTokens: 10_000,
  windowId: "w:0",
};
const userEntry = (who = other) => ({
  kind: "user" as const,
  parts: [{ type: "text" as const, text: "hi" }],
  owner: who,
});

describe("turn queue", () => {
  it("a rollover latch queues one continue when no user input waits", () => {
    const queue = createTurnQueue();
    queue.latchRollover(latch, owner);
    queue.latchRollover(latch, owner);
    expect(queue.pendingRollover).toEqual(latch);
    expect(queue.shift()).toEqual({ kind: "continue", owner });
    expect(queue.shift()).toBeUndefined();
  });

  it("waiting user input receives the rollover instead of a continue", () => {
    const queue = createTurnQueue();
    queue.push(userEntry());
    queue.latchRollover(latch, owner);
    expect(queue.size).toBe(1);
    expect(queue.shift()?.kind).toBe("user");
    expect(queue.pendingRollover).toEqual(latch);
  });

  it("a warning is its own turn, or rides in front of waiting user input", () => {
    const alone = createTurnQueue();
    expect(alone.requestWarning({ windowId: "w:0" }, owner)).toBe(true);
    expect(alone.shift()).toEqual({ kind: "warning", owner });
    const busy = createTurnQueue();
    busy.push(userEntry());
    busy.requestWarning({ windowId: "w:0" }, owner);
    expect(busy.size).toBe(1);
    expect(busy.pendingWarning).toEqual({ windowId: "w:0" });
  });

  it("a rollover wins over a warning", () => {
    const queue = createTurnQueue();
    queue.requestWarning({ windowId: "w:0" }, owner);
    queue.latchRollover(latch, owner);
    expect(queue.shift()?.kind).toBe("continue");
    expect(queue.size).toBe(0);
    expect(queue.requestWarning({ windowId: "w:0" }, owner)).toBe(false);
  });

  it("supersession drops both latches and queued internal turns, but never user input", () => {
    const queue = createTurnQueue();
    queue.latchRollover(latch, owner);
    queue.push(userEntry());
    queue.supersede();
    expect(queue.pendingRollover).toBeUndefined();
    expect(queue.pendingWarning).toBeUndefined();
    expect(queue.size).toBe(1);
    expect(queue.shift()?.kind).toBe("user");
  });

  it("drops the internal turns of one owner only", () => {
    const queue = createTurnQueue();
    queue.latchRollover(latch, owner);
    queue.push(userEntry(other));
    queue.dropInternalOf(owner);
    expect(queue.hasEntriesFor(owner)).toBe(false);
    expect(queue.hasEntriesFor(other)).toBe(true);
  });
});
