/**
 * Runs the built `ctxwin` binary as a user would, asynchronously so the test worker stays
 * responsive while the child works.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const CTXWIN_BINARY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../dist/cli/main.js");

export interface CtxwinExit {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * @example
 * const { status, stderr } = await runCtxwin(["frobnicate"], { cwd: folder });
 */
export function runCtxwin(args: readonly string[], { cwd }: { cwd: string }): Promise<CtxwinExit> {
  return runProgram(process.execPath, [CTXWIN_BINARY, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
}

/**
 * Runs any program to its end with its output collected; `stdin` is written and closed (with no
 * `stdin`, the child's input stays open, as `runCtxwin`'s always did). `keepStdinOpen`: `stdin` is
 * written and the pipe never closed, as by a caller that forgets to.
 *
 * @example const { status } = await runProgram(process.execPath, [CTXWIN_BINARY, "hook", "session-start"], { cwd, env, stdin: "{}" });
 */
export function runProgram(
  program: string,
  args: readonly string[],
  {
    cwd,
    env,
    stdin,
    shell = false,
    keepStdinOpen = false,
  }: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string; shell?: boolean; keepStdinOpen?: boolean },
): Promise<CtxwinExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, env, shell });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
    if (stdin !== undefined && keepStdinOpen) child.stdin.write(stdin);
    else if (stdin !== undefined) child.stdin.end(stdin);
  });
}
