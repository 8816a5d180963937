/**
 * Sessions form a tree (ADR 0059): `withLineage` gives a backend `fork`, and reads of a fork that
 * resolve its shared rows through its origin. Sessions that are no fork are read by the backend
 * directly, after one lookup of their lineage.
 */
import type { FloorOptions, HistoryStore, ItemsOptions, SearchOptions, WindowsOptions } from "../port.js";
import { checkReadHits } from "../options.js";
import { readHitsOneByOne } from "../read-hits.js";
import { crossSearch } from "../cross-search/cross-search.js";
import { createFork } from "./create-fork.js";
import { forkActiveWindow, forkItems, forkRead, type ForkReadContext } from "./fork-items.js";
import { forkSearch, forkWindows } from "./fork-search.js";
import type { ForkView } from "./fork-view.js";
import type { LineageBackend } from "./lineage-backend.js";
import { SessionHasForksError } from "./lineage-errors.js";

/**
 * @example
 * const store = withLineage(createMemoryBackend());
 * await store.fork("s1", { atSeq: 12, newSessionId: "s1-retry" });
 */
export function withLineage(raw: LineageBackend): HistoryStore {
  const {
    createFork: _createFork,
    lineageOf: _lineageOf,
    searchParts: _searchParts,
    searchScope: _searchScope,
    ...port
  } = raw;
  const contextOf = async (sessionId: string): Promise<ForkReadContext | undefined> => {
    const lineage = await raw.lineageOf(sessionId);
    if (lineage?.forkOf === undefined) return undefined;
    const view: ForkView = {
      sessionId,
      originId: lineage.forkOf.sessionId,
      atSeq: lineage.forkOf.atSeq,
      floorSeq: lineage.floorSeq,
    };
    return { raw, composed: store, view };
  };
  const store: HistoryStore = {
    ...port,
    async activeWindow(sessionId: string) {
      const context = await contextOf(sessionId);
      return context === undefined ? raw.activeWindow(sessionId) : forkActiveWindow(context);
    },
    async windows(sessionId: string, options: WindowsOptions = {}) {
      const context = await contextOf(sessionId);
      return context === undefined ? raw.windows(sessionId, options) : forkWindows(context, options);
    },
    async items(sessionId: string, options: ItemsOptions = {}) {
      const context = await contextOf(sessionId);
      return context === undefined ? raw.items(sessionId, options) : forkItems(context, options);
    },
    async read(sessionId: string, seq: number, options: FloorOptions = {}) {
      const context = await contextOf(sessionId);
      return context === undefined ? raw.read(sessionId, seq, options) : forkRead(context, seq, options);
    },
    async readHits(sessionId: string, seqs: readonly number[], options: FloorOptions = {}) {
      const context = await contextOf(sessionId);
      return context === undefined
        ? raw.readHits(sessionId, seqs, options)
        : readHitsOneByOne(store, sessionId, checkReadHits(sessionId, seqs), options);
    },
    async search(sessionId: string, options: SearchOptions) {
      const context = await contextOf(sessionId);
      return context === undefined ? raw.search(sessionId, options) : forkSearch(context, options);
    },
    searchSessions: (options, vectors) => crossSearch(raw, options, vectors),
    fork: (sessionId, options) => createFork(raw, store, sessionId, options),
    async deleteSession(sessionId: string) {
      const forks = await raw.sessions({ forkOfSessionId: sessionId });
      if (forks.length > 0)
        throw new SessionHasForksError(
          sessionId,
          forks.map((fork) => fork.sessionId),
        );
      return raw.deleteSession(sessionId);
    },
  };
  return store;
}
