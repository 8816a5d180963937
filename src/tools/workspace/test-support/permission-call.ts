/**
 * Calls a workspace tool as a user whom file permissions apply to: in this process normally, and
 * in a child process run as `nobody` when the tests run as root (CI), since permissions do not
 * stop root. The workspace is made readable to that user, except what the test locked.
 */
import fs from "node:fs";
import { testWorkerBundle } from "../../../../test/test-workers.js";
import { RUNS_AS_OTHER_USER, UNPRIVILEGED_SKIP_REASON, runUnprivileged } from "../../../../test/unprivileged-user.js";
import { workspaceTools } from "../workspace-tools.js";
import { callTool } from "./workspace-fixture.js";

export { UNPRIVILEGED_SKIP_REASON };

/**
 * @example
 * const text = await callToolWithPermissions({ base, root, name: "read_file", input: { path: "locked.txt" } });
 */
export async function callToolWithPermissions({
  base,
  root,
  name,
  input,
}: {
  base: string;
  root: string;
  name: string;
  input: unknown;
}): Promise<string> {
  if (!RUNS_AS_OTHER_USER) return callTool(workspaceTools({ root }), name, input);
  // mkdtemp makes the base folder private to its owner.
  fs.chmodSync(base, 0o755);
  fs.chmodSync(root, 0o755);
  const bundle = testWorkerBundle("src/tools/workspace/test-support/call-tool-worker.ts");
  const result = await runUnprivileged(process.execPath, [bundle, JSON.stringify({ root, name, input })]);
  if (result.status !== 0)
    throw new Error(`the tool call as an unprivileged user failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout) as string;
}
