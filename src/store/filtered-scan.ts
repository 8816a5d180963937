/**
 * The page of a search that reads candidate rows one by one (ADR 0033, 0051): rows come newest
 * first (literal) or in ranked order, each with its hit when it holds the query and passes the
 * role / tool-name filter; the scan stops when the page and one more hit are found, or, for a
 * literal search, after `LITERAL_SCAN_LIMIT` rows. Most candidates of a literal search are hits,
 * but not always: with a filter that few matches pass, or a query whose trigrams or words are
 * common while the query itself is rare (or has no trigram at all), a call could otherwise read
 * every row of the session. Stopping early keeps one call's cost bounded: the page says where to
 * resume (`resumeBeforeSeq`).
 */
import type { SearchPage } from "./port.js";

/** Most candidate rows one literal search reads before it stops and says where to resume (ADR 0033, 0051). */
export const LITERAL_SCAN_LIMIT = 1_000;

export interface FilteredScan<T> {
  /** Takes the scan's next row: its hit when it passes the filter (and the query), else `undefined`. Returns true when the scan must stop. */
  take(seq: number, hit: T | undefined): boolean;
  /**
   * The page so far; call once the scan stopped or ran out of rows. `readTo`: the rows below this
   * seq were not read (the source of the rows stopped at its own bound), so a page not yet full
   * resumes there.
   */
  page(readTo?: number): Omit<SearchPage, "hits"> & { hits: T[] };
}

/**
 * @example
 * const scan = filteredScan<SearchHit>({ offset: 0, limit: 10, scanLimit: FILTER_SCAN_LIMIT });
 * for (const row of newestFirst) if (scan.take(row.seq, passes(row) ? hitOf(row) : undefined)) break;
 * return scan.page();
 */
export function filteredScan<T>({
  offset,
  limit,
  scanLimit,
}: {
  offset: number;
  limit: number;
  scanLimit: number;
}): FilteredScan<T> {
  const hits: T[] = [];
  let passed = 0;
  let examined = 0;
  let lastSeq: number | undefined;
  let state: "scanning" | "full" | "bounded" = "scanning";
  return {
    take(seq, hit) {
      examined += 1;
      lastSeq = seq;
      if (hit !== undefined) {
        passed += 1;
        if (passed > offset) {
          if (hits.length === limit) {
            state = "full";
            return true;
          }
          hits.push(hit);
        }
      }
      if (examined >= scanLimit) {
        state = "bounded";
        return true;
      }
      return false;
    },
    page(readTo) {
      if (state === "full") return { hits, hasMore: true };
      if (state === "bounded" && lastSeq !== undefined) return { hits, hasMore: true, resumeBeforeSeq: lastSeq };
      if (readTo !== undefined) return { hits, hasMore: true, resumeBeforeSeq: readTo };
      return { hits, hasMore: false };
    },
  };
}
