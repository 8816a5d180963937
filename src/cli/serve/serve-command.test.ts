import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { writeResultsFixture } from "../../eval/test-support/results-fixture.js";
import { registerServeCommand, type ServeHost } from "./serve-command.js";

const mainScript = path.resolve(import.meta.dirname, "../../../dist/cli/main.js");
const directories: string[] = [];

function temporaryDirectory(): string {
  const directory = mkdtempSync(path.join(tmpdir(), "ctxwin-serve-cli-"));
  directories.push(directory);
  return directory;
}

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** Runs `serve` in-process with a fake host; `stop()` plays SIGINT. */
function runInProcess(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let stop: (() => void) | undefined;
  let exitCode = 0;
  let printed!: () => void;
  const started = new Promise<void>((resolve) => {
    printed = resolve;
  });
  const host: ServeHost = {
    stdout: (line) => {
      stdout.push(line);
      printed();
    },
    stderr: (line) => {
      stderr.push(line);
      printed();
    },
    env,
    onStopSignal: (callback) => {
      stop = callback;
    },
    setExitCode: (code) => {
      exitCode = code;
    },
  };
  const program = new Command().exitOverride();
  registerServeCommand({ program, host });
  const finished = program.parseAsync(["node", "ctxwin", "serve", ...argv]);
  return { stdout, stderr, started, finished, stop: () => stop?.(), exitCode: () => exitCode };
}

