/**
 * `ctxwin doctor` reports a healthy store's embeddings after its health line (ADR 0063), with a
 * model's last stored failure, in process; the status itself is tested in store/embeddings/embedding-status.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../store/open-store.js";
import { text } from "../../store/test-support/conformance-rows.js";
import { createSynonymEmbeddingModel } from "../../store/test-support/synonym-embedding-model.js";
import { registerDoctorCommand } from "./doctor-command.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** `ctxwin doctor --db <file> …argv` in-process: what it printed. */
async function runDoctor(file: string, argv: string[]): Promise<string> {
  let stdout = "";
  const program = new Command().exitOverride();
  registerDoctorCommand({ program, output: { stdout: (chunk) => (stdout += chunk), stderr: () => undefined } });
  await program.parseAsync(["node", "ctxwin", "doctor", "--db", file, ...argv]);
  return stdout;
}

describe("ctxwin doctor embeddings", () => {
  it("is part of ctxwin doctor's report, as text and as JSON", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "ctxwin-doctor-embeddings-"));
    folders.push(folder);
    const file = path.join(folder, "ctxwin.db");
    const store = openStore({ path: file });
    await store.append("a", [text("hello")]);
    await store.close();
    const run = (argv: string[]) => runDoctor(file, argv);
    const previousExitCode = process.exitCode;
    try {
      expect(await run([])).toMatch(/^No damage found in .*\nEmbeddings: none stored/);
      expect(JSON.parse(await run(["--json"]))).toMatchObject({
        condition: "healthy",
        embeddings: { vectors: false, models: [] },
      });
    } finally {
      process.exitCode = previousExitCode;
    }
  });

  it("names a model's last embedding failure and what to do, until the model embeds again", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "ctxwin-doctor-embeddings-"));
    folders.push(folder);
    const file = path.join(folder, "ctxwin.db");
    const failing = createSynonymEmbeddingModel({
      fault: () => {
        throw new Error("401 Incorrect API key provided");
      },
    });
    const broken = openStore({
      path: file,
      embeddings: { model: failing, retryDelaysMs: [], onWarning: () => undefined },
    });
    await broken.append("a", [text("hello"), text("OAuth sign-in")]);
    await broken.embeddings?.idle();
    await broken.close();
    const run = (argv: string[]) => runDoctor(file, argv);
    const previousExitCode = process.exitCode;
    try {
      const failed = await run([]);
      expect(failed).toContain(
        "test:synonyms-64 (no vectors yet): 0 row(s) embedded in 0 vector(s), 2 row(s) pending.",
      );
      expect(failed).toMatch(
        /Last embedding failure \(.*, 1 failed call\(s\) in a row\): .*401 Incorrect API key provided/,
      );
      expect(failed).toMatch(
        /check the model id, its API key .*--embedding-base-url, then run 'ctxwin embed --embedding-model/,
      );
      expect(JSON.parse(await run(["--json"]))).toMatchObject({
        embeddings: { models: [{ model: "test:synonyms-64", pendingRows: 2, lastFailure: { consecutive: 1 } }] },
      });

      const fixed = openStore({
        path: file,
        embeddings: { model: createSynonymEmbeddingModel(), onWarning: () => undefined },
      });
      await fixed.embeddings?.backfill();
      await fixed.close();
      const healthy = await run([]);
      expect(healthy).toContain(
        "test:synonyms-64 (64 dimensions): 2 row(s) embedded in 2 vector(s), 0 row(s) pending.",
      );
      expect(healthy).not.toMatch(/failure/i);
    } finally {
      process.exitCode = previousExitCode;
    }
  });
});
