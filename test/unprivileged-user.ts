/**
 * Runs a command as a user whom file permissions apply to. Permissions do not stop root, and CI
 * runs the tests as root, so there a permission test runs its child as `nobody` through
 * `setpriv` (util-linux); any other user runs the child as itself. `UNPRIVILEGED_SKIP_REASON` says
 * why a test cannot run (root without `setpriv`, or a checkout `nobody` cannot read).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { REPOSITORY_ROOT } from "./test-workers.js";

const NOBODY = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"];
// Some systems call the group `nobody`.
const NOBODY_ALTERNATIVE = ["--reuid=nobody", "--regid=nobody", "--clear-groups"];

export interface UnprivilegedExit {
  status: number | null;
  stdout: string;
  stderr: string;
}

const isRoot = process.getuid?.() === 0;

/** The command prefix that drops root, chosen once; `[]` when not root. */
function findPrefix(): { prefix: string[] } | { reason: string } {
  if (!isRoot) return { prefix: [] };
  for (const flags of [NOBODY, NOBODY_ALTERNATIVE]) {
    // The probe also proves that `nobody` can read the checkout (its modules and package.json).
    const probe = spawnSync(
      "setpriv",
      [
        ...flags,
        process.execPath,
        "-e",
        "require('node:fs').accessSync(process.argv[1])",
        `${REPOSITORY_ROOT}/package.json`,
      ],
      {
        encoding: "utf8",
      },
    );
    if (probe.status === 0) return { prefix: ["setpriv", ...flags] };
  }
  return { reason: "running as root, and `setpriv` cannot run node as `nobody` over this checkout" };
}

const found = findPrefix();

/** Why a permission test cannot run here, or `undefined` when it can. */
export const UNPRIVILEGED_SKIP_REASON: string | undefined = "reason" in found ? found.reason : undefined;

/** Whether the child runs as another user (root dropping to `nobody`). */
export const RUNS_AS_OTHER_USER = isRoot;

/**
 * Runs `command args…` as an unprivileged user and collects its output.
 *
 * @example
 * const { status, stderr } = await runUnprivileged(process.execPath, [script], { cwd });
 */
export function runUnprivileged(
  command: string,
  args: readonly string[],
  options: { cwd?: string } = {},
): Promise<UnprivilegedExit> {
  return new Promise((resolve, reject) => {
    const child = spawnUnprivileged(command, args, options);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Starts `command args…` as an unprivileged user (`setpriv` replaces itself with the command, so
 * the child's pid is the command's), every stdio stream piped.
 *
 * @example
 * const child = spawnUnprivileged(process.execPath, [script]); child.kill("SIGTERM");
 */
export function spawnUnprivileged(
  command: string,
  args: readonly string[],
  { cwd = REPOSITORY_ROOT }: { cwd?: string } = {},
): ChildProcessWithoutNullStreams {
  if ("reason" in found) throw new Error(`cannot run as an unprivileged user: ${found.reason}`);
  const [program = command, ...prefixArgs] = [...found.prefix, command];
  return spawn(program, [...prefixArgs, ...args], { cwd, stdio: ["pipe", "pipe", "pipe"] });
}
