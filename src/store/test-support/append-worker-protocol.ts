/**
 * What the parent test and the append worker (a real child process) say to each other.
 *
 * The worker opens the store, prints `ready`, and waits for a `go` line on stdin, so a test can
 * start every child before any of them writes. Each acknowledged append is printed as
 * `committed <batch> <firstSeq> <lastSeq>` with a synchronous write, after the append returned:
 * a line the parent has read is a write the store has confirmed.
 */

export type AppendWorkerMode =
  /** 500 single-row appends and 50 batches of 10, interleaved (a batch after every 10 singles). */
  | "interleaved"
  /** Batches of random size 1–20 in a loop, until stdin closes or `maxBatches` is reached. */
  | "batches"
  /** One small batch, then one huge batch (`hugeRows` rows of `hugeRowChars` characters). */
  | "huge"
  /**
   * One append of `rowCount` rows with `operationId` (and `expectLastSeq`); prints
   * `result <json>`. With `holdAfterwards` it then waits, without closing the store, to be killed.
   */
  | "retry";

export interface AppendWorkerConfig {
  mode: AppendWorkerMode;
  /** SQLite file; ignored when `url` is given. */
  path: string;
  /** A PostgreSQL server to append to instead of a SQLite file, and its schema. */
  url?: string;
  schema?: string;
  /** Append calls of the interleaved mode (default 550: 500 singles and 50 batches of 10). */
  interleavedCalls?: number;
  /**
   * Batches mode: give every batch its batch name as operationId, and when the server is
   * unreachable or the connection is lost, print `retry <batch> <error name>` and append the same
   * batch again (with the same operationId) until it is acknowledged.
   */
  retryLostConnections?: boolean;
  sessionId: string;
  /** Label of this worker, written into every row's metadata. */
  worker: string;
  seed?: number;
  durability?: "full" | "normal";
  maxBatches?: number;
  hugeRows?: number;
  hugeRowChars?: number;
  operationId?: string;
  expectLastSeq?: number;
  rowCount?: number;
  holdAfterwards?: boolean;
  /** Open the store only after `go` (to have several processes create a new file at once). */
  openAfterGo?: boolean;
}

/** What `retry` mode prints after its append. */
export interface RetryResult {
  seqs: number[];
  ids: string[];
  lastSeq: number;
}

export function parseRetryResult(line: string): RetryResult | undefined {
  return line.startsWith("result ") ? (JSON.parse(line.slice("result ".length)) as RetryResult) : undefined;
}

export interface CommittedLine {
  batch: string;
  firstSeq: number;
  lastSeq: number;
}

export const READY_LINE = "ready";
export const GO_LINE = "go";
/** Printed from inside the huge append's transaction (the store's `now` is called there). */
export const HUGE_WRITING_LINE = "huge-writing";

export function formatCommitted({ batch, firstSeq, lastSeq }: CommittedLine): string {
  return `committed ${batch} ${firstSeq} ${lastSeq}`;
}

export function parseCommitted(line: string): CommittedLine | undefined {
  const match = /^committed (\S+) (\d+) (\d+)$/.exec(line);
  if (match === null) return undefined;
  return { batch: match[1] as string, firstSeq: Number(match[2]), lastSeq: Number(match[3]) };
}

/** The PostgreSQL `application_name` of a worker's connections (crash-loop waits for them to end). */
export const workerApplicationName = (worker: string): string => `ctxwin-test-${worker}`;
