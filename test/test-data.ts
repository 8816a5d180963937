/**
 * The test data the repository does not ship (essays, transcripts the real CLIs wrote, the LoCoMo
 * dev split) lives in the folder `CTXWIN_TEST_DATA` names; `.ci/run` sets it. A test that needs it
 * asks `testData`: without it the test skips with a line naming the variable, and under `CI=true`
 * it fails instead, so CI never passes a data test it did not run.
 */
import { existsSync } from "node:fs";
import path from "node:path";

export const TEST_DATA_VARIABLE = "CTXWIN_TEST_DATA";

/**
 * `relative` inside the test-data folder: its absolute path when `CTXWIN_TEST_DATA` is set, else the
 * unresolved text `$CTXWIN_TEST_DATA/<relative>`, which names what to set in a "not found" message.
 *
 * @example const essays = process.env["CTXWIN_BENCH_HAYSTACK"] ?? testDataPath("haystack");
 */
export function testDataPath(relative: string, env: NodeJS.ProcessEnv = process.env): string {
  const root = env[TEST_DATA_VARIABLE];
  return root === undefined || root === "" ? `$${TEST_DATA_VARIABLE}/${relative}` : path.resolve(root, relative);
}

/**
 * The absolute path of `relative` in the test-data folder, or undefined after a warning that says what
 * was skipped and names the variable; throws that line instead under `CI=true`.
 *
 * @example
 * const transcripts = testData("transcripts", "the real transcripts' import test");
 * describe.skipIf(transcripts === undefined)("…", () => { … });
 */
export function testData(relative: string, what: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const root = env[TEST_DATA_VARIABLE];
  const location = testDataPath(relative, env);
  if (root !== undefined && root !== "" && existsSync(location)) return location;
  const reason = root === undefined || root === "" ? `${TEST_DATA_VARIABLE} is not set` : `${location} does not exist`;
  const line = `${what} needs '${relative}' from the test-data folder, and ${reason} (set ${TEST_DATA_VARIABLE} to that folder)`;
  if (env["CI"] === "true") throw new Error(line);
  console.warn(`skipped: ${line}.`);
  return undefined;
}
