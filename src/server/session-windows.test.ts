import { describe, expect, it } from "vitest";
import { openStore } from "../store/open-store.js";
import type { HistoryStore } from "../store/port.js";
import { rollover, text } from "../store/test-support/conformance-rows.js";
import { createWindowCache } from "./session-windows.js";

/** The store, with a count of `windows` calls and a switch that makes them fail. */
function instrumented(store: HistoryStore) {
  const state = { calls: 0, fail: false };
  const wrapped: HistoryStore = {
    ...store,
    windows: (...parameters) => {
      state.calls += 1;
      return state.fail ? Promise.reject(new Error("disk on fire")) : store.windows(...parameters);
    },
  };
  return { store: wrapped, state };
}

describe("createWindowCache", () => {
  it("requests arriving together share one read; a new row reads again", async () => {
    const inner = openStore({ backend: "memory" });
    await inner.append("s", [text("a"), rollover("r1"), text("b")]);
    const { store, state } = instrumented(inner);
    const cache = createWindowCache({ store });
    const [first, second] = await Promise.all([cache.windowsOf("s"), cache.windowsOf("s")]);
    expect(state.calls).toBe(1);
    expect(second).toBe(first);
    expect(first.windows.map((window) => [window.windowId, window.number])).toEqual([
      ["w:0", 1],
      ["w:2", 2],
    ]);
    await inner.append("s", [text("c")]);
    expect((await cache.windowsOf("s")).windows.at(-1)?.lastSeq).toBe(4);
    expect(state.calls).toBe(2);
    await inner.close();
  });

  it("a failed read reaches every waiting request and is not kept", async () => {
    const inner = openStore({ backend: "memory" });
    await inner.append("s", [text("a")]);
    const { store, state } = instrumented(inner);
    const cache = createWindowCache({ store });
    state.fail = true;
    const results = await Promise.allSettled([cache.windowsOf("s"), cache.windowsOf("s")]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    state.fail = false;
    expect((await cache.windowsOf("s")).windows).toHaveLength(1);
    expect(state.calls).toBe(2);
    await inner.close();
  });
});
