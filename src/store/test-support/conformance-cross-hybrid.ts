/**
 * Conformance cases for hybrid search across sessions (ADR 0105): one ranked query and one
 * nearest-neighbour query over the same scope, fused, with every session's privacy floor, hidden
 * rows, lineage (a fork finds its origin's rows by meaning, within its own floor) and sub-agent
 * visibility applied, hits capped per session and paged by hit. Run by `describeEmbeddingConformance`
 * with the offline synonym model. Test-only.
 */
import { describe, expect, it } from "vitest";
import type { CrossSearchOptions, CrossSearchPage, HistoryStore } from "../port.js";
import type { EmbeddingsOptions } from "../embeddings/embeddings-options.js";
import { reply, reset, rollover, leadIn, text, textOf } from "./conformance-rows.js";
import { quiet, transcript } from "./embedding-transcript.js";
import { createSeededRandom } from "./seeded-random.js";
import { createSynonymEmbeddingModel, gatedEmbeddingModel } from "./synonym-embedding-model.js";

/** `session:item` of each hit, in page order. */
const keys = (page: CrossSearchPage) => page.hits.map((hit) => `${hit.sessionId}:${hit.row.seq}`);

/** A hybrid search across sessions, every hit of up to 50 (five per session). */
const hybrid = (store: HistoryStore, query: string, options: Partial<CrossSearchOptions> = {}) =>
  store.searchSessions({ query, mode: "hybrid", limit: 50, hitsPerSession: 5, ...options });

/**
 * @example describeCrossHybridConformance((embeddings) => openStore({ backend: "memory", embeddings }))
 */
