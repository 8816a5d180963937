/**
 * Vitest global setup: makes a real PostgreSQL server available to the tests as
 * `inject("postgresUrl")`.
 * - `CTXWIN_TEST_POSTGRES_URL` set: that server is used (tests create their own databases in it).
 * - Otherwise a throwaway cluster is started (test/postgres-cluster.ts) and stopped at the end.
 * - No server can be started: under `CI=true` the run fails; locally the PostgreSQL tests are
 *   skipped with the reason (`inject("postgresUnavailable")`).
 */
import type { TestProject } from "vitest/node";
import { startPostgresCluster } from "./postgres-cluster.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Server URL of a database the tests may create databases in; "" when unavailable. */
    postgresUrl: string;
    /** Why no server is available ("" when one is). */
    postgresUnavailable: string;
  }
}

export default async function postgresServer(project: TestProject): Promise<(() => void) | undefined> {
  const given = process.env["CTXWIN_TEST_POSTGRES_URL"];
  if (given !== undefined && given !== "") {
    project.provide("postgresUrl", given);
    project.provide("postgresUnavailable", "");
    return undefined;
  }
  try {
    const cluster = await startPostgresCluster();
    project.provide("postgresUrl", cluster.url);
    project.provide("postgresUnavailable", "");
    return () => cluster.stop();
  } catch (error) {
    const reason = `no PostgreSQL server for the tests: ${(error as Error).message}`;
    if (process.env["CI"] === "true")
      throw new Error(`${reason} (CI=true: a missing server fails the run)`, { cause: error });
    console.warn(`ctxwin tests: ${reason}; the PostgreSQL tests are skipped.`);
    project.provide("postgresUrl", "");
    project.provide("postgresUnavailable", reason);
    return undefined;
  }
}
