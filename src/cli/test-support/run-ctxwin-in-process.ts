/**
 * Runs a `ctxwin` command line inside the test's own process, through the same command tree and
 * error handling as the executable (createProgram + runCommandLine), for the many cases of a
 * command that are about its flags, files and messages rather than the process boundary: a
 * spawned `node dist/cli/main.js` loads the whole program again for every case (about 1.5 s of CPU
 * each). Each command keeps at least one real spawn in its tests (run-ctxwin.ts).
 *
 * For the duration of the call: the working directory is `cwd` (vitest's default `forks` pool
 * allows `process.chdir`), stdout and stderr are captured and reported as not terminals, the
 * exit code starts unset, and with `env` whatever of the test's own environment would configure
 * ctxwin (`CTXWIN_*`, `*_API_KEY`, `*_BASE_URL`) is removed and `env` is set. Everything is restored
 * after, also when the command throws. Cases must run one after the other (vitest's default
 * within a file).
 */
import { runCommandLine } from "../command-line.js";
import { createProgram } from "../create-program.js";
import type { CtxwinExit } from "./run-ctxwin.js";

/** What ctxwin reads from the environment to pick a model or a store: `CTXWIN_*` and the providers' keys and base URLs. */
const CONFIGURING_VARIABLE = /^CTXWIN_|_(API_KEY|BASE_URL)$/;

/**
 * @example
 * const { status, stderr } = await runCtxwinInProcess(["eval", "--report", "missing.jsonl"], { cwd: folder });
 */
export async function runCtxwinInProcess(
  args: readonly string[],
  { cwd, env }: { cwd: string; env?: Record<string, string> },
): Promise<CtxwinExit> {
  const output = { stdout: "", stderr: "" };
  const restoreStreams = [
    captureStream(process.stdout, (text) => (output.stdout += text)),
    captureStream(process.stderr, (text) => (output.stderr += text)),
  ];
  const restoreEnvironment = env === undefined ? () => undefined : replaceProviderEnvironment(env);
  const previous = { cwd: process.cwd(), exitCode: process.exitCode };
  process.exitCode = undefined;
  process.chdir(cwd);
  try {
    const argv = ["node", "ctxwin", ...args];
    await runCommandLine(await createProgram({ argv }), argv);
    const code = process.exitCode;
    return { status: code === undefined ? 0 : Number(code), ...output };
  } finally {
    process.chdir(previous.cwd);
    process.exitCode = previous.exitCode;
    restoreEnvironment();
    for (const restore of restoreStreams) restore();
  }
}

/** Sends the stream's writes to `sink` and makes it report no terminal; returns the undo. */
function captureStream(stream: NodeJS.WriteStream, sink: (text: string) => void): () => void {
  const write = Object.getOwnPropertyDescriptor(stream, "write");
  const isTTY = Object.getOwnPropertyDescriptor(stream, "isTTY");
  const captured = (
    chunk: string | Uint8Array,
    encodingOrCallback?: BufferEncoding | ((error?: Error | null) => void),
    callback?: (error?: Error | null) => void,
  ): boolean => {
    sink(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    if (done !== undefined) queueMicrotask(() => done(null));
    return true;
  };
  Object.defineProperty(stream, "write", { value: captured, configurable: true, writable: true });
  Object.defineProperty(stream, "isTTY", { value: false, configurable: true, writable: true });
  return () => {
    restoreProperty(stream, "write", write);
    restoreProperty(stream, "isTTY", isTTY);
  };
}

function restoreProperty(target: object, key: string, descriptor: PropertyDescriptor | undefined): void {
  if (descriptor === undefined) Reflect.deleteProperty(target, key);
  else Object.defineProperty(target, key, descriptor);
}

/** Removes what would configure ctxwin from `process.env`, sets `env`; returns the undo. */
function replaceProviderEnvironment(env: Record<string, string>): () => void {
  const saved = { ...process.env };
  for (const name of Object.keys(process.env)) if (CONFIGURING_VARIABLE.test(name)) delete process.env[name];
  Object.assign(process.env, env);
  return () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  };
}
