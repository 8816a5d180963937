import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openStore } from "../../store/open-store.js";
import { reply, text } from "../../store/test-support/conformance-rows.js";
import { createSynonymEmbeddingModel } from "../../store/test-support/synonym-embedding-model.js";
import { permissiveInputSchema } from "./input-schema.js";
import { executeSessionHistory, sessionHistoryTool } from "./session-history-tool.js";

const rows = [
  text("Which identity approach should we use?"),
  reply("We'll keep OAuth with PKCE for sign-in."),
  text("Pick a teal palette."),
];

describe("session_history hybrid search", () => {
  it("is offered, and described, only when the store has an embedding model", async () => {
    const plain = openStore({ backend: "memory" });
    const embedded = openStore({
      backend: "memory",
      embeddings: { model: createSynonymEmbeddingModel(), onWarning: () => undefined },
    });
    expect(JSON.stringify(z.toJSONSchema(permissiveInputSchema()))).not.toContain("hybrid");
    expect(JSON.stringify(z.toJSONSchema(permissiveInputSchema({ hybrid: true })))).toContain("hybrid");
    expect(sessionHistoryTool({ store: plain, sessionId: "s" }).description).not.toContain("hybrid");
    expect(sessionHistoryTool({ store: embedded, sessionId: "s" }).description).toContain(
      "mode 'hybrid' also finds items by meaning",
    );
    await plain.close();
    await embedded.close();
  });

  it("finds by meaning what ranked search misses, and says when word search answered alone", async () => {
    const store = openStore({
      backend: "memory",
      embeddings: { model: createSynonymEmbeddingModel(), onWarning: () => undefined },
    });
    await store.append("s", rows);
    await store.embeddings?.idle();
    const ranked = await executeSessionHistory({
      store,
      sessionId: "s",
      input: { action: "search", query: "login decision", mode: "ranked" },
    });
    expect(ranked.ok && ranked.action === "search" ? ranked.hits.map((hit) => hit.item_id) : null).toEqual([]);
    const hybrid = await executeSessionHistory({
      store,
      sessionId: "s",
      input: { action: "search", query: "login decision", mode: "hybrid", limit: 1 },
    });
    expect(hybrid.ok && hybrid.action === "search" ? hybrid.hits.map((hit) => hit.item_id) : null).toEqual(["2"]);
    expect(hybrid.ok && hybrid.action === "search" ? hybrid.next : null).toEqual({ offset: 1 });
    await store.close();

    const plain = openStore({ backend: "memory" });
    await plain.append("s", rows);
    const fallback = await executeSessionHistory({
      store: plain,
      sessionId: "s",
      input: { action: "search", query: "teal", mode: "hybrid" },
    });
    expect(fallback.ok && fallback.action === "search" ? fallback.note : null).toMatch(/without an embedding model/);
    await plain.close();
  });
});
