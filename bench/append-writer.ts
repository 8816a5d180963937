/**
 * One writer process of the append-throughput benchmark: opens the store named by its JSON
 * argument, prints `ready`, waits for a line on stdin, appends `appends` single rows of about 500
 * characters to its own session, prints `done`, and exits. Run with `node --import tsx`.
 */
import { createInterface } from "node:readline";
import { openStore } from "../src/store/open-store.js";
import { createSeededRandom } from "../src/store/test-support/seeded-random.js";
import { contentRow } from "../src/store/test-support/synthetic-transcript.js";

export interface AppendWriterConfig {
  store: { path: string } | { url: string; schema: string };
  sessionId: string;
  appends: number;
  seed: number;
}

const config = JSON.parse(process.argv[2] ?? "{}") as AppendWriterConfig;
const store = openStore(config.store);
const random = createSeededRandom(config.seed);
const text = "lorem ipsum dolor sit amet, consectetur adipiscing elit ".repeat(9).slice(0, 500);
// Connect (and check the schema) before the start signal, as a long-running agent process would have.
await store.lastSeq(config.sessionId);
console.log("ready");
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once("line", () => resolve()));
for (let index = 0; index < config.appends; index += 1) {
  await store.append(config.sessionId, [contentRow(`${index} ${text}`, random, index)]);
}
await store.close();
console.log("done");
