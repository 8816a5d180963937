/**
 * Conformance cases for hybrid and semantic search of forks (ADR 0063, "Forks"): a fork finds its
 * shared rows by meaning through its origin's vectors, within its bounds and its privacy floor,
 * and no shared row is ever sent to the provider again. Run by `describeEmbeddingConformance`.
 * Test-only.
 */
import { describe, expect, it } from "vitest";
import type { EmbeddingsOptions } from "../embeddings/embeddings-options.js";
import type { HistoryStore } from "../port.js";
import { reply, reset, text, textOf } from "./conformance-rows.js";
import { quiet, transcript } from "./embedding-transcript.js";
import { createSynonymEmbeddingModel, gatedEmbeddingModel } from "./synonym-embedding-model.js";

/** The texts sent to the provider from call `from` on. */
const embeddedTexts = (model: ReturnType<typeof createSynonymEmbeddingModel>, from: number) =>
  model.calls.slice(from).flatMap((call) => call.values);

/** A store whose session "s" holds the transcript, embedded; `before`: the provider calls made so far. */
async function embeddedOrigin(openStore: (embeddings: EmbeddingsOptions | undefined) => HistoryStore) {
  const model = createSynonymEmbeddingModel();
  const store = openStore({ model, ...quiet });
  await store.append("s", transcript);
  await store.embeddings?.idle();
  return { model, store, before: model.calls.length };
}

/**
 * @example describeForkEmbeddingConformance((embeddings) => openStore({ backend: "memory", embeddings }))
 */
