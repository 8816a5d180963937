/**
 * The PostgreSQL backend's connection pool (node-postgres `pg.Pool`, ADR 0035) and the one way
 * the store talks to it: each call runs in a transaction on one pooled connection, and failures
 * come back as typed store errors (`server-errors.ts`). The schema is checked (created, migrated)
 * on the first call, not in `openStore`, which stays synchronous. The driver itself is loaded on
 * that first call too (ADR 0037): a program that only uses SQLite never loads node-postgres.
 */
import type { ConnectionOptions } from "node:tls";
import type pg from "pg";
import { initializeSchema, type InitializeResult } from "./initialize.js";
import { describeServer, isQueryTimeout, toStoreError } from "./server-errors.js";

export interface ConnectionPoolOptions {
  url: string;
  schema: string;
  /** Passed to node-postgres as is: `true`, or Node `tls.connect` options (`ca`, `cert`, ...). */
  ssl?: boolean | ConnectionOptions | undefined;
  maxConnections: number;
  connectTimeoutMs: number;
  /** Server-side `statement_timeout` of every statement (ms; 0 = none). */
  statementTimeoutMs: number;
  /**
   * Client-side deadline of every statement (ms; 0 = none): a server that has not answered by
   * then (frozen, overloaded, unreachable without a reset) is given up and its connection closed.
   */
  queryTimeoutMs: number;
  /** Only check the schema (never create or migrate it), and run every transaction READ ONLY. */
  readOnly?: boolean | undefined;
}

/** 64-bit integers (seq, counts) as numbers; seqs stay far below 2^53. */
const int8 = 20;
const typesOf = (driver: typeof pg) => ({
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === int8 && format !== "binary"
      ? (value: string) => Number(value)
      : driver.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
});

/** Idle time before a connection's first TCP keepalive probe. */
const KEEPALIVE_DELAY_MS = 10_000;

let driverLoad: Promise<typeof pg> | undefined;
/** node-postgres, imported once per process on first use. */
const loadDriver = () => (driverLoad ??= import("pg").then((module) => module.default));

export interface TransactionOptions {
  /** The transaction writes: a lost connection leaves its outcome to be checked by a retry. */
  writing?: boolean;
  /** A read-only transaction whose statements all see one snapshot (REPEATABLE READ). */
  snapshot?: boolean;
}

export interface ConnectionPool {
  /** The server and schema, for messages (no password). */
  where: string;
  schema: InitializeResult;
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>, options?: TransactionOptions): Promise<T>;
  end(): Promise<void>;
}

/**
 * @example
 * const pool = createConnectionPool({
 *   url, schema: "ctxwin", maxConnections: 10, connectTimeoutMs: 10_000, statementTimeoutMs: 60_000, queryTimeoutMs: 65_000,
 * });
 * const count = await pool.transaction((client) => client.query("SELECT 1"));
 */
export function createConnectionPool(options: ConnectionPoolOptions): ConnectionPool {
  const where = `${describeServer(options.url)} (schema '${options.schema}')`;
  let created: Promise<pg.Pool> | undefined;
  let ended = false;
  const poolOf = () =>
    (created ??= loadDriver().then((driver) => {
      const pool = new driver.Pool({
        connectionString: options.url,
        ...(options.ssl === undefined ? {} : { ssl: options.ssl }),
        max: options.maxConnections,
        connectionTimeoutMillis: options.connectTimeoutMs,
        ...(options.statementTimeoutMs > 0 ? { statement_timeout: options.statementTimeoutMs } : {}),
        ...(options.queryTimeoutMs > 0 ? { query_timeout: options.queryTimeoutMs } : {}),
        // TCP keepalive: a connection to a host that vanished (not just a slow server) is noticed.
        keepAlive: true,
        keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
        types: typesOf(driver),
      });
      // An idle connection that the server closes (restart, idle timeout) is dropped by the pool
      // and reported here; the next call opens a new one, so there is nothing else to do with it.
      pool.on("error", () => undefined);
      return pool;
    }));
  let ready: Promise<InitializeResult> | undefined;
  let initialized: InitializeResult = { trigramIndex: false };

  async function connect(): Promise<pg.PoolClient> {
    const pool = await poolOf();
    try {
      return await pool.connect();
    } catch (error) {
      throw toStoreError(error, "connect", where);
    }
  }

  async function run<T>(
    work: (client: pg.PoolClient) => Promise<T>,
    { writing = false, snapshot = false }: TransactionOptions,
  ): Promise<T> {
    const client = await connect();
    let broken: Error | undefined;
    // The connection can die between statements (server restart, terminated backend); node-postgres
    // then emits 'error' on the client. Mark it broken: the next statement fails and is reported.
    const onError = (error: Error) => {
      broken = error;
    };
    client.on("error", onError);
    try {
      await client.query(
        snapshot
          ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
          : options.readOnly === true
            ? "BEGIN READ ONLY"
            : "BEGIN",
      );
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      if (isQueryTimeout(error)) {
        // The server did not answer in time: a ROLLBACK would wait as long again. Releasing the
        // connection as broken closes it; the server rolls the transaction back when it sees that.
        broken = error;
      } else {
        try {
          await client.query("ROLLBACK");
        } catch (rollbackError) {
          // The connection is gone (the server rolls the transaction back): drop it from the pool.
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        }
      }
      throw toStoreError(error, "call", where, { writing, queryTimeoutMs: options.queryTimeoutMs });
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  }

  function ensureSchema(): Promise<InitializeResult> {
    const readOnly = options.readOnly === true;
    ready ??= run((client) => initializeSchema(client, options.schema, where, { readOnly }), {
      writing: !readOnly,
    }).then(
      (result) => (initialized = result),
      (error: unknown) => {
        // Not cached: the next call tries again (the server may be back).
        ready = undefined;
        throw error;
      },
    );
    return ready;
  }

  return {
    where,
    get schema() {
      return initialized;
    },
    async transaction(work, transactionOptions = {}) {
      await ensureSchema();
      return run(work, transactionOptions);
    },
    async end() {
      if (ended) return;
      ended = true;
      // A driver that failed to load already failed the call that loaded it; closing has nothing to end.
      const pool = await created?.catch(() => undefined);
      await pool?.end();
    },
  };
}
