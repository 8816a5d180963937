/**
 * The built `ctxwin` binary running `chat` as a child process, driven through its stdin: write
 * lines, wait for output, send signals, end input, and collect what it printed and how it exited.
 * Provider variables of the test runner's environment are removed so that no test reaches a real
 * provider by accident.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
/** `dist/cli/main.js`, built by the vitest global setup (test/build-once.ts). */
export const CTXWIN_BINARY = path.join(repositoryRoot, "dist", "cli", "main.js");

const PROVIDER_VARIABLES = [
  ...["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"],
  ...["GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENERATIVE_AI_BASE_URL"],
  ...["CTXWIN_MODEL", "CTXWIN_BASE_URL", "CTXWIN_API_KEY", "NO_COLOR", "FORCE_COLOR"],
];

/** Longest wait for an expected output before a test fails with what was printed so far. */
const WAIT_LIMIT_MS = 30_000;

export interface ChatExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ChatProcess {
  /** Writes one line to stdin. */
  send(line: string): void;
  /** Closes stdin (end of input). */
  end(): void;
  kill(signal: NodeJS.Signals): void;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout (or stderr) matches; fails after a generous limit with both outputs. */
  waitFor(pattern: RegExp, stream?: "stdout" | "stderr"): Promise<void>;
  exited: Promise<ChatExit>;
}

/**
 * @example
 * const chat = startChat({ args: ["--model", "m", "--base-url", server.baseURL, "--context-limit", "16000"], cwd: project });
 * chat.send("hello"); chat.end();
 * const { code, stdout } = await chat.exited;
 */
export function startChat({
  args,
  cwd,
  env = {},
}: {
  args: string[];
  cwd: string;
  env?: Record<string, string>;
}): ChatProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of PROVIDER_VARIABLES) delete childEnv[name];
  const child = spawn(process.execPath, [CTXWIN_BINARY, "chat", ...args], {
    cwd,
    env: { ...childEnv, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    notify();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    notify();
  });
  // A chat that already exited no longer reads its input.
  child.stdin.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  let running = true;
  const exited = new Promise<ChatExit>((resolve, reject) => {
    child.once("error", (error) => {
      running = false;
      notify();
      reject(error);
    });
    child.once("close", (code, signal) => {
      running = false;
      notify();
      resolve({ code, signal, stdout, stderr });
    });
  });

  return {
    send: (line) => void child.stdin.write(`${line}\n`),
    end: () => void child.stdin.end(),
    kill: (signal) => void child.kill(signal),
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern, stream = "stdout") =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(stream === "stdout" ? stdout : stderr)) {
            finish();
            resolve();
          } else if (!running) {
            finish();
            reject(
              new Error(`the chat exited before ${stream} matched ${pattern}.\nstdout:\n${stdout}\nstderr:\n${stderr}`),
            );
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`${stream} did not match ${pattern}.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        }, WAIT_LIMIT_MS);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    exited,
  };
}
