/**
 * `search` and `windows` of a fork (ADR 0059). The fork's own rows are all newer than its origin's,
 * so newest-first results are the fork's hits, then the origin's. Ranked by relevance, the best
 * hits of both parts are scored again together with BM25 over those hits.
 */
import { bm25Scorer, termCounts } from "../../core/bm25.js";
import { rankedQueryWords, stemWord, tokenizeWords } from "../../core/search-query.js";
import { renderSearchText } from "../../core/search-text.js";
import { windowIdFor } from "../../core/windows.js";
import { MAX_PAGE_LIMIT, checkSearchOptions, checkWindowsOptions } from "../options.js";
import type { SearchHit, SearchOptions, SearchPage, WindowPage, WindowsOptions } from "../port.js";
import { aboveFloor, asForkRow, originRange } from "./fork-view.js";
import type { ForkReadContext } from "./fork-items.js";

export async function forkSearch(
  { raw, composed, view }: ForkReadContext,
  options: SearchOptions,
): Promise<SearchPage> {
  const checked = checkSearchOptions(view.sessionId, options);
  const range = await originRange(composed, view, checked.includeCleared);
  if (range === undefined) return raw.search(view.sessionId, options);
  const originOptions = (beforeSeq: number, limit: number): SearchOptions => ({
    ...options,
    beforeSeq,
    includeCleared: range.includeCleared,
    offset: 0,
    limit,
  });
  const originPart = (page: SearchPage) => {
    const { kept, cut } = aboveFloor(page.hits, range, (hit) => hit.row.seq);
    const hits = kept.map((hit) => ({ ...hit, row: asForkRow(view, hit.row) }));
    return { hits, hasMore: page.hasMore && !cut, resumeBeforeSeq: cut ? undefined : page.resumeBeforeSeq };
  };
  const originSearch = async (beforeSeq: number, limit: number) =>
    originPart(await composed.search(view.originId, originOptions(beforeSeq, limit)));
  const end = checked.offset + checked.limit;
  const wanted = Math.min(end, MAX_PAGE_LIMIT);
  const pageOf = (hits: readonly SearchHit[], hasMore: boolean, resumeBeforeSeq: number | undefined): SearchPage => ({
    hits: hits.slice(checked.offset, end),
    hasMore: hasMore || hits.length > end,
    ...(resumeBeforeSeq === undefined ? {} : { resumeBeforeSeq }),
  });
  if (checked.beforeSeq !== undefined && checked.beforeSeq <= view.atSeq + 1) {
    const origin = await originSearch(checked.beforeSeq, wanted);
    return pageOf(origin.hits, origin.hasMore, origin.resumeBeforeSeq);
  }
  const ownOptions = { ...options, offset: 0, limit: wanted };
  // A backend that reads both parts at once, for an origin that is no fork (ranked: one index walk).
  const both =
    checked.mode === "ranked" &&
    raw.searchParts !== undefined &&
    (await raw.lineageOf(view.originId))?.forkOf === undefined
      ? await raw.searchParts([
          { sessionId: view.sessionId, options: ownOptions },
          { sessionId: view.originId, options: originOptions(view.atSeq + 1, wanted) },
        ])
      : undefined;
  const own = both?.[0] ?? (await raw.search(view.sessionId, ownOptions));
  if (own.hasMore || own.resumeBeforeSeq !== undefined) return pageOf(own.hits, own.hasMore, own.resumeBeforeSeq);
  const bothOrigin = both?.[1];
  const origin = bothOrigin === undefined ? await originSearch(view.atSeq + 1, wanted) : originPart(bothOrigin);
  const newestFirst = checked.mode === "literal" || checked.order === "newest";
  const merged = newestFirst
    ? [...own.hits, ...origin.hits]
    : byRelevance(checked.query, [...own.hits, ...origin.hits]);
  return pageOf(merged, origin.hasMore, origin.resumeBeforeSeq);
}

/**
 * `hits` ordered by BM25 over themselves (their own terms; the weights of the two parts' indexes
 * are not comparable), newest first among equal scores.
 */
function byRelevance(query: string, hits: readonly SearchHit[]): SearchHit[] {
  const words = rankedQueryWords(query);
  const queried = new Set(words);
  // A text repeats its words: each is stemmed once; only the query's terms are counted (BM25 reads no other).
  const stems = new Map<string, string>();
  const stemOf = (word: string) => {
    let stem = stems.get(word);
    if (stem === undefined) stems.set(word, (stem = stemWord(word)));
    return stem;
  };
  const rows = hits.map((hit) => {
    const own = tokenizeWords(renderSearchText(hit.row)).map(stemOf);
    return {
      hit,
      counts: termCounts({ own: own.filter((term) => queried.has(term)), context: [] }),
      length: own.length,
    };
  });
  const score = bm25Scorer({
    words,
    rows: rows.length,
    terms: rows.reduce((sum, row) => sum + row.length, 0),
    wordRows: (word) => rows.filter((row) => row.counts.has(word)).length,
  });
  return rows
    .map((row) => ({ hit: row.hit, score: score(row) }))
    .sort((left, right) => right.score - left.score || right.hit.row.seq - left.hit.row.seq)
    .map((entry) => entry.hit);
}

/** The fork's own windows (from the window holding `atSeq` on), then the origin's older ones. */
export async function forkWindows(
  { raw, composed, view }: ForkReadContext,
  options: WindowsOptions,
): Promise<WindowPage> {
  const checked = checkWindowsOptions(view.sessionId, options);
  const own = await raw.windows(view.sessionId, options);
  const range = await originRange(composed, view, checked.includeCleared);
  if (range === undefined) return own;
  const lowestOwn = Math.min(...own.windows.map((window) => window.boundarySeq), Number.MAX_SAFE_INTEGER);
  const before = Math.min(checked.beforeWindowSeq ?? Number.MAX_SAFE_INTEGER, view.atSeq + 1, lowestOwn);
  const remaining = checked.limit - own.windows.length;
  const origin = await composed.windows(view.originId, {
    beforeWindow: windowIdFor(before),
    includeCleared: range.includeCleared,
    limit: Math.max(1, remaining),
  });
  // The origin's window holding atSeq is the fork's own first window record, already listed.
  const older = origin.windows.filter((window) => window.boundarySeq < lowestOwn || own.windows.length === 0);
  const { kept, cut } = aboveFloor(older, range, (window) => window.boundarySeq + 1);
  const inherited = kept
    .filter((window) => window.boundarySeq <= view.atSeq)
    .map((window) => ({ ...window, active: false }));
  if (remaining <= 0) return { windows: own.windows, hasMore: own.hasMore || inherited.length > 0 };
  return {
    windows: [...own.windows, ...inherited.slice(0, remaining)],
    hasMore: inherited.length > remaining || (origin.hasMore && !cut),
  };
}
