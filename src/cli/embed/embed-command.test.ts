/**
 * `ctxwin embed` and `ctxwin history search --hybrid` in process, against a local
 * OpenAI-compatible embedding server on 127.0.0.1 reached through the real provider package.
 */
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../store/open-store.js";
import { reply, text } from "../../store/test-support/conformance-rows.js";
import { synonymVector } from "../../store/test-support/synonym-embedding-model.js";
import { registerHistoryCommand } from "../history/history-command.js";
import { registerEmbedCommand } from "./embed-command.js";

let server: Server;
let baseUrl: string;
const requests: string[][] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      const { input } = JSON.parse(body) as { input: string[] };
      requests.push(input);
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          object: "list",
          model: "synonyms",
          data: input.map((value, index) => ({ object: "embedding", index, embedding: synonymVector(value, 64) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve, reject) =>
    server.close((error) => (error === undefined ? resolve() : reject(error))),
  );
});

async function ctxwin(args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const output = {
    stdout: (chunk: string) => stdout.push(chunk),
    stderr: (chunk: string) => stderr.push(chunk),
    progressBar: false,
  };
  const program = new Command("ctxwin").exitOverride();
  registerEmbedCommand({ program, output });
  registerHistoryCommand({ program, output });
  process.exitCode = 0;
  await program.parseAsync(["node", "ctxwin", ...args]);
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { stdout: stdout.join(""), stderr: stderr.join(""), exitCode };
}

describe("ctxwin embed and history search --hybrid", () => {
  it("backfills once, resumes to nothing, and finds by meaning", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "ctxwin-embed-cli-"));
    const store = openStore({ directory: project });
    await store.append("s", [
      text("Which identity approach should we use?"),
      reply("We'll keep OAuth with PKCE for sign-in."),
      text("Pick a teal palette."),
    ]);
    await store.close();
    const flags = ["--embedding-model", "synonyms", "--embedding-base-url", baseUrl];

    const first = await ctxwin(["embed", "--dir", project, ...flags, "--json"]);
    expect(first.stderr).toBe("");
    expect(JSON.parse(first.stdout)).toMatchObject({
      model: "openai-compatible.embedding:synonyms",
      dimensions: 64,
      embeddedRows: 3,
      sessions: 1,
      providerCalls: 1,
    });
    const calls = requests.length;
    const second = await ctxwin(["embed", "--dir", project, ...flags, "--json"]);
    expect(JSON.parse(second.stdout)).toMatchObject({ embeddedRows: 0, providerCalls: 0 });
    expect(requests.length).toBe(calls);

    const hybrid = await ctxwin([
      "history",
      "search",
      "s",
      "login decision",
      "--hybrid",
      "--dir",
      project,
      ...flags,
      "--json",
    ]);
    expect(hybrid.exitCode).toBe(0);
    expect((JSON.parse(hybrid.stdout) as { item_id: string }[])[0]?.item_id).toBe("2");

    const without = await ctxwin(["history", "search", "s", "teal", "--hybrid", "--dir", project, "--json"]);
    expect(without.stderr).toMatch(/without an embedding model/);
    expect((JSON.parse(without.stdout) as { item_id: string }[]).map((hit) => hit.item_id)).toEqual(["3"]);

    const bad = await ctxwin(["embed", "--dir", project, "--embedding-model", "acme:thing"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--embedding-model must be openai:<id> or google:<id>/);
  });
});
