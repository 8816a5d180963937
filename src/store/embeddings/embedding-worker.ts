/**
 * The background embedder (ADR 0063). Appends only name the session in a queue; one loop embeds
 * queued sessions after their rows committed, in batches, oldest rows first, from the progress
 * mark the index keeps. A failing provider is retried with backoff, then reported (a warning,
 * `diagnostics()`) and left until the session is touched again; it never reaches an append.
 */
import type { EmbeddingDiagnostics, EmbeddingFailure, EmbeddingProgress, HistoryStore, StoredRow } from "../port.js";
import { embedTexts, embeddingModelId, type EmbeddingModelInput } from "./embed-texts.js";
import { EmbeddingProviderError } from "./embedding-errors.js";
import { embeddingChunksOf } from "./embedding-text.js";
import type { StoredVector, VectorIndex } from "./vector-index.js";

export interface EmbeddingWorkerOptions {
  /** The store the rows are read from (without the embedding layer). */
  store: HistoryStore;
  index: VectorIndex;
  model: EmbeddingModelInput;
  /** Texts per provider call (default 64). */
  batchSize?: number;
  maxChunkChars?: number;
  /** Waits before each retry of a failed call (default 1 s, 4 s, 16 s); then the session waits for its next append. */
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** Writes nothing (read-only store): the queue is never worked. */
  readOnly?: boolean;
  onWarning: (message: string) => void;
  sleep?: (milliseconds: number) => Promise<void>;
  /** The clock of stored failures (default the system's). */
  now?: () => Date;
}

export interface EmbeddingWorker {
  schedule(sessionId: string): void;
  idle(): Promise<void>;
  /** Embeds `sessionId` up to its last row now; throws when the provider keeps failing. */
  catchUp(sessionId: string, onRows?: (rows: number) => void): Promise<number>;
  pendingRows(sessionId: string): Promise<number>;
  diagnostics(): EmbeddingDiagnostics;
  close(): Promise<void>;
}

const defaultSleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** @example const worker = createEmbeddingWorker({ store, index, model, onWarning: console.warn }) */
export function createEmbeddingWorker({
  store,
  index,
  model,
  batchSize = 64,
  maxChunkChars,
  retryDelaysMs = [1_000, 4_000, 16_000],
  timeoutMs = 30_000,
  readOnly = false,
  onWarning,
  sleep = defaultSleep,
  now = () => new Date(),
}: EmbeddingWorkerOptions): EmbeddingWorker {
  const modelId = embeddingModelId(model);
  const queue = new Set<string>();
  let running: Promise<void> | undefined;
  let closed = false;
  const known = index.dimensionsOf(modelId);
  const counters = {
    embeddedRows: 0,
    providerCalls: 0,
    failures: 0,
    lastError: undefined as string | undefined,
    dimensions: known instanceof Promise ? undefined : known,
  };
  // PostgreSQL answers later: diagnostics show the stored dimension once it is known.
  if (known instanceof Promise)
    void known.then((dimensions) => (counters.dimensions ??= dimensions)).catch(() => undefined);
  const failures = trackFailures({ index, modelId, readOnly, onWarning, now });

  /** One provider call with retries; the last failure is thrown. */
  async function embedWithRetries(texts: string[]) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const result = await embedTexts({ model, texts, dimensions: await index.dimensionsOf(modelId), timeoutMs });
        counters.providerCalls += result.calls;
        counters.dimensions = result.dimensions;
        return result;
      } catch (error) {
        counters.providerCalls += 1;
        counters.failures += 1;
        counters.lastError = error instanceof Error ? error.message : String(error);
        await failures.record(counters.lastError);
        const delay = retryDelaysMs[attempt];
        if (delay === undefined || closed) throw error;
        await sleep(delay);
      }
    }
  }

  /**
   * The session's progress mark for this model; 0 when it has none or the session was recreated.
   * A fork starts after `atSeq`: the rows it shares are its origin's, embedded once under the origin's id.
   */
  async function startOf(
    sessionId: string,
  ): Promise<{ afterSeq: number; incarnation: string; lastSeq: number } | undefined> {
    const summary = await store.session(sessionId);
    if (summary === undefined) return undefined;
    const progress = await index.progress(sessionId, modelId);
    const mark = progress !== undefined && progress.incarnation === summary.incarnation ? progress.throughSeq : 0;
    return {
      afterSeq: Math.max(mark, summary.forkOf?.atSeq ?? 0),
      incarnation: summary.incarnation,
      lastSeq: summary.lastSeq,
    };
  }

  /** Embeds one batch of the session's rows after its progress mark; the rows embedded, or `undefined` when none were left. */
  async function embedBatch(sessionId: string): Promise<number | undefined> {
    const start = await startOf(sessionId);
    if (start === undefined || start.afterSeq >= start.lastSeq) return undefined;
    const page = await store.items(sessionId, { afterSeq: start.afterSeq, limit: batchSize });
    const texts: string[] = [];
    const owners: { seq: number; chunk: number }[] = [];
    let throughSeq = start.afterSeq;
    for (const row of page.rows) {
      const chunks = embeddingChunksOf(row as StoredRow, maxChunkChars === undefined ? {} : { maxChunkChars });
      if (texts.length > 0 && texts.length + chunks.length > batchSize) break;
      chunks.forEach((text, chunk) => {
        texts.push(text);
        owners.push({ seq: row.seq, chunk });
      });
      throughSeq = row.seq;
    }
    // Nothing above the privacy floor (or past the page): the mark moves to what was read.
    if (page.rows.length === 0) throughSeq = start.lastSeq;
    let vectors: StoredVector[] = [];
    let dimensions = await index.dimensionsOf(modelId);
    if (texts.length > 0) {
      const result = await embedWithRetries(texts);
      dimensions = result.dimensions;
      vectors = result.vectors.map((vector, position) => ({
        ...(owners[position] as { seq: number; chunk: number }),
        vector,
      }));
    }
    if (dimensions === undefined) {
      if (page.rows.length === 0) return undefined;
      // Rows without text before any vector: one tiny call learns the model's dimension, so the mark can move past them.
      dimensions = (await embedWithRetries(["ctxwin"])).dimensions;
    }
    try {
      await index.write({ sessionId, incarnation: start.incarnation, model: modelId, dimensions, throughSeq, vectors });
    } catch (error) {
      await failures.record(error instanceof Error ? error.message : String(error));
      throw error;
    }
    await failures.clear();
    const rows = countRows(page.rows, throughSeq);
    counters.embeddedRows += rows;
    return rows;
  }

  const countRows = (rows: readonly { seq: number }[], throughSeq: number) =>
    rows.filter((row) => row.seq <= throughSeq).length;

  async function catchUp(sessionId: string, onRows?: (rows: number) => void): Promise<number> {
    let total = 0;
    let previous = -1;
    for (;;) {
      if (closed) return total;
      const before = (await index.progress(sessionId, modelId))?.throughSeq ?? -1;
      const rows = await embedBatch(sessionId);
      if (rows === undefined) return total;
      const after = (await index.progress(sessionId, modelId))?.throughSeq ?? -1;
      // No progress (only text-less rows before the first vector): stop rather than spin.
      if (after === before && after === previous) return total;
      previous = after;
      total += rows;
      onRows?.(rows);
    }
  }

  async function work(): Promise<void> {
    while (queue.size > 0 && !closed) {
      const sessionId = queue.values().next().value as string;
      queue.delete(sessionId);
      try {
        await catchUp(sessionId);
      } catch (error) {
        const reason =
          EmbeddingProviderError.isInstance(error) || error instanceof Error ? error.message : String(error);
        if (!closed) onWarning(`embedding session '${sessionId}' paused until its next append: ${reason}`);
      }
    }
  }

  /**
   * Starts the loop unless it runs. A session queued after the loop's last look at the queue but
   * before `running` is cleared (the loop's end settles a few ticks later) starts it again here,
   * so that no queued session waits for another append and `idle()` waits for it too.
   */
  function start(): void {
    if (running !== undefined || closed) return;
    running = work().finally(() => {
      running = undefined;
      if (queue.size > 0) start();
    });
  }

  return {
    schedule(sessionId) {
      if (closed || readOnly) return;
      queue.add(sessionId);
      start();
    },
    async idle() {
      while (running !== undefined) await running;
    },
    catchUp,
    async pendingRows(sessionId) {
      const start = await startOf(sessionId);
      return start === undefined ? 0 : Math.max(0, start.lastSeq - start.afterSeq);
    },
    diagnostics() {
      return {
        model: modelId,
        dimensions: counters.dimensions,
        index: index.kind,
        embeddedRows: counters.embeddedRows,
        providerCalls: counters.providerCalls,
        failures: counters.failures,
        ...(counters.lastError === undefined ? {} : { lastError: counters.lastError }),
        ...(failures.last() === undefined ? {} : { lastFailure: failures.last() }),
        queuedSessions: queue.size,
        ...(index.cacheBytes === undefined ? {} : { cacheBytes: index.cacheBytes() }),
      };
    },
    async close() {
      closed = true;
      queue.clear();
      while (running !== undefined) await running;
    },
  };
}

export type { EmbeddingProgress };

/**
 * The model's last failure, stored in the index (ADR 0063, amended 2026-12-06) so that another
 * process sees it: read once when the worker starts, recorded on each failed provider call or
 * vector write, cleared by the next embedded batch (one write per process start or failure, not per batch).
 */
function trackFailures({
  index,
  modelId,
  readOnly,
  onWarning,
  now,
}: {
  index: VectorIndex;
  modelId: string;
  readOnly: boolean;
  onWarning: (message: string) => void;
  now: () => Date;
}) {
  let last: EmbeddingFailure | undefined;
  // Another process may have stored one: the first success clears it.
  let mayBeStored = true;
  const stored = index.lastFailure?.(modelId);
  if (stored instanceof Promise) void stored.then((failure) => (last ??= failure)).catch(() => undefined);
  else last = stored;
  return {
    last: () => last,
    async record(message: string): Promise<void> {
      const at = now();
      last = { message, at: at.toISOString(), consecutive: (last?.consecutive ?? 0) + 1 };
      if (readOnly || index.recordFailure === undefined) return;
      mayBeStored = true;
      try {
        last = await index.recordFailure(modelId, { message, at });
      } catch (error) {
        onWarning(
          `could not store the embedding failure of ${modelId} for 'ctxwin doctor': ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
    async clear(): Promise<void> {
      last = undefined;
      if (!mayBeStored || readOnly || index.clearFailure === undefined) return;
      await index.clearFailure(modelId);
      mayBeStored = false;
    },
  };
}
