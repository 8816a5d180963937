/**
 * ctxwin as a user installs it (issue 48): the package packed (`npm pack`, the built dist/), then
 * installed into a new project with `ai@7`, `@ai-sdk/provider@4` and `zod` from the registry (npm's
 * cache first), on the Node that runs the tests. The consumer's own TypeScript compiles against the
 * packed types (`result.ctxwin` typed) and its program runs `createContextAgent` on a
 * `MockLanguageModelV4`: generate, stream, and a rollover that reaches the UI stream as a
 * `data-ctxwin-rollover` part. Slow (an npm install): one test, run by `npm test`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const folder = mkdtempSync(path.join(tmpdir(), "ctxwin-consumer-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The consumer's program: every call of the face a user makes, printed as one JSON line. */
const program = `import { createContextAgent, openStore, type SendResult } from "ctxwin";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";

const usage = { inputTokens: { total: 900, noCache: 900, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const finish = (unified: "stop" | "tool-calls"): LanguageModelV4StreamPart => ({ type: "finish", finishReason: { unified, raw: undefined }, usage });
const answer = (text: string): LanguageModelV4StreamPart[] => [
  { type: "stream-start", warnings: [] },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: text },
  { type: "text-end", id: "t" },
  finish("stop"),
];
const askForNewContext: LanguageModelV4StreamPart[] = [
  { type: "stream-start", warnings: [] },
  { type: "tool-call", toolCallId: "call-1", toolName: "new_context", input: JSON.stringify({ note: "carry on" }) },
  finish("tool-calls"),
];
// The first request that mentions "roll" asks for a new window; every other one is answered in text.
let asked = false;
const model = new MockLanguageModelV4({
  provider: "mock",
  modelId: "m",
  doStream: async ({ prompt }) => {
    const ask = !asked && JSON.stringify(prompt).includes("roll");
    const parts = ask ? askForNewContext : answer(asked ? "after the rollover" : "hello back");
    asked ||= ask;
    return { stream: convertArrayToReadableStream(parts) };
  },
});
const agent = createContextAgent({
  store: openStore({ backend: "memory" }),
  sessionId: "s",
  model,
  instructions: "hi",
  tools: {},
  budget: { contextLimit: 100_000 },
  continuity: { newContextTool: true },
});

const generated = await agent.generate({ prompt: "hello" });
const generatedStatus: SendResult["status"] = generated.ctxwin.status;

const streamed = await agent.stream({ prompt: "hello again" });
const streamedText = await streamed.text;
const streamedStatus: SendResult["status"] = (await streamed.ctxwin).status;

const rolling = await agent.stream({ prompt: "roll" });
const types: string[] = [];
for await (const chunk of rolling.toUIMessageStream()) types.push(chunk.type);
const rolled: SendResult = await rolling.ctxwin;

console.log(JSON.stringify({
  generated: { text: generated.text, status: generatedStatus, outputTokens: generated.usage.outputTokens },
  streamed: { text: streamedText, status: streamedStatus },
  rolled: { status: rolled.status, rollovers: rolled.rollovers.length, text: rolled.text, rolloverPart: types.includes("data-ctxwin-rollover") },
}));
`;

/** Runs a command; a failure says what it printed. */
function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, npm_config_fund: "false", npm_config_audit: "false" },
    });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed:\n${stdout}\n${stderr}`, { cause: error });
  }
}

describe("the packed package in a consumer project on ai@7", () => {
  it("installs, compiles and runs createContextAgent with a v4 model: generate, stream, a rollover part, result.ctxwin typed", () => {
    // dist/ is built by the test setup (test/build-once.ts); packing does not build it again.
    run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", folder], root);
    const tarball = readdirSync(folder).find((file) => file.endsWith(".tgz"));
    expect(tarball).toBeDefined();
    const consumer = path.join(folder, "consumer");
    run("mkdir", ["-p", consumer], folder);
    writeFileSync(
      path.join(consumer, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }),
    );
    writeFileSync(
      path.join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          skipLibCheck: true,
          types: ["node"],
          outDir: "out",
        },
        files: ["main.ts"],
      }),
    );
    writeFileSync(path.join(consumer, "main.ts"), program);
    // Native builds are skipped: the program uses the memory store, and better-sqlite3 loads its addon only when opened.
    run(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--ignore-scripts",
        "--no-package-lock",
        path.join(folder, tarball!),
        "ai@7",
        "@ai-sdk/provider@4",
        "zod@4",
        "typescript@5.9",
        "@types/node@22",
      ],
      consumer,
    );
    expect(
      JSON.parse(run("node", ["-p", "JSON.stringify(require('ai/package.json').version)"], consumer)) as string,
    ).toMatch(/^7\./);

    run(process.execPath, [path.join(consumer, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], consumer);
    const output = JSON.parse(run(process.execPath, [path.join(consumer, "out/main.js")], consumer)) as {
      generated: { text: string; status: string; outputTokens: number };
      streamed: { text: string; status: string };
      rolled: { status: string; rollovers: number; text: string; rolloverPart: boolean };
    };
    expect(output.generated).toEqual({ text: "hello back", status: "completed", outputTokens: 5 });
    expect(output.streamed).toEqual({ text: "hello back", status: "completed" });
    expect(output.rolled).toEqual({
      status: "completed",
      rollovers: 1,
      text: "after the rollover",
      rolloverPart: true,
    });
  }, 600_000);
});