export function describeCrossHybridConformance(openStore: (embeddings: EmbeddingsOptions | undefined) => HistoryStore) {
  describe("hybrid search across sessions (ADR 0105)", () => {
    it("finds by meaning, in one call, a row ranked word search misses, under its session's id", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet });
      await store.append("older", transcript);
      await store.append("other", [text("Lunch plans for friday."), reply("Tacos again.")]);
      await store.append("newer", [text("How does the login flow start?"), reply("With the landing page.")]);
      await store.embeddings?.idle();
      const ranked = await store.searchSessions({ query: "authentication decision", mode: "ranked" });
      expect(keys(ranked)).not.toContain("older:2");
      const page = await store.searchSessions({ query: "authentication decision", mode: "hybrid", limit: 3 });
      expect(page.hits[0]?.sessionId).toBe("older");
      expect(textOf(page.hits[0]?.row ?? { parts: [] })).toBe("We'll keep OAuth with PKCE for sign-in.");
      expect(page.hits[0]?.windowId).toBe("w:0");
      expect(page.sessionsSearched).toBe(3);
      expect(page.embeddings).toMatchObject({ status: "used", model: "test:synonyms-64", pendingRows: 0 });
      // Pages go by hit: the second page starts where the first ended, with no hit twice.
      const first = await hybrid(store, "authentication decision", { limit: 2, hitsPerSession: 2 });
      const second = await hybrid(store, "authentication decision", { limit: 2, hitsPerSession: 2, offset: 2 });
      expect(first).toMatchObject({ hasMore: true, nextOffset: 2 });
      expect(keys(second).some((key) => keys(first).includes(key))).toBe(false);
    });

    it("keeps each session's privacy floor and never finds hidden rows", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet });
      await store.append("cleared", [text("the OAuth password secret"), reset(), text("PKCE sign-in after the clear")]);
      await store.append("hidden", [
        text("credentials hidden from everyone", { synthetic: true, uiVisible: false }),
        rollover("r1"),
        leadIn("r1"),
      ]);
      await store.embeddings?.idle();
      const page = await hybrid(store, "authentication credentials");
      expect(keys(page)).toContain("cleared:3");
      expect(keys(page)).not.toContain("cleared:1");
      expect(page.hits.some((hit) => textOf(hit.row).includes("hidden from everyone"))).toBe(false);
    });

    it("a fork finds its origin's rows by meaning under its own id, within its own floor", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet });
      await store.append("origin", transcript);
      await store.embeddings?.idle();
      await store.fork("origin", { atSeq: 4, newSessionId: "fork" });
      await store.append("fork", [text("Ship the release on friday.")]);
      await store.embeddings?.idle();
      const auth = await hybrid(store, "authentication");
      expect(keys(auth)).toContain("origin:2");
      expect(keys(auth)).toContain("fork:2");
      expect(auth.embeddings?.pendingRows).toBe(0);
      // The origin's rows after the fork point are not the fork's.
      const colour = await hybrid(store, "palette colour hue");
      expect(keys(colour)).toContain("origin:6");
      expect(colour.hits.filter((hit) => hit.sessionId === "fork").map((hit) => textOf(hit.row))).not.toContain(
        "A deep teal palette.",
      );
      // A clear in the fork hides the shared rows from the fork, not from the origin.
      await store.append("fork", [reset(), text("fork starts over")]);
      await store.embeddings?.idle();
      const after = await hybrid(store, "authentication");
      expect(keys(after)).toContain("origin:2");
      expect(after.hits.filter((hit) => hit.sessionId === "fork" && hit.row.seq <= 6)).toEqual([]);
    });

    it("a child a clear above it hides is not searched (ADR 0073); a later child is", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet });
      await store.append("main", [text("start"), reply("delegating")]);
      await store.append("main/child", [text("the OAuth PKCE detail")], { parent: { sessionId: "main", itemId: "2" } });
      await store.embeddings?.idle();
      expect(keys(await hybrid(store, "authentication"))).toContain("main/child:1");
      await store.append("main", [reset(), reply("delegating again")]);
      await store.append("main/late", [text("the login credentials")], { parent: { sessionId: "main", itemId: "4" } });
      await store.embeddings?.idle();
      const page = await hybrid(store, "authentication");
      expect(keys(page)).toContain("main/late:1");
      expect(page.hits.map((hit) => hit.sessionId)).not.toContain("main/child");
      expect(page.sessionsSearched).toBe(2);
    });

    it("applies a role filter to the rows found by meaning too", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet });
      await store.append("a", transcript);
      await store.append("b", [text("How do logins work here?"), reply("Through PKCE.")]);
      await store.embeddings?.idle();
      const page = await hybrid(store, "authentication", { role: "assistant" });
      expect(page.hits.length).toBeGreaterThan(0);
      expect(page.hits.every((hit) => hit.row.role === "assistant")).toBe(true);
      expect(keys(page)).toEqual(expect.arrayContaining(["a:2", "b:2"]));
    });

    it("finds a row by meaning in one session of many (more embedded rows than an exact scan takes)", async () => {
      const store = openStore({ model: createSynonymEmbeddingModel(), ...quiet });
      await store.append("target", [
        text("Which identity approach?"),
        reply("We'll keep OAuth with PKCE for sign-in."),
      ]);
      // 2,200 rows of a dozen words each, of varied words (PostgreSQL: past ADR 0096's 2,000-row exact scan, so
      // the HNSW index answers). Near-identical rows, or rows all unrelated to the query, would leave its
      // approximate graph no way towards the target: every tenth row shares a little of its meaning.
      const random = createSeededRandom(51);
      const word = () => `w${random.integer(0, 4_999)}`;
      for (let session = 0; session < 20; session += 1)
        await store.append(
          `filler-${session}`,
          Array.from({ length: 110 }, (_, row) =>
            text([...Array.from({ length: 12 }, word), ...(row % 10 === 0 ? ["password"] : [])].join(" ")),
          ),
        );
      await store.embeddings?.idle();
      const page = await store.searchSessions({ query: "authentication decision", mode: "hybrid", limit: 3 });
      expect(keys(page)[0]).toBe("target:2");
      expect(page.sessionsSearched).toBe(21);
      // Narrowed to 20 of the 21 sessions (PostgreSQL: still past the exact scan, the index walk filtered by session).
      const some = ["target", ...Array.from({ length: 19 }, (_, session) => `filler-${session}`)];
      const narrowed = await store.searchSessions({
        query: "authentication decision",
        mode: "hybrid",
        sessionIds: some,
      });
      expect(keys(narrowed)[0]).toBe("target:2");
      expect(narrowed.sessionsSearched).toBe(20);
      expect(narrowed.hits.map((hit) => hit.sessionId)).not.toContain("filler-19");
    });

    it("counts the rows not embedded yet, and answers with word search's rows meanwhile", async () => {
      const { model, release } = gatedEmbeddingModel();
      const store = openStore({ model, ...quiet });
      await store.append("s", transcript);
      await store.append("t", [text("OAuth again")]);
      const early = await hybrid(store, "OAuth");
      expect(early.embeddings).toMatchObject({ status: "used" });
      expect(early.embeddings?.pendingRows).toBe(7);
      expect(keys(early)).toEqual(expect.arrayContaining(["s:2", "t:1"]));
      release();
      await store.embeddings?.idle();
      expect((await hybrid(store, "OAuth")).embeddings?.pendingRows).toBe(0);
    });
  });
}
