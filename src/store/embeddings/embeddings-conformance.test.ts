import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openStore } from "../open-store.js";
import { describeEmbeddingConformance } from "../test-support/conformance-embeddings.js";

const sqlitePath = () => path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-embed-")), "ctxwin.db");

describeEmbeddingConformance("memory", (embeddings) => openStore({ backend: "memory", embeddings }));
describeEmbeddingConformance("sqlite with sqlite-vec", (embeddings) => openStore({ path: sqlitePath(), embeddings }));
describeEmbeddingConformance("sqlite, vectors scored in JavaScript", (embeddings) =>
  openStore({
    path: sqlitePath(),
    embeddings: embeddings === undefined ? undefined : { ...embeddings, sqliteVec: false },
  }),
);
