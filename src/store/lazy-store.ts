/**
 * A store whose heavier layers load on its first call (ADR 0078): `openStore` stays synchronous
 * while the PostgreSQL store and the embeddings layer are imported only by the processes that open
 * them. The load starts when the store is opened; every call waits for it, and a load that failed
 * rejects every call with its error (`close` still releases what was opened).
 */
import type { HistoryStore, StoreDiagnostics } from "./port.js";

export interface LazyStoreOptions {
  backend: HistoryStore["backend"];
  /** Starts loading the store; called once, at once. */
  load: () => Promise<HistoryStore>;
  /** What `diagnostics()` answers until the store has loaded (no `embeddings` figures yet). */
  diagnostics: () => StoreDiagnostics;
  /** `provider:modelId` of the embedding model, when the store is opened with one. */
  embeddingModel?: string;
  /** Releases what was opened synchronously when the load fails (the SQLite file). */
  closeOnFailure?: () => Promise<void>;
}

type AsyncMethod = {
  [K in keyof HistoryStore]-?: HistoryStore[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof HistoryStore];

const FORWARDED = [
  "append",
  "activeWindow",
  "windows",
  "items",
  "read",
  "readHits",
  "search",
  "searchSessions",
  "lastSeq",
  "privacyFloor",
  "sessions",
  "session",
  "fork",
  "attachParent",
  "deleteSession",
] as const satisfies readonly Exclude<AsyncMethod, "close">[];

/**
 * @example
 * const store = lazyStore({ backend: "postgres", load: () => import("./x.js").then((m) => m.open()), diagnostics });
 */
export function lazyStore(options: LazyStoreOptions): HistoryStore {
  const loading = options.load();
  let loaded: HistoryStore | undefined;
  // A failure is reported by the calls that wait for it; never as an unhandled rejection.
  loading.then(
    (store) => (loaded = store),
    () => undefined,
  );

  const store: Record<string, unknown> = { backend: options.backend };
  for (const name of FORWARDED) {
    store[name] = async (...args: unknown[]) => {
      const inner = await loading;
      return (inner[name] as (...given: unknown[]) => Promise<unknown>)(...args);
    };
  }
  store["diagnostics"] = () => loaded?.diagnostics() ?? options.diagnostics();
  store["close"] = async () => {
    let inner: HistoryStore;
    try {
      inner = await loading;
    } catch {
      await options.closeOnFailure?.();
      return;
    }
    await inner.close();
  };
  if (options.embeddingModel !== undefined) {
    const embeddings = async () => {
      const control = (await loading).embeddings;
      if (control === undefined) throw new Error("lazyStore: the loaded store has no embeddings control");
      return control;
    };
    store["embeddings"] = {
      model: options.embeddingModel,
      idle: async () => (await embeddings()).idle(),
      backfill: async (given?: Parameters<NonNullable<HistoryStore["embeddings"]>["backfill"]>[0]) =>
        (await embeddings()).backfill(given),
      pendingRows: async (sessionId: string) => (await embeddings()).pendingRows(sessionId),
    };
  }
  return store as unknown as HistoryStore;
}
