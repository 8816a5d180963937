/**
 * The web API's hybrid and semantic search (ADR 0063): `/api/info` offers them only when the
 * server's store has an embedding model, a hybrid search finds a row by meaning that word search
 * misses, and a page says when rows are not embedded yet or word search answered alone. Over the
 * offline synonym model.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../store/open-store.js";
import type { HistoryStore } from "../store/port.js";
import { reply, text } from "../store/test-support/conformance-rows.js";
import { createSynonymEmbeddingModel } from "../store/test-support/synonym-embedding-model.js";
import { startServer, type RunningServer } from "./start-server.js";

const ROWS = [
  text("Which identity approach should we use?"),
  reply("We'll keep OAuth with PKCE for sign-in."),
  text("And the colours of the report page?"),
];

describe("web API hybrid search", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function serve(
    store: HistoryStore,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ server: RunningServer; get: (pathAndQuery: string) => Promise<{ status: number; body: any }> }> {
    const directory = mkdtempSync(path.join(tmpdir(), "ctxwin-hybrid-route-"));
    const server = await startServer({
      directory,
      store,
      webRoot: path.join(directory, "no-web-build"),
      log: () => undefined,
    });
    cleanups.push(async () => {
      await server.close();
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    });
    const get = async (pathAndQuery: string) => {
      const response = await fetch(`${server.origin}${pathAndQuery}`, {
        headers: { Authorization: `Bearer ${server.token}` },
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return { status: response.status, body: (await response.json()) as any };
    };
    return { server, get };
  }

  it("offers hybrid and semantic with an embedding model, and finds a row by meaning", async () => {
    const store = openStore({
      backend: "memory",
      embeddings: { model: createSynonymEmbeddingModel(), onWarning: () => undefined },
    });
    await store.append("s", ROWS);
    await store.embeddings?.idle();
    const { get } = await serve(store);

    expect((await get("/api/info")).body.search).toEqual({
      modes: ["literal", "ranked", "hybrid", "semantic"],
      embeddingModel: "test:synonyms-64",
    });
    // Word search cannot find the decision: it never says "login".
    expect((await get("/api/sessions/s/search?q=login%20decision&mode=ranked")).body).toEqual({ hits: [] });
    for (const mode of ["hybrid", "semantic"]) {
      const { status, body } = await get(`/api/sessions/s/search?q=login%20decision&mode=${mode}&limit=1`);
      expect(status, mode).toBe(200);
      expect(
        body.hits.map((hit: { seq: number }) => hit.seq),
        mode,
      ).toEqual([2]);
      expect(body.hits[0].snippet).toContain("OAuth with PKCE");
      expect(body.embeddings, mode).toEqual({
        status: "used",
        model: "test:synonyms-64",
        dimensions: 64,
        pendingRows: 0,
      });
    }
    // The filters still apply: no user row speaks of sign-in.
    const { body } = await get("/api/sessions/s/search?q=login%20decision&mode=semantic&role=user&limit=1");
    expect(body.hits.map((hit: { role: string }) => hit.role)).toEqual(["user"]);
  });

  it("says how many rows are not embedded yet", async () => {
    // The provider answers the query but fails every row batch: the rows stay pending.
    const model = createSynonymEmbeddingModel({
      fault: (_call, values) => {
        if (values.length === 1 && values[0] === "login decision") return undefined;
        throw new Error("provider down");
      },
    });
    const store = openStore({
      backend: "memory",
      embeddings: { model, onWarning: () => undefined, retryDelaysMs: [] },
    });
    await store.append("s", ROWS);
    await store.embeddings?.idle();
    const { get } = await serve(store);
    const { body } = await get("/api/sessions/s/search?q=login%20decision&mode=hybrid");
    expect(body.embeddings).toMatchObject({
      status: "used",
      pendingRows: 3,
      message: expect.stringContaining("3 row(s) of the searched range are not embedded yet"),
    });
  });

  it("without an embedding model offers words only, and answers hybrid with ranked word search, saying so", async () => {
    const store = openStore({ backend: "memory" });
    await store.append("s", ROWS);
    const { get } = await serve(store);
    expect((await get("/api/info")).body.search).toEqual({ modes: ["literal", "ranked"], embeddingModel: null });
    const { status, body } = await get("/api/sessions/s/search?q=PKCE&mode=hybrid");
    expect(status).toBe(200);
    expect(body.hits[0]).toMatchObject({ seq: 2, snippet: expect.stringContaining("PKCE") });
    expect(body.embeddings).toEqual({
      status: "unavailable",
      pendingRows: 0,
      message: expect.stringContaining("without an embedding model"),
    });
  });
});
