/**
 * `npm run bench -- startup` (issue 49): what starting ctxwin costs, each figure a ratio against a
 * baseline measured interleaved in the same run (new node processes, several rounds, medians).
 * - `ctxwin mcp` answering `initialize`, then `tools/list`, against a bare MCP SDK stdio server
 *   with one tool (bench/startup/bare-mcp-server.mjs). Goal: within 1.5×.
 * - `ctxwin --version` and `ctxwin --help` against `node -e 0`. Goal: within 3×.
 * - `import("ctxwin")` against `import("ai")`, time and peak resident memory (the child's
 *   `process.resourceUsage().maxRSS`, bench/startup/import-module.mjs). Goal: 2× time, 1.6× memory.
 * Each figure also comes as CPU time (user + system, from /usr/bin/time when present): on a
 * loaded shared machine the wall times wait for a core, the CPU times much less.
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
  /** User + system CPU time of the child (NaN without /usr/bin/time). */
  cpuMs: number;
  stdout: string;
}

const TIME_BINARY = "/usr/bin/time";
const CPU_MARK = "startup-bench-cpu";

/** Spawns `node ...args`, through /usr/bin/time when present (its line on stderr gives the CPU time). */
function spawnNode(args: readonly string[], stdin: "ignore" | "pipe") {
  const [command, prefix] = existsSync(TIME_BINARY)
    ? [TIME_BINARY, ["-f", `${CPU_MARK} %U %S`, process.execPath]]
    : [process.execPath, []];
  const child = spawn(command, [...prefix, ...args], { cwd: repositoryRoot, stdio: [stdin, "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const cpuMs = () => {
    const line = stderr.split("\n").find((text) => text.startsWith(CPU_MARK));
    if (line === undefined) return Number.NaN;
    const [user, system] = line.split(" ").slice(1).map(Number);
    return ((user ?? Number.NaN) + (system ?? Number.NaN)) * 1000;
  };
  const otherStderr = () =>
    stderr
      .split("\n")
      .filter((text) => !text.startsWith(CPU_MARK))
      .join("\n")
      .trim();
  return { child, cpuMs, otherStderr };
}

/** Runs `node ...args` to its end: wall time from spawn to exit, CPU time, and its stdout. */
function runNode(args: readonly string[]): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const { child, cpuMs, otherStderr } = spawnNode(args, "ignore");
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (status) => {
      if (status === 0) resolve({ ms: performance.now() - started, cpuMs: cpuMs(), stdout });
      else reject(new Error(`node ${args.join(" ")} exited with ${status}: ${otherStderr()}`));
    });
  });
}

interface Handshake {
  initialize: number;
  toolsList: number;
  /** CPU time of the whole process, which exits when the client closes stdin after `tools/list`. */
  cpuMs: number;
}

/**
 * Starts an MCP stdio server (`node ...args`) and talks to it as a client does: `initialize`, then
 * `notifications/initialized` and `tools/list`. Times from spawn to each answer; then closes stdin.
 */
function handshake(args: readonly string[]): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const { child, cpuMs, otherStderr } = spawnNode(args, "pipe");
    const send = (message: object) => child.stdin!.write(`${JSON.stringify(message)}\n`);
    let buffered = "";
    let initialize = Number.NaN;
    let toolsList = Number.NaN;
    child.stdout!.on("data", (chunk: Buffer) => {
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
          if ((message.result?.tools?.length ?? 0) === 0)
            reject(new Error(`${args.join(" ")}: tools/list answered no tools`));
          child.stdin!.end();
        }
      }
    });
    child.on("error", reject);
    child.on("close", () => {
      if (Number.isNaN(toolsList))
        reject(new Error(`${args.join(" ")} closed before answering tools/list: ${otherStderr()}`));
      else resolve({ initialize, toolsList, cpuMs: cpuMs() });
    });
    const clientInfo = { name: "startup-bench", version: "1.0.0" };
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo },
    });
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

    const [bare, mcp] = await interleaved([
      () => handshake([bareServer]),
      () => handshake([binary, "mcp", "--db", database]),
    ]);
    const [node, version, help] = await interleaved([
      () => runNode(["-e", "0"]),
      () => runNode([binary, "--version"]),
      () => runNode([binary, "--help"]),
    ]);
    const [ai, ctxwin] = await interleaved([
      () => runNode([importProbe, "ai"]),
      () => runNode([importProbe, "ctxwin"]),
    ]);

    const peakOf = (runs: ProcessRun[]) => median(runs.map((probe) => Number(probe.stdout.trim().split("\n").at(-1))));
    const msOf = (runs: ProcessRun[]) => median(runs.map((probe) => probe.ms));
    const cpuOf = (runs: { cpuMs: number }[]) => median(runs.map((probe) => probe.cpuMs));
    const figures = [
      {
        what: "`ctxwin mcp`: `initialize` answered",
        value: median(mcp!.map((answer) => answer.initialize)),
        baseline: median(bare!.map((answer) => answer.initialize)),
        baselineName: "bare MCP server",
        cpu: [cpuOf(mcp!), cpuOf(bare!)],
        target: 1.5,
      },
      {
        what: "`ctxwin mcp`: `tools/list` answered",
        value: median(mcp!.map((answer) => answer.toolsList)),
        baseline: median(bare!.map((answer) => answer.toolsList)),
        baselineName: "bare MCP server",
        cpu: [cpuOf(mcp!), cpuOf(bare!)],
        target: 1.5,
      },
      {
        what: "`ctxwin --version`",
        value: msOf(version!),
        baseline: msOf(node!),
        baselineName: "node -e 0",
        cpu: [cpuOf(version!), cpuOf(node!)],
        target: 3,
      },
      {
        what: "`ctxwin --help`",
        value: msOf(help!),
        baseline: msOf(node!),
        baselineName: "node -e 0",
        cpu: [cpuOf(help!), cpuOf(node!)],
        target: 3,
      },
      {
        what: '`import("ctxwin")`: time',
        value: msOf(ctxwin!),
        baseline: msOf(ai!),
        baselineName: 'import("ai")',
        cpu: [cpuOf(ctxwin!), cpuOf(ai!)],
        target: 2,
      },
    ];
    const peak = { value: peakOf(ctxwin!), baseline: peakOf(ai!) };

    console.log(
      `${ROUNDS} rounds each, medians; baselines interleaved with what they measure; CPU: user + system of the process`,
    );
    console.log("| what | ctxwin | baseline | ratio | CPU ctxwin / baseline | CPU ratio | goal |");
    console.log("|---|---|---|---|---|---|---|");
    for (const { what, value, baseline, baselineName, cpu, target } of figures) {
      const [cpuValue = Number.NaN, cpuBaseline = Number.NaN] = cpu;
      const cpuText = `${formatMs(cpuValue)} / ${formatMs(cpuBaseline)}`;
      console.log(
        `| ${what} | ${formatMs(value)} | ${baselineName} ${formatMs(baseline)} | ` +
          `${formatRatio(value / baseline)} | ${cpuText} | ${formatRatio(cpuValue / cpuBaseline)} | ≤ ${target}× |`,
      );
    }
    console.log(
      `| \`import("ctxwin")\`: peak memory | ${formatMb(peak.value)} | ` +
        `import("ai") ${formatMb(peak.baseline)} | ${formatRatio(peak.value / peak.baseline)} | | | ≤ 1.6× |`,
    );
    console.log("");
    for (const { what, value, baseline, target } of figures)
      goal(what.replaceAll("`", ""), value / baseline, "<=", target, formatRatio);
    goal('import("ctxwin"): peak memory', peak.value / peak.baseline, "<=", 1.6, formatRatio);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
