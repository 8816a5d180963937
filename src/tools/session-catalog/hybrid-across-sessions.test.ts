/**
 * Hybrid search without `session_id` is one store query (ADR 0105): a row found only by meaning,
 * in the oldest of 1,000 embedded sessions, is on the first page, paged by hit; `session_offset`
 * is ignored. On SQLite (the sign cache) and memory, with the offline synonym model. The fillers are
 * rows of a dozen words: the synonym model's vectors are sparse, so SQLite's sign-bit candidate stage
 * (Hamming distance, ADR 0063) would otherwise prefer any short row to a long one that shares the meaning.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import type { EmbeddingsOptions } from "../../store/embeddings/embeddings-options.js";
import { reply, text } from "../../store/test-support/conformance-rows.js";
import { createSynonymEmbeddingModel } from "../../store/test-support/synonym-embedding-model.js";
import type { SearchSessionsResult } from "./catalog-results.js";
import { createStoreHistory } from "./store-history.js";

const SESSIONS = 1_000;

const backends: [string, (embeddings: EmbeddingsOptions) => HistoryStore][] = [
  ["memory", (embeddings) => openStore({ backend: "memory", embeddings })],
  [
    "sqlite",
    (embeddings) =>
      openStore({ path: path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-cross-hybrid-")), "ctxwin.db"), embeddings }),
  ],
];

describe.each(backends)("hybrid search across %s sessions", (_name, open) => {
  it(`finds a row by meaning in the oldest of ${SESSIONS} embedded sessions in the first call`, async () => {
    const store = open({ model: createSynonymEmbeddingModel(), onWarning: () => undefined });
    try {
      await store.append("target", [
        text("Which identity approach?"),
        reply("We'll keep OAuth with PKCE for sign-in."),
      ]);
      for (let index = 0; index < SESSIONS - 1; index += 1)
        await store.append(`filler-${index}`, [
          text(`Lunch order ${index}: tacos for the whole team on the terrace at noon`),
          reply(`Noted, table ${index} by the window, with lemonade and extra salsa on the side.`),
        ]);
      await store.embeddings?.idle();
      const history = createStoreHistory({ store });
      const search = async (extra: Record<string, unknown> = {}) =>
        (await history.execute({
          action: "search",
          query: "authentication decision",
          mode: "hybrid",
          ...extra,
        })) as SearchSessionsResult;
      const first = await search({ session_offset: 400 });
      expect(first).toMatchObject({ ok: true, mode: "hybrid", sessions_total: SESSIONS, sessions_searched: SESSIONS });
      expect(first.note).toBeUndefined();
      expect(first.results[0]?.session_id).toBe("target");
      expect(first.results[0]?.hits[0]?.item_id).toBe("2");
      // Pages go by hit, never by session.
      expect(first.next).toEqual(first.has_more ? { offset: expect.any(Number) } : null);
    } finally {
      await store.close();
    }
  }, 120_000);
});
