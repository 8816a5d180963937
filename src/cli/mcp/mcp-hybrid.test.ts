/**
 * The MCP server offers `mode: 'hybrid'` only over a store with an embedding model (ADR 0063),
 * and answers it by meaning; in process, over the SDK's in-memory transport.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import { reply, text } from "../../store/test-support/conformance-rows.js";
import { createSynonymEmbeddingModel } from "../../store/test-support/synonym-embedding-model.js";
import { createCtxwinMcpServer } from "./mcp-server.js";

async function connect(store: HistoryStore) {
  const server = createCtxwinMcpServer({ store, version: "0.0.0-test" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "0.0.0" });
  await client.connect(clientSide);
  return { client, close: async () => (await client.close(), await server.close()) };
}

describe("ctxwin mcp hybrid search", () => {
  it("advertises 'hybrid' only with an embedding model, and finds by meaning", async () => {
    const plain = openStore({ backend: "memory" });
    const plainMcp = await connect(plain);
    const plainSchema = JSON.stringify((await plainMcp.client.listTools()).tools[0]?.inputSchema);
    expect(plainSchema).not.toContain("hybrid");
    await plainMcp.close();
    await plain.close();

    const store = openStore({
      backend: "memory",
      embeddings: { model: createSynonymEmbeddingModel(), onWarning: () => undefined },
    });
    await store.append("s", [
      text("Which identity approach should we use?"),
      reply("We'll keep OAuth with PKCE for sign-in."),
    ]);
    await store.embeddings?.idle();
    const mcp = await connect(store);
    const [tool] = (await mcp.client.listTools()).tools;
    expect(JSON.stringify(tool?.inputSchema)).toContain("hybrid");
    expect(tool?.description).toContain("mode 'hybrid' also finds items by meaning");
    const result = await mcp.client.callTool({
      name: "session_history",
      arguments: { action: "search", session_id: "s", query: "login decision", mode: "hybrid", limit: 1 },
    });
    const answer = JSON.parse((result.content as { text: string }[])[0]?.text ?? "{}") as {
      hits: { item_id: string }[];
    };
    expect(answer.hits.map((hit) => hit.item_id)).toEqual(["2"]);
    await mcp.close();
    await store.close();
  });
});
