/**
 * The rows a cross-session page will show, read in the search's own transaction (ADR 0094): the
 * matches are put in the page's order as `crossSearch` does (by score or by session, each
 * session's hits capped), and the first `wantedSessions` shown hits that came without their row are
 * read in one statement. Without it, `crossSearch` reads them one session at a time, a read
 * transaction each (30 round trips for a page of ten sessions). A match left without its row is
 * still read there, so this only saves time.
 */
import { windowIdFor } from "../../core/windows.js";
import type { ScopeMatch, ScopeSearchRequest } from "../cross-search/cross-search.js";
import { ownersOf } from "../cross-search/search-scope.js";
import type { CrossSearchContext, FoundMatches, ScopeWalk } from "./cross-search.js";
import type { EncodedRow } from "./search.js";

/**
 * @example const matches = await withPageHits(context, request, walk, found);
 */
export async function withPageHits(
  { client, tables, decode }: CrossSearchContext,
  { order, hitsPerSession, wantedSessions }: ScopeSearchRequest,
  { scope, stored }: ScopeWalk,
  { matches, encoded }: FoundMatches,
): Promise<ScopeMatch[]> {
  const entries = matches.flatMap((match) =>
    ownersOf(scope, match.storedIn, match.seq).map((segment) => ({
      match,
      ownerId: segment.ownerId,
      rank: segment.rank,
    })),
  );
  entries.sort((left, right) =>
    order === "relevance"
      ? right.match.score - left.match.score || left.rank - right.rank || right.match.seq - left.match.seq
      : left.rank - right.rank || right.match.seq - left.match.seq,
  );
  const perOwner = new Map<string, number>();
  const shown = new Set<ScopeMatch>();
  let kept = 0;
  for (const entry of entries) {
    if (kept >= wantedSessions) break;
    const count = (perOwner.get(entry.ownerId) ?? 0) + 1;
    perOwner.set(entry.ownerId, count);
    if (count > hitsPerSession) continue;
    kept += 1;
    if (entry.match.hit === undefined) shown.add(entry.match);
  }
  const read = new Map<ScopeMatch, ScopeMatch>();
  const withRow = (match: ScopeMatch, row: EncodedRow) => {
    const decoded = decode(match.storedIn, row);
    if (decoded !== undefined)
      read.set(match, { ...match, hit: { row: decoded, windowId: windowIdFor(Number(row.window_seq)) } });
  };
  for (const match of shown) {
    const row = encoded?.get(match);
    if (row === undefined) continue;
    withRow(match, row);
    shown.delete(match);
  }
  const wanted = [...shown].flatMap((match) => {
    const session = stored.stored.get(match.storedIn);
    return session === undefined ? [] : [{ match, sessionKey: session.sessionKey }];
  });
  if (wanted.length === 0) return matches.map((match) => read.get(match) ?? match);
  // By key: any planner setting serves it from the primary key.
  const result = await client.query<{ entry: string; window_seq: string; body: string }>(
    `SELECT k.entry, r.window_seq, r.body
     FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS k(session_key, seq, entry)
     JOIN ${tables.rows} r ON r.session_key = k.session_key AND r.seq = k.seq`,
    [wanted.map((entry) => entry.sessionKey), wanted.map((entry) => entry.match.seq)],
  );
  for (const row of result.rows) {
    const { match } = wanted[Number(row.entry) - 1] as (typeof wanted)[number];
    withRow(match, { seq: match.seq, window_seq: Number(row.window_seq), body: row.body });
  }
  return matches.map((match) => read.get(match) ?? match);
}
