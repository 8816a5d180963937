/**
 * `npm run bench -- startup` (issue 49): what starting ctxwin costs, each figure a ratio against a
 * baseline measured interleaved in the same run (new node processes, several rounds, medians).
 * - `ctxwin mcp` answering `initialize`, then `tools/list`, against a bare MCP SDK stdio server
 *   with one tool (bench/startup/bare-mcp-server.mjs). Goal: within 1.5×.
 * - `ctxwin --version` and `ctxwin --help` against `node -e 0`. Goal: within 3×.
 * - `import("ctxwin")` against `import("ai")`, time and peak resident memory (the child's
 *   `process.resourceUsage().maxRSS`, bench/startup/import-module.mjs). Goal: 2× time, 1.6× memory.
 * Needs `dist/` (`npm run build`); `--rounds n` sets the rounds (default 11).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { openStore } from "../src/store/open-store.js";
import { formatMs, formatRatio, goal, summarize } from "./measure.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const binary = path.join(repositoryRoot, "dist", "cli", "main.js");
const bareServer = path.join(repositoryRoot, "bench", "startup", "bare-mcp-server.mjs");
const importProbe = path.join(repositoryRoot, "bench", "startup", "import-module.mjs");
const roundsFlag = process.argv.indexOf("--rounds");
const ROUNDS = roundsFlag === -1 ? 11 : Number(process.argv[roundsFlag + 1]);

interface ProcessRun {
  ms: number;
  stdout: string;
}

/** Runs `node ...args` to its end: wall time from spawn to exit, and its stdout. */
function runNode(args: readonly string[]): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: repositoryRoot, stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (status) => {
      if (status === 0) resolve({ ms: performance.now() - started, stdout });
      else reject(new Error(`node ${args.join(" ")} exited with ${status}`));
    });
  });
}

interface Handshake {
  initialize: number;
  toolsList: number;
}

/**
 * Starts an MCP stdio server (`node ...args`) and talks to it as a client does: `initialize`, then
 * `notifications/initialized` and `tools/list`. Times from spawn to each answer; then closes stdin.
 */
function handshake(args: readonly string[]): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: repositoryRoot, stdio: ["pipe", "pipe", "inherit"] });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    let buffered = "";
    let initialize = Number.NaN;
    let toolsList = Number.NaN;
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let newline = buffered.indexOf("\n");
      while (newline !== -1) {
        const message = JSON.parse(buffered.slice(0, newline)) as { id?: number; result?: { tools?: unknown[] } };
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
        if (message.id === 1) {
          initialize = performance.now() - started;
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
        } else if (message.id === 2) {
          toolsList = performance.now() - started;
          if ((message.result?.tools?.length ?? 0) === 0) reject(new Error(`${args.join(" ")}: tools/list answered no tools`));
          child.stdin.end();
        }
      }
    });
    child.on("error", reject);
    child.on("close", () => {
      if (Number.isNaN(toolsList)) reject(new Error(`${args.join(" ")} closed before answering tools/list`));
      else resolve({ initialize, toolsList });
    });
    const clientInfo = { name: "startup-bench", version: "1.0.0" };
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo } });
  });
}

/** Runs each body once per round, the order reversed every other round; one warm-up round. */
async function interleaved<T>(bodies: readonly (() => Promise<T>)[]): Promise<T[][]> {
  const results = bodies.map((): T[] => []);
  for (let round = 0; round <= ROUNDS; round += 1) {
    const order = bodies.map((_body, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order) {
      const result = await bodies[index]!();
      if (round > 0) results[index]!.push(result);
    }
  }
  return results;
}

const median = (values: number[]) => summarize(values).p50;
const formatMb = (kilobytes: number) => `${(kilobytes / 1024).toFixed(0)} MB`;

export async function run(): Promise<void> {
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run 'npm run build' first.`);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-startup-"));
  try {
    const database = path.join(scratch, "ctxwin.db");
    const store = openStore({ path: database });
    await store.append("bench", [{ role: "user", parts: [{ type: "text", text: "hello" }] }]);
    await store.close();

    const [bare, mcp] = await interleaved([() => handshake([bareServer]), () => handshake([binary, "mcp", "--db", database])]);
    const [node, version, help] = await interleaved([
      () => runNode(["-e", "0"]),
      () => runNode([binary, "--version"]),
      () => runNode([binary, "--help"]),
    ]);
    const [ai, ctxwin] = await interleaved([() => runNode([importProbe, "ai"]), () => runNode([importProbe, "ctxwin"])]);

    const peakOf = (runs: ProcessRun[]) => median(runs.map((probe) => Number(probe.stdout.trim().split("\n").at(-1))));
    const msOf = (runs: ProcessRun[]) => median(runs.map((probe) => probe.ms));
    const bareInitialize = median(bare!.map((answer) => answer.initialize));
    const bareList = median(bare!.map((answer) => answer.toolsList));
    const mcpInitialize = median(mcp!.map((answer) => answer.initialize));
    const mcpList = median(mcp!.map((answer) => answer.toolsList));
    const nodeMs = msOf(node!);
    const importAi = { ms: msOf(ai!), peak: peakOf(ai!) };
    const importCtxwin = { ms: msOf(ctxwin!), peak: peakOf(ctxwin!) };

    console.log(`${ROUNDS} rounds each, medians; baselines interleaved with what they measure`);
    console.log(`| what | ctxwin | baseline | ratio | goal |`);
    console.log(`|---|---|---|---|---|`);
    const row = (what: string, value: string, baseline: string, ratio: number, target: number) =>
      console.log(`| ${what} | ${value} | ${baseline} | ${formatRatio(ratio)} | ≤ ${target}× |`);
    row("`ctxwin mcp`: `initialize` answered", formatMs(mcpInitialize), `bare MCP server ${formatMs(bareInitialize)}`, mcpInitialize / bareInitialize, 1.5);
    row("`ctxwin mcp`: `tools/list` answered", formatMs(mcpList), `bare MCP server ${formatMs(bareList)}`, mcpList / bareList, 1.5);
    row("`ctxwin --version`", formatMs(msOf(version!)), `node -e 0 ${formatMs(nodeMs)}`, msOf(version!) / nodeMs, 3);
    row("`ctxwin --help`", formatMs(msOf(help!)), `node -e 0 ${formatMs(nodeMs)}`, msOf(help!) / nodeMs, 3);
    row("`import(\"ctxwin\")`: time", formatMs(importCtxwin.ms), `import("ai") ${formatMs(importAi.ms)}`, importCtxwin.ms / importAi.ms, 2);
    const peakRatio = importCtxwin.peak / importAi.peak;
    row("`import(\"ctxwin\")`: peak memory", formatMb(importCtxwin.peak), `import("ai") ${formatMb(importAi.peak)}`, peakRatio, 1.6);
    console.log("");
    goal("ctxwin mcp initialize / bare MCP server", mcpInitialize / bareInitialize, "<=", 1.5, formatRatio);
    goal("ctxwin mcp tools/list / bare MCP server", mcpList / bareList, "<=", 1.5, formatRatio);
    goal("ctxwin --version / node -e 0", msOf(version!) / nodeMs, "<=", 3, formatRatio);
    goal("ctxwin --help / node -e 0", msOf(help!) / nodeMs, "<=", 3, formatRatio);
    goal('import("ctxwin") / import("ai"), time', importCtxwin.ms / importAi.ms, "<=", 2, formatRatio);
    goal('import("ctxwin") / import("ai"), peak memory', peakRatio, "<=", 1.6, formatRatio);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
