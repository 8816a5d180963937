import { describe, expect, it, vi } from "vitest";
import { lazyStore } from "./lazy-store.js";
import { createMemoryStore } from "./memory/memory-store.js";
import type { HistoryStore } from "./port.js";

const userRow = (text: string) => ({ role: "user" as const, parts: [{ type: "text" as const, text }] });

describe("lazyStore", () => {
  it("each call waits for the load and goes to the loaded store", async () => {
    const inner = createMemoryStore();
    let release!: (store: HistoryStore) => void;
    const store = lazyStore({
      backend: "memory",
      load: () => new Promise((resolve) => (release = resolve)),
      diagnostics: () => ({ corruptRowsSkipped: 0 }),
    });
    const appended = store.append("s1", [userRow("hello")]);
    release(inner);
    expect((await appended).map((row) => row.seq)).toEqual([1]);
    expect(await inner.lastSeq("s1")).toBe(1);
    expect((await store.search("s1", { query: "hello", mode: "literal" })).hits).toHaveLength(1);
    await store.close();
  });

  it("a load that failed rejects every call with its error, and close releases what was opened", async () => {
    const closeOnFailure = vi.fn(async () => undefined);
    const failure = new Error("the vector index cannot open");
    const store = lazyStore({
      backend: "sqlite",
      load: () => Promise.reject(failure),
      diagnostics: () => ({ corruptRowsSkipped: 0 }),
      embeddingModel: "test:embedder",
      closeOnFailure,
    });
    await expect(store.append("s1", [userRow("hello")])).rejects.toBe(failure);
    await expect(store.sessions()).rejects.toBe(failure);
    await expect(store.embeddings?.idle()).rejects.toBe(failure);
    expect(store.embeddings?.model).toBe("test:embedder");
    expect(store.diagnostics()).toEqual({ corruptRowsSkipped: 0 });
    await store.close();
    expect(closeOnFailure).toHaveBeenCalledOnce();
  });

  it("answers diagnostics from the loaded store once it has loaded", async () => {
    const inner = createMemoryStore();
    const store = lazyStore({
      backend: "memory",
      load: async () => ({ ...inner, diagnostics: () => ({ corruptRowsSkipped: 7 }) }),
      diagnostics: () => ({ corruptRowsSkipped: 0 }),
    });
    await store.lastSeq("s1");
    expect(store.diagnostics()).toEqual({ corruptRowsSkipped: 7 });
    await store.close();
  });
});
