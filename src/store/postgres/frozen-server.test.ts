/**
 * Issue 34: a frozen PostgreSQL server (every process stopped with SIGSTOP, its sockets still
 * open) must not leave a store call waiting forever. A call on an open connection fails once the
 * client-side query timeout passes (by default the statement timeout plus a grace), a call that
 * must connect fails once the connect timeout passes; both with the typed errors of a server that
 * went away. Once the server runs again, the same store works. Runs on a cluster of its own, so
 * that freezing it disturbs no other test file.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findPostgresBinaries, startPostgresCluster, type PostgresCluster } from "../../../test/postgres-cluster.js";
import type { RowInput } from "../../core/row.js";
import { StoreConnectionLostError, StoreUnavailableError } from "../errors.js";
import { openStore, type PostgresOpenOptions } from "../open-store.js";
import type { HistoryStore } from "../port.js";
import { postgresUnavailable } from "../test-support/postgres-database.js";

vi.setConfig({ testTimeout: 120_000 });

/** Far beyond every deadline the test configures; only a call that hangs reaches it. */
const GENEROUS_BOUND_MS = 45_000;
const text = (value: string): RowInput => ({ role: "user", parts: [{ type: "text", text: value }] });

/** The error `call` fails with; fails the test if it answers, or hangs past the generous bound. */
async function failureOf(call: Promise<unknown>): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the store call got no answer within ${GENEROUS_BOUND_MS} ms`)),
      GENEROUS_BOUND_MS,
    );
  });
  try {
    await Promise.race([call, hung]);
  } catch (error) {
    return error;
  } finally {
    clearTimeout(timer);
  }
  throw new Error("the store call answered although the server is frozen");
}

const hitsOf = async (store: HistoryStore) =>
  (await store.search("s", { query: "6543", mode: "literal" })).hits.map((hit) => hit.row.seq);

describe.skipIf(postgresUnavailable !== "" || findPostgresBinaries() === undefined)(
  "postgres store, frozen server",
  () => {
    let cluster: PostgresCluster;
    const opened: HistoryStore[] = [];
    const open = (options: Omit<PostgresOpenOptions, "url">) => {
      const store = openStore({ url: cluster.url, ...options });
      opened.push(store);
      return store;
    };
    beforeAll(async () => {
      cluster = await startPostgresCluster();
    });
    afterAll(async () => {
      cluster.thaw();
      for (const store of opened) await store.close();
      cluster.stop();
    });

    it("fails calls with typed errors within the deadlines, and works again once the server runs", async () => {
      // The default client-side deadline: the statement timeout plus a grace.
      const byStatementTimeout = open({ statementTimeoutMs: 1_000 });
      // An explicit one, even with no server-side statement timeout.
      const byQueryTimeout = open({ statementTimeoutMs: 0, queryTimeoutMs: 1_000 });
      await byStatementTimeout.append("s", [text("the staging database listens on port 6543")]);
      expect(await hitsOf(byQueryTimeout)).toEqual([1]);
      // Never connected: its first call must connect to the frozen server.
      const connecting = open({ connectTimeoutMs: 1_000 });

      cluster.freeze();
      let failures: unknown[];
      try {
        failures = await Promise.all([
          failureOf(hitsOf(byStatementTimeout)),
          failureOf(hitsOf(byQueryTimeout)),
          failureOf(connecting.lastSeq("s")),
        ]);
      } finally {
        cluster.thaw();
      }

      const [statementTimeoutFailure, queryTimeoutFailure, connectFailure] = failures;
      // An open connection that stops answering is given up (StoreConnectionLostError); the pool
      // may have closed an idle one already, and then the call connects (StoreUnavailableError).
      for (const failure of [statementTimeoutFailure, queryTimeoutFailure]) {
        expect(
          StoreConnectionLostError.isInstance(failure) || StoreUnavailableError.isInstance(failure),
          String(failure),
        ).toBe(true);
        expect((failure as Error).message).toContain(`127.0.0.1:${cluster.port}`);
      }
      expect(StoreUnavailableError.isInstance(connectFailure), String(connectFailure)).toBe(true);

      expect(await hitsOf(byStatementTimeout)).toEqual([1]);
      expect(await hitsOf(byQueryTimeout)).toEqual([1]);
      expect(await connecting.lastSeq("s")).toBe(1);
      expect((await byStatementTimeout.append("s", [text("after the thaw")]))[0]?.seq).toBe(2);
    });
  },
);
