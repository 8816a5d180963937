/**
 * Conformance cases for hybrid and semantic search (ADR 0063), run on every backend that keeps
 * vectors, with the offline synonym model (`synonym-embedding-model.ts`). Test-only.
 */
import { afterEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../core/errors.js";
import type { EmbeddingsOptions } from "../embeddings/embeddings-options.js";
import type { HistoryStore } from "../port.js";
import { reply, reset, rollover, text, textOf } from "./conformance-rows.js";
import { createSynonymEmbeddingModel, gatedEmbeddingModel, synonymVector } from "./synonym-embedding-model.js";
import { describeForkEmbeddingConformance } from "./conformance-embeddings-forks.js";
import { describeManySessionEmbeddingCase } from "./conformance-embeddings-sessions.js";
import { describeCrossHybridConformance } from "./conformance-cross-hybrid.js";
import { quiet, transcript } from "./embedding-transcript.js";

export type OpenWithEmbeddings = (embeddings: EmbeddingsOptions | undefined) => HistoryStore;

/**
 * @example describeEmbeddingConformance("memory", (embeddings) => openStore({ backend: "memory", embeddings }))
 */
export function describeEmbeddingConformance(name: string, open: OpenWithEmbeddings): void {
  describe(`embeddings conformance: ${name}`, () => {
    const opened: HistoryStore[] = [];
    const openStore = (embeddings: EmbeddingsOptions | undefined) => {
      const store = open(embeddings);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it("finds by meaning a row that ranked word search misses", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet });
      await store.append("s", transcript);
      await store.embeddings?.idle();
      const ranked = await store.search("s", { query: "login flow decision", mode: "ranked" });
      expect(ranked.hits.map((hit) => textOf(hit.row))).not.toContain("We'll keep OAuth with PKCE for sign-in.");
      const hybrid = await store.search("s", { query: "login flow decision", mode: "hybrid", limit: 3 });
      expect(textOf(hybrid.hits[0]?.row ?? { parts: [] })).toBe("We'll keep OAuth with PKCE for sign-in.");
      expect(hybrid.embeddings).toMatchObject({
        status: "used",
        model: "test:synonyms-64",
        dimensions: 64,
        pendingRows: 0,
      });
      const semantic = await store.search("s", { query: "database choice", mode: "semantic", limit: 1 });
      expect(textOf(semantic.hits[0]?.row ?? { parts: [] })).toBe("Everything persists in PostgreSQL.");
      expect(semantic.hits[0]?.windowId).toBe("w:0");
    });

    it("keeps hybrid hits that only word search finds, and fuses both", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet });
      await store.append("s", transcript);
      await store.embeddings?.idle();
      const page = await store.search("s", { query: "teal", mode: "hybrid", limit: 2 });
      expect(textOf(page.hits[0]?.row ?? { parts: [] })).toBe("A deep teal palette.");
    });

    it("honours the privacy floor, the window, beforeSeq, the role filter and the bounds", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet });
      await store.append("s", [text("the password reset secret"), reset()]);
      await store.append("s", [text("OAuth login notes"), reply("PKCE sign-in detail")]);
      await store.append("s", [rollover("r1", "w:2"), text("credentials again")]);
      await store.embeddings?.idle();
      const all = await store.search("s", { query: "authentication", mode: "semantic", limit: 25 });
      expect(all.hits.map((hit) => hit.row.seq).sort()).toEqual([3, 4, 6]);
      // Rows cleared before they were embedded are never sent to the provider; word search still finds them for a person who asks.
      const cleared = await store.search("s", { query: "password", mode: "hybrid", limit: 25, includeCleared: true });
      expect(cleared.hits.map((hit) => hit.row.seq)).toContain(1);
      const window = await store.search("s", { query: "authentication", mode: "semantic", windowId: "w:5" });
      expect(window.hits.map((hit) => [hit.row.seq, hit.windowId])).toEqual([[6, "w:5"]]);
      const before = await store.search("s", { query: "authentication", mode: "hybrid", beforeSeq: 4 });
      expect(before.hits.map((hit) => hit.row.seq)).toEqual([3]);
      for (const mode of ["semantic", "hybrid"] as const) {
        const role = await store.search("s", { query: "authentication", mode, role: "assistant" });
        expect([mode, role.hits.map((hit) => hit.row.seq)]).toEqual([mode, [4]]);
      }
      const first = await store.search("s", { query: "authentication", mode: "semantic", limit: 1 });
      expect(first.hits).toHaveLength(1);
      expect(first.hasMore).toBe(true);
      const second = await store.search("s", { query: "authentication", mode: "semantic", limit: 1, offset: 1 });
      expect(second.hits[0]?.row.seq).not.toBe(first.hits[0]?.row.seq);
      await expect(store.search("s", { query: "x", mode: "hybrid", limit: 5000 })).rejects.toSatisfy(
        InvalidArgumentError.isInstance,
      );
    });

    it("says when rows are not embedded yet, and embeds them after they commit", async () => {
      const { model: slow, release } = gatedEmbeddingModel();
      const store = openStore({ model: slow, ...quiet });
      const stored = await store.append("s", transcript);
      expect(stored).toHaveLength(6);
      const early = await store.search("s", { query: "login", mode: "hybrid" });
      expect(early.embeddings?.pendingRows).toBe(6);
      expect(early.embeddings?.message).toMatch(/not embedded yet/);
      release();
      await store.embeddings?.idle();
      const late = await store.search("s", { query: "login", mode: "hybrid" });
      expect(late.embeddings?.pendingRows).toBe(0);
    });

    it("batches rows into few provider calls", async () => {
      const model = createSynonymEmbeddingModel();
      const store = openStore({ model, ...quiet, batchSize: 50 });
      for (let index = 0; index < 10; index += 1) {
        await store.append(
          "s",
          Array.from({ length: 10 }, (_, row) => text(`row ${index} ${row} about deploy`)),
        );
      }
      await store.embeddings?.idle();
      expect(await store.embeddings?.pendingRows("s")).toBe(0);
      expect(model.calls.length).toBeLessThanOrEqual(10);
      expect(store.diagnostics().embeddings).toMatchObject({ embeddedRows: 100, failures: 0 });
    });

    it("reports a failing provider, retries it, and never fails an append", async () => {
      const warnings: string[] = [];
      const model = createSynonymEmbeddingModel({
        fault: (call) => {
          throw new Error(`provider down (call ${call})`);
        },
      });
      const store = openStore({ model, retryDelaysMs: [0, 0], onWarning: (message) => warnings.push(message) });
      const stored = await store.append("s", transcript);
      expect(stored.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      await store.embeddings?.idle();
      expect(model.calls.length).toBe(3);
      expect(warnings.join("\n")).toMatch(/provider down/);
      expect(store.diagnostics().embeddings).toMatchObject({ failures: 3, embeddedRows: 0 });
      // The query itself cannot be embedded either: word search answers, saying so.
      const page = await store.search("s", { query: "teal", mode: "hybrid" });
      expect(page.embeddings?.status).toBe("unavailable");
      expect(page.embeddings?.message).toMatch(/ranked word-search results/);
      expect(page.hits.map((hit) => hit.row.seq)).toEqual([6]);
      // Its pages are word search's pages, offset and all.
      for (const offset of [0, 1, 2]) {
        const search = { query: "OAuth PostgreSQL teal", limit: 1, offset };
        const [fallback, ranked] = await Promise.all([
          store.search("s", { ...search, mode: "hybrid" }),
          store.search("s", { ...search, mode: "ranked" }),
        ]);
        expect([offset, fallback.hits.map((hit) => hit.row.seq), fallback.hasMore]).toEqual([
          offset,
          ranked.hits.map((hit) => hit.row.seq),
          ranked.hasMore,
        ]);
      }
      expect((await store.items("s")).rows).toHaveLength(6);
    });

    it("keeps the last failure with the vectors until a batch is embedded again", async () => {
      const model = createSynonymEmbeddingModel({
        fault: (call) => {
          if (call < 3) throw new Error(`invalid api key (call ${call})`);
          return undefined;
        },
      });
      const store = openStore({ model, ...quiet });
      await store.append("s", transcript.slice(0, 2));
      await store.embeddings?.idle();
      expect(store.diagnostics().embeddings?.lastFailure).toMatchObject({
        message: expect.stringMatching(/invalid api key \(call 2\)/),
        consecutive: 3,
      });
      expect(Date.parse(store.diagnostics().embeddings?.lastFailure?.at ?? "")).not.toBeNaN();
      await store.append("s", transcript.slice(2));
      await store.embeddings?.idle();
      expect(await store.embeddings?.pendingRows("s")).toBe(0);
      expect(store.diagnostics().embeddings?.lastFailure).toBeUndefined();
    });

    const badAnswers: [string, (values: readonly string[]) => number[][]][] = [
      ["a wrong dimension", (values) => values.map(() => [1, 0, 0])],
      ["NaN", (values) => values.map(() => Array.from({ length: 64 }, () => Number.NaN))],
      ["an empty vector", (values) => values.map(() => [])],
      ["an empty array", () => []],
    ];
    for (const [fault, answer] of badAnswers) {
      it(`writes nothing from a provider answering ${fault}, then recovers`, async () => {
        const warnings: string[] = [];
        const model = createSynonymEmbeddingModel({
          fault: (call, values) => (call === 1 ? { embeddings: answer(values), warnings: [] } : undefined),
        });
        const store = openStore({ model, retryDelaysMs: [], onWarning: (message) => warnings.push(message) });
        await store.append("s", transcript.slice(0, 2));
        await store.embeddings?.idle();
        await store.append("s", transcript.slice(2));
        await store.embeddings?.idle();
        // AI SDK 7 checks the count of vectors itself ("Expected 4 embeddings, but received 0").
        expect(warnings[0]).toMatch(/embedding model test:synonyms-64 (returned|failed: Expected \d+ embeddings)/);
        expect(await store.embeddings?.pendingRows("s")).toBe(4);
        expect(store.diagnostics().embeddings).toMatchObject({ dimensions: 64, embeddedRows: 2 });
        await store.append("s", [text("one more login")]);
        await store.embeddings?.idle();
        expect(await store.embeddings?.pendingRows("s")).toBe(0);
      });
    }

    it("retries a 429 with backoff and then embeds", async () => {
      const model = createSynonymEmbeddingModel({
        fault: (call) => {
          if (call < 2) throw Object.assign(new Error("Rate limit exceeded"), { statusCode: 429 });
          return undefined;
        },
      });
      const store = openStore({ model, retryDelaysMs: [10, 40], onWarning: () => undefined });
      await store.append("s", transcript);
      await store.embeddings?.idle();
      expect(await store.embeddings?.pendingRows("s")).toBe(0);
      expect(store.diagnostics().embeddings).toMatchObject({ failures: 2, embeddedRows: 6 });
    });

    it("answers a query vector of another dimension than the stored vectors with word search, saying why", async () => {
      const shorter: { dimensions?: number } = {};
      const model = createSynonymEmbeddingModel({
        // The same model id now answers with shorter vectors (its `dimensions` setting changed).
        fault: (_call, values) =>
          shorter.dimensions === undefined
            ? undefined
            : { embeddings: values.map((value) => synonymVector(value, shorter.dimensions!)), warnings: [] },
      });
      const store = openStore({ model, ...quiet });
      await store.append("s", transcript);
      await store.embeddings?.idle();
      shorter.dimensions = 32;
      for (const mode of ["hybrid", "semantic"] as const) {
        const page = await store.search("s", { query: "teal", mode });
        expect([mode, page.hits.map((hit) => hit.row.seq)]).toEqual([mode, [6]]);
        expect(page.embeddings).toMatchObject({ status: "unavailable", model: "test:synonyms-64", dimensions: 64 });
        expect(page.embeddings?.message).toMatch(
          /query's vector has 32 dimensions, the store's test:synonyms-64 vectors 64.*ranked word-search results/,
        );
      }
    });

    it("a store without the model answers hybrid with word search and says so", async () => {
      const store = openStore(undefined);
      await store.append("s", transcript);
      const page = await store.search("s", { query: "teal", mode: "hybrid" });
      expect(page.hits.map((hit) => hit.row.seq)).toEqual([6]);
      expect(page.embeddings).toMatchObject({ status: "unavailable" });
      expect(page.embeddings?.message).toMatch(/without an embedding model/);
      expect(store.embeddings).toBeUndefined();
    });

    it("backfills resumably and idempotently", async () => {
      const model = createSynonymEmbeddingModel();
      const store = openStore({ model, ...quiet });
      await store.append("a", transcript);
      await store.append("b", transcript);
      await store.embeddings?.idle();
      const calls = model.calls.length;
      const again = await store.embeddings?.backfill();
      expect(again).toMatchObject({ sessions: 2, sessionsDone: 2, embeddedRows: 0 });
      expect(model.calls.length).toBe(calls);
    });

    it("moves past rows without text before the first vector", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet, batchSize: 4 });
      const hidden = Array.from({ length: 6 }, () => text("internal note", { uiVisible: false, synthetic: true }));
      await store.append("s", [...hidden, text("OAuth sign-in")]);
      await store.embeddings?.idle();
      expect(await store.embeddings?.pendingRows("s")).toBe(0);
      const page = await store.search("s", { query: "login", mode: "semantic" });
      expect(page.hits.map((hit) => hit.row.seq)).toEqual([7]);
    });

    it("drops a deleted session's vectors", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet });
      await store.append("s", transcript);
      await store.embeddings?.idle();
      await store.deleteSession("s");
      await store.append("s", [text("fresh start about colour")]);
      await store.embeddings?.idle();
      const page = await store.search("s", { query: "authentication", mode: "semantic", limit: 25 });
      expect(page.hits.map((hit) => hit.row.seq)).toEqual([1]);
    });

    describeForkEmbeddingConformance(openStore);
    describeCrossHybridConformance(openStore);
    describeManySessionEmbeddingCase(openStore);
  });
}
