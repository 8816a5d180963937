/**
 * `ctxwin doctor` reports a healthy store's embeddings after its health line (ADR 0063), in
 * process; the status itself is tested in store/embeddings/embedding-status.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../store/open-store.js";
import { text } from "../../store/test-support/conformance-rows.js";
import { registerDoctorCommand } from "./doctor-command.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("ctxwin doctor embeddings", () => {
  it("is part of ctxwin doctor's report, as text and as JSON", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "ctxwin-doctor-embeddings-"));
    folders.push(folder);
    const file = path.join(folder, "ctxwin.db");
    const store = openStore({ path: file });
    await store.append("a", [text("hello")]);
    await store.close();
    const run = async (argv: string[]) => {
      let stdout = "";
      const program = new Command().exitOverride();
      registerDoctorCommand({ program, output: { stdout: (chunk) => (stdout += chunk), stderr: () => undefined } });
      await program.parseAsync(["node", "ctxwin", "doctor", "--db", file, ...argv]);
      return stdout;
    };
    const previousExitCode = process.exitCode;
    try {
      expect(await run([])).toMatch(/^No damage found in .*\nEmbeddings: none stored/);
      expect(JSON.parse(await run(["--json"]))).toMatchObject({ condition: "healthy", embeddings: { vectors: false, models: [] } });
    } finally {
      process.exitCode = previousExitCode;
    }
  });
});