describe("ctxwin serve (in process)", () => {
  it("prints one line with the loopback URL and token, serves the API, and stops on the signal", async () => {
    const directory = temporaryDirectory();
    const run = runInProcess(["--dir", directory, "--workspace", directory, "--demo-model"]);
    await run.started;
    expect(run.stderr).toEqual([]);
    expect(run.stdout).toHaveLength(1);
    const match = /^ctxwin serve: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+))$/.exec(run.stdout[0] ?? "");
    expect(match).not.toBeNull();
    const url = new URL(match![1]!);
    const info = await fetch(`${url.origin}/api/info`, {
      headers: { Authorization: `Bearer ${url.searchParams.get("token")}` },
    });
    expect(await info.json()).toMatchObject({ dir: directory, chat: { available: true, model: "demo", demo: true } });
    const settings = await fetch(`${url.origin}/api/settings?token=${url.searchParams.get("token")}`);
    expect(await settings.json()).toMatchObject({ contextLimit: 16_000 });
    run.stop();
    await run.finished;
    expect(run.exitCode()).toBe(0);
    await expect(fetch(`${url.origin}/api/info`)).rejects.toThrow();
  });

  it("refuses bad flags with one line and exit code 1", async () => {
    const directory = temporaryDirectory();
    const corrupt = path.join(directory, "corrupt.jsonl");
    writeFileSync(corrupt, '{"type":"item"}\n');
    const cases: Array<[string[], RegExp]> = [
      [["--dir", path.join(directory, "missing")], /^ctxwin serve: --dir .* is not a directory\.$/],
      [["--dir", directory, "--demo-model", "--model", "openai:gpt-4o"], /cannot be combined/],
      [["--dir", directory, "--model", "openai:gpt-4o"], /OPENAI_API_KEY/],
      [["--dir", directory, "--demo-model", "--context-limit", "lots"], /--context-limit/],
      [
        ["--dir", directory, "--embedding-model", "text-embedding-3-small"],
        /--embedding-model must be openai:<id> or google:<id>/,
      ],
      [
        ["--dir", directory, "--embedding-model", "openai:text-embedding-3-small"],
        /no API key for --embedding-model.*OPENAI_API_KEY/,
      ],
      [
        ["--dir", directory, "--embedding-base-url", "http://127.0.0.1:11434/v1"],
        /--embedding-base-url needs --embedding-model/,
      ],
      [
        ["--dir", directory, "--eval", path.join(directory, "missing.jsonl")],
        /^ctxwin serve: cannot read the results file .*missing\.jsonl: no such file\.$/,
      ],
      [
        ["--dir", directory, "--eval", corrupt],
        /^ctxwin serve: the results file .*corrupt\.jsonl is not a ctxwin eval results file \(no run line first\); pass the file ctxwin eval --out wrote\.$/,
      ],
    ];
    for (const [argv, expected] of cases) {
      const run = runInProcess(argv);
      await run.finished;
      expect(run.exitCode(), argv.join(" ")).toBe(1);
      expect(run.stderr, argv.join(" ")).toHaveLength(1);
      expect(run.stderr[0]).toMatch(expected);
      expect(run.stdout).toEqual([]);
    }
  });

  it("--eval serves the results file on /api/eval", async () => {
    const directory = temporaryDirectory();
    const results = path.join(directory, "results.jsonl");
    writeResultsFixture(results);
    const run = runInProcess(["--dir", directory, "--eval", results]);
    await run.started;
    expect(run.stderr).toEqual([]);
    const url = new URL((run.stdout[0] ?? "").replace(/^ctxwin serve: /, ""));
    const token = url.searchParams.get("token") ?? "";
    expect(await (await fetch(`${url.origin}/api/info?token=${token}`)).json()).toMatchObject({
      eval: { loaded: true, file: results },
    });
    expect(await (await fetch(`${url.origin}/api/eval?token=${token}`)).json()).toMatchObject({
      suites: ["continuity", "needle"],
    });
    run.stop();
    await run.finished;
    expect(run.exitCode()).toBe(0);
  });

  it("--embedding-model opens the store with the model and /api/info offers hybrid and semantic search", async () => {
    const directory = temporaryDirectory();
    // Nothing is sent before a search: the local server need not exist for the start.
    const run = runInProcess([
      "--dir",
      directory,
      "--embedding-model",
      "nomic-embed-text",
      "--embedding-base-url",
      "http://127.0.0.1:9/v1",
    ]);
    await run.started;
    expect(run.stderr).toEqual([]);
    const url = new URL((run.stdout[0] ?? "").replace(/^ctxwin serve: /, ""));
    const info = (await (
      await fetch(`${url.origin}/api/info?token=${url.searchParams.get("token") ?? ""}`)
    ).json()) as { search: unknown };
    expect(info.search).toEqual({
      modes: ["literal", "ranked", "hybrid", "semantic"],
      embeddingModel: expect.stringContaining("nomic-embed-text"),
    });
    run.stop();
    await run.finished;
    expect(run.exitCode()).toBe(0);
  });

  it("says so in one line when the port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = runInProcess(["--dir", temporaryDirectory(), "--port", String(port)]);
      await run.finished;
      expect(run.exitCode()).toBe(1);
      expect(run.stderr).toEqual([expect.stringMatching(/^ctxwin serve: the port is already in use/)]);
    } finally {
      blocker.close();
    }
  });
});

describe("node dist/cli/main.js serve (child process)", () => {
  it("prints the URL, answers with the token only, and exits 0 on SIGTERM", async () => {
    const directory = temporaryDirectory();
    const child = spawn(process.execPath, [mainScript, "serve", "--dir", directory, "--workspace", directory], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const line = await new Promise<string>((resolve, reject) => {
      let buffer = "";
      child.stdout.on("data", (chunk: Buffer) => {
        buffer += chunk.toString();
        const newline = buffer.indexOf("\n");
        if (newline >= 0) resolve(buffer.slice(0, newline));
      });
      child.on("exit", () => reject(new Error(`serve exited before printing its URL: ${stderr}`)));
    });
    const url = new URL(line.replace(/^ctxwin serve: /, ""));
    expect(url.hostname).toBe("127.0.0.1");
    const token = url.searchParams.get("token") ?? "";
    expect((await fetch(`${url.origin}/api/sessions`)).status).toBe(401);
    const sessions = await fetch(`${url.origin}/api/sessions`, { headers: { Authorization: `Bearer ${token}` } });
    expect(sessions.status).toBe(200);
    expect(await sessions.json()).toEqual({ sessions: [] });
    expect(await (await fetch(`${url.origin}/api/info?token=${token}`)).json()).toMatchObject({
      chat: { available: false },
    });
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
  });
});
