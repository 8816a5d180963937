import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { StoreOptionsError } from "../errors.js";
import { openStore } from "../open-store.js";
import { text, reply } from "../test-support/conformance-rows.js";
import { createSynonymEmbeddingModel } from "../test-support/synonym-embedding-model.js";
import { fuseRankings } from "./fuse-rankings.js";

const quiet = { retryDelaysMs: [0], onWarning: () => undefined };
const newPath = () => path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-embed-")), "ctxwin.db");

describe("embeddings on a SQLite file", () => {
  it("keeps vectors across a reopen, and a reopen without the model falls back to word search, saying so", async () => {
    const file = newPath();
    const model = createSynonymEmbeddingModel();
    const first = openStore({ path: file, embeddings: { model, ...quiet } });
    await first.append("s", [text("We'll keep OAuth with PKCE for sign-in."), reply("noted")]);
    await first.embeddings?.idle();
    await first.close();

    const again = openStore({ path: file, embeddings: { model, ...quiet } });
    const page = await again.search("s", { query: "login approach", mode: "semantic", limit: 1 });
    expect(page.hits[0]?.row.seq).toBe(1);
    expect(page.embeddings?.pendingRows).toBe(0);
    expect(again.diagnostics().embeddings?.cacheBytes).toBeGreaterThan(0); // the session's sign bits, held for the next search
    await again.close();
    expect(model.calls.length).toBe(2); // one batch, one query

    const plain = openStore({ path: file });
    const fallback = await plain.search("s", { query: "OAuth", mode: "hybrid" });
    expect(fallback.hits[0]?.row.seq).toBe(1);
    expect(fallback.embeddings?.message).toMatch(/without an embedding model/);
    await plain.close();
  });

  it("answers a query vector of another dimension under the same model id with word search, and re-embeds for a new model", async () => {
    const file = newPath();
    const first = openStore({ path: file, embeddings: { model: createSynonymEmbeddingModel(), ...quiet } });
    await first.append("s", [text("OAuth with PKCE for sign-in")]);
    await first.embeddings?.idle();
    await first.close();

    const resized = openStore({
      path: file,
      embeddings: { model: createSynonymEmbeddingModel({ dimensions: 32 }), ...quiet },
    });
    // A query vector of another dimension falls back to word search, saying why (issue 46).
    const fallback = await resized.search("s", { query: "login", mode: "hybrid" });
    expect(fallback.embeddings).toMatchObject({ status: "unavailable", dimensions: 64 });
    expect(fallback.embeddings?.message).toMatch(/query's vector has 32 dimensions/);
    await resized.close();

    const other = createSynonymEmbeddingModel({ modelId: "other-128", dimensions: 128 });
    const switched = openStore({ path: file, embeddings: { model: other, ...quiet } });
    const early = await switched.search("s", { query: "login", mode: "hybrid" });
    expect(early.embeddings?.pendingRows).toBe(1);
    await switched.embeddings?.idle();
    const late = await switched.search("s", { query: "login", mode: "semantic" });
    expect(late.hits.map((hit) => hit.row.seq)).toEqual([1]);
    expect(late.embeddings).toMatchObject({ model: "test:other-128", dimensions: 128, pendingRows: 0 });
    await switched.close();
  });

  it("a read-only open searches the stored vectors and writes none", async () => {
    const file = newPath();
    const model = createSynonymEmbeddingModel();
    const writer = openStore({ path: file, embeddings: { model, ...quiet } });
    await writer.append("s", [text("PKCE sign-in")]);
    await writer.embeddings?.idle();
    await writer.append("s", [text("deploy on friday")]);
    await writer.close();
    const reader = openStore({ path: file, readOnly: true, embeddings: { model, ...quiet } });
    const page = await reader.search("s", { query: "authentication", mode: "semantic" });
    expect(page.hits.map((hit) => hit.row.seq)).toContain(1);
    await reader.embeddings?.idle();
    expect(await reader.embeddings?.pendingRows("s")).toBeGreaterThanOrEqual(0);
    await expect(reader.embeddings?.backfill()).rejects.toThrow(/read-only/);
    await reader.close();
  });

  it("refuses a model that is not an embedding model object", () => {
    try {
      openStore({ backend: "memory", embeddings: { model: "openai:text-embedding-3-small" as never } });
      expect.unreachable();
    } catch (error) {
      expect(StoreOptionsError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/not a string id/);
    }
  });
});

describe("fuseRankings", () => {
  it("puts rows both rankings hold first and keeps rows only one holds", () => {
    expect(
      fuseRankings([
        [12, 7],
        [7, 30],
      ]),
    ).toEqual([7, 12, 30]);
    expect(fuseRankings([[], [5, 4]])).toEqual([5, 4]);
  });
});
