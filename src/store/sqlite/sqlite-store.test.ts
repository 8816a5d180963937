import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describeStoreConformance } from "../conformance.js";
import { openStore } from "../open-store.js";

describeStoreConformance("sqlite", (context) =>
  openStore({ path: path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-store-")), "ctxwin.db"), ...context }),
);
