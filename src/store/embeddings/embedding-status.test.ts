/**
 * What `ctxwin doctor` reports of a store's embeddings: nothing stored, then per model the rows
 * embedded and pending, and whether sqlite-vec loads (ADR 0063). Over the offline synonym model.
 */
import { describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { reply, text } from "../test-support/conformance-rows.js";
import { createSynonymEmbeddingModel } from "../test-support/synonym-embedding-model.js";
import { describeEmbeddingStatus, embeddingStatus } from "./embedding-status.js";
import { temporaryDatabases } from "../test-support/temporary-database.js";

const temporaryDatabase = temporaryDatabases("ctxwin-embedding-status-");

async function storeFile(): Promise<string> {
  const file = temporaryDatabase();
  const store = openStore({ path: file });
  await store.append("a", [text("Which identity approach?"), reply("OAuth with PKCE for sign-in.")]);
  await store.append("b", [text("The deploy is slow.")]);
  await store.close();
  return file;
}

describe("embeddingStatus", () => {
  it("says when a store holds no vectors", async () => {
    const status = await embeddingStatus({ path: await storeFile() });
    expect(status).toEqual({ vectors: false, index: expect.stringMatching(/^(sqlite-vec|javascript)$/), models: [] });
    expect(describeEmbeddingStatus(status)[0]).toMatch(/^Embeddings: none stored \(hybrid search needs 'ctxwin embed/);
  });

  it("counts embedded and pending rows per model and dimension", async () => {
    const file = await storeFile();
    const store = openStore({
      path: file,
      embeddings: { model: createSynonymEmbeddingModel(), onWarning: () => undefined },
    });
    await store.embeddings?.backfill({ sessionIds: ["a"] });
    await store.close();
    const status = await embeddingStatus({ path: file });
    expect(status.vectors).toBe(true);
    expect(status.models).toEqual([
      { model: "test:synonyms-64", dimensions: 64, embeddedRows: 2, vectors: 2, pendingRows: 1 },
    ]);
    const lines = describeEmbeddingStatus(status);
    expect(lines[1]).toBe(
      "  test:synonyms-64 (64 dimensions): 2 row(s) embedded in 2 vector(s), 1 row(s) pending (fill with 'ctxwin embed --embedding-model …').",
    );
    expect(lines).toHaveLength(2);
  });

  it("names a model's last failure, kept in the file, until it embeds again", async () => {
    const file = await storeFile();
    const failing = createSynonymEmbeddingModel({
      fault: () => {
        throw new Error("Incorrect API key provided");
      },
    });
    const broken = openStore({
      path: file,
      embeddings: { model: failing, retryDelaysMs: [0], onWarning: () => undefined },
    });
    await expect(broken.embeddings?.backfill()).rejects.toThrow(/Incorrect API key/);
    await broken.close();
    const failed = await embeddingStatus({ path: file });
    expect(failed.models).toEqual([
      {
        model: "test:synonyms-64",
        embeddedRows: 0,
        vectors: 0,
        pendingRows: 3,
        lastFailure: {
          message: expect.stringMatching(/Incorrect API key provided/),
          at: expect.any(String),
          consecutive: 2,
        },
      },
    ]);
    const lines = describeEmbeddingStatus(failed);
    expect(lines[1]).toBe("  test:synonyms-64 (no vectors yet): 0 row(s) embedded in 0 vector(s), 3 row(s) pending.");
    expect(lines[2]).toMatch(
      /^ {4}Last embedding failure \(.+, 2 failed call\(s\) in a row\): .*Incorrect API key provided/,
    );
    expect(lines[3]).toMatch(/check the model id, its API key .* then run 'ctxwin embed --embedding-model/);

    const fixed = openStore({
      path: file,
      embeddings: { model: createSynonymEmbeddingModel(), onWarning: () => undefined },
    });
    await fixed.embeddings?.backfill();
    await fixed.close();
    const healthy = await embeddingStatus({ path: file });
    expect(healthy.models).toEqual([
      { model: "test:synonyms-64", dimensions: 64, embeddedRows: 3, vectors: 3, pendingRows: 0 },
    ]);
  });

  it("does not count a fork's shared rows as pending", async () => {
    const file = await storeFile();
    const store = openStore({
      path: file,
      embeddings: { model: createSynonymEmbeddingModel(), onWarning: () => undefined },
    });
    await store.embeddings?.backfill();
    await store.fork("a", { atSeq: 2, newSessionId: "f" });
    expect((await embeddingStatus({ path: file })).models[0]?.pendingRows).toBe(0);
    await store.close();
  });
});