export function describeForkEmbeddingConformance(
  openStore: (embeddings: EmbeddingsOptions | undefined) => HistoryStore,
): void {
  describe("forks", () => {
    it("find their origin's rows by meaning from the origin's vectors, embedding only their own rows", async () => {
      const { model, store, before } = await embeddedOrigin(openStore);
      await store.fork("s", { atSeq: 4, newSessionId: "f" });
      await store.append("f", [text("Ship the release on friday.")]);
      await store.embeddings?.idle();
      expect(embeddedTexts(model, before)).toEqual(["Ship the release on friday."]);
      expect(await store.embeddings?.pendingRows("f")).toBe(0);

      const shared = await store.search("f", { query: "login flow decision", mode: "semantic", limit: 1 });
      expect(shared.hits.map((hit) => [hit.row.sessionId, hit.row.seq, hit.windowId, textOf(hit.row)])).toEqual([
        ["f", 2, "w:0", "We'll keep OAuth with PKCE for sign-in."],
      ]);
      expect(shared.embeddings).toMatchObject({ status: "used", pendingRows: 0 });
      const own = await store.search("f", { query: "rollout", mode: "hybrid", limit: 1 });
      expect(own.hits.map((hit) => hit.row.seq)).toEqual([5]);
      // The origin's rows after atSeq are not the fork's: its seq 5 and 6 are other rows.
      const all = await store.search("f", { query: "palette colour hue", mode: "semantic", limit: 25 });
      expect(all.hits.map((hit) => textOf(hit.row))).not.toContain("A deep teal palette.");
      expect(all.hits.map((hit) => hit.row.seq).sort()).toEqual([1, 2, 3, 4, 5]);
      const older = await store.search("f", { query: "database", mode: "hybrid", beforeSeq: 4 });
      expect(older.hits.map((hit) => hit.row.seq)).not.toContain(4);
      expect(older.hits.every((hit) => hit.row.seq < 4)).toBe(true);
      // Only the searches' own queries reached the provider.
      expect(model.calls.length).toBe(before + 1 + 4);
    });

    it("count the origin's rows not embedded yet as pending, and find them once the origin is embedded", async () => {
      const { model: slow, release } = gatedEmbeddingModel();
      const store = openStore({ model: slow, ...quiet });
      await store.append("s", transcript);
      await store.fork("s", { atSeq: 4, newSessionId: "f" });
      const early = await store.search("f", { query: "login", mode: "hybrid" });
      expect(early.embeddings?.pendingRows).toBe(4);
      release();
      await store.embeddings?.idle();
      const late = await store.search("f", { query: "login flow decision", mode: "semantic", limit: 1 });
      expect(late.embeddings?.pendingRows).toBe(0);
      expect(late.hits.map((hit) => hit.row.seq)).toEqual([2]);
      // Each shared row was sent once, for the origin.
      const sent = slow.calls.flatMap((call) => call.values);
      expect(sent.filter((value) => value === "We'll keep OAuth with PKCE for sign-in.")).toHaveLength(1);
    });

    it("are backfilled with their origins", async () => {
      // The first call fails: the origin's rows stay pending until the backfill.
      const model = createSynonymEmbeddingModel({
        fault: (call) => {
          if (call === 0) throw new Error("provider down");
          return undefined;
        },
      });
      const store = openStore({ model, retryDelaysMs: [], onWarning: () => undefined });
      await store.append("s", transcript);
      await store.embeddings?.idle();
      await store.fork("s", { atSeq: 4, newSessionId: "f" });
      await store.fork("f", { atSeq: 4, newSessionId: "g" });
      expect(await store.embeddings?.pendingRows("g")).toBe(0);
      const progress = await store.embeddings?.backfill({ sessionIds: ["g"] });
      expect(progress).toMatchObject({ sessions: 3, sessionsDone: 3, embeddedRows: 6, pendingRows: 0 });
      const page = await store.search("g", { query: "login flow decision", mode: "semantic", limit: 1 });
      expect(page.hits.map((hit) => hit.row.seq)).toEqual([2]);
      expect(page.embeddings?.pendingRows).toBe(0);
    });

    it("keep the fork's privacy floor: an origin's later clear does not hide, a fork's own clear does", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet });
      await store.append("s", [
        text("the password secret"),
        reset(),
        text("OAuth login notes"),
        reply("PKCE sign-in detail"),
      ]);
      await store.embeddings?.idle();
      await store.fork("s", { atSeq: 4, newSessionId: "f" });
      await store.append("s", [reset(), text("credentials after the clear")]);
      await store.embeddings?.idle();
      const origin = await store.search("s", { query: "authentication", mode: "semantic", limit: 25 });
      expect(origin.hits.map((hit) => hit.row.seq)).toEqual([6]);
      const fork = await store.search("f", { query: "authentication", mode: "semantic", limit: 25 });
      expect(fork.hits.map((hit) => hit.row.seq).sort()).toEqual([3, 4]);
      await store.append("f", [reset(), text("login once more")]);
      await store.embeddings?.idle();
      const cleared = await store.search("f", { query: "authentication", mode: "hybrid", limit: 25 });
      expect(cleared.hits.map((hit) => hit.row.seq)).toEqual([6]);
      expect(cleared.embeddings?.pendingRows).toBe(0);
    });

    it("of a fork read each ancestor's vectors within its bounds", async () => {
      const { model, store, before } = await embeddedOrigin(openStore);
      await store.fork("s", { atSeq: 4, newSessionId: "f" });
      await store.append("f", [text("Ship the release on friday."), reply("Rollout is booked.")]);
      await store.fork("f", { atSeq: 5, newSessionId: "g" });
      await store.append("g", [text("Keep the sqlite storage too.")]);
      await store.embeddings?.idle();
      expect(embeddedTexts(model, before).sort()).toEqual([
        "Keep the sqlite storage too.",
        "Rollout is booked.",
        "Ship the release on friday.",
      ]);
      const login = await store.search("g", { query: "login flow decision", mode: "semantic", limit: 1 });
      expect(login.hits.map((hit) => [hit.row.sessionId, hit.row.seq])).toEqual([["g", 2]]);
      const deploy = await store.search("g", { query: "rollout", mode: "semantic", limit: 25 });
      expect(deploy.hits[0]?.row.seq).toBe(5);
      expect(deploy.hits.map((hit) => textOf(hit.row))).not.toContain("Rollout is booked.");
      const storage = await store.search("g", { query: "database", mode: "hybrid", limit: 2 });
      expect(storage.hits.map((hit) => hit.row.seq).sort()).toEqual([4, 6]);
      expect(storage.embeddings?.pendingRows).toBe(0);
    });
  });
}
