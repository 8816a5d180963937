/**
 * The hybrid half of a search across sessions (ADR 0105): the rows ranked word search found in the
 * scope (one BM25 over all sessions) and the rows nearest by meaning in the same scope (one call
 * of the embedding layer's `nearest` over every session's segments) fused by reciprocal rank, as a
 * single session's hybrid search fuses its two rankings (RRF, k = 60). The fused score replaces
 * the ranked one, so that `crossSearch` orders, caps per session and pages them as ranked matches.
 */
import { rowMatchesFilter, hasSearchFilter, type SearchFilter } from "../../core/search-filter.js";
import { RRF_K } from "../embeddings/fuse-rankings.js";
import type { LineageBackend } from "../lineage/lineage-backend.js";
import type { CrossSearchVectors } from "../port.js";
import type { ScopeMatch } from "./cross-search.js";
import { loadHits } from "./load-hits.js";
import { ownersOf, type SearchScope } from "./search-scope.js";

/** Rows each ranking contributes to the fusion, at least (as one session's hybrid search). */
const MIN_POOL = 30;
/** Rows the nearest ranking contributes at most. */
const MAX_POOL = 1_000;
/** With a role or tool filter, nearest rows asked per wanted row (most may not pass it). */
const FILTERED_POOL_FACTOR = 4;

/** Nearest rows a hybrid page of `offset + limit` hits asks for (as one session's hybrid search). */
export const hybridPool = (end: number): number => Math.min(MAX_POOL, Math.max(MIN_POOL, end + 1));

const keyOf = (storedIn: string, seq: number) => `${seq}:${storedIn}`;

/**
 * The ranked `matches` fused with the nearest rows of the scope; the ranked matches as they are
 * when `vectors` is absent.
 *
 * @example const fused = await hybridMatches({ raw, scope, matches, vectors, pool: 30, filter: {} });
 */
export async function hybridMatches({
  raw,
  scope,
  matches,
  vectors,
  pool,
  filter,
}: {
  raw: Pick<LineageBackend, "readHits">;
  scope: SearchScope;
  matches: readonly ScopeMatch[];
  vectors: CrossSearchVectors | undefined;
  pool: number;
  filter: SearchFilter;
}): Promise<ScopeMatch[]> {
  if (vectors === undefined) return [...matches];
  const filtered = hasSearchFilter(filter);
  const nearest = (
    await vectors.nearest(scope.segments, pool * (filtered ? FILTERED_POOL_FACTOR : 1), scope.lastSeqs)
  ).filter((row) => ownersOf(scope, row.sessionId, row.seq).length > 0);
  const words = [...matches].sort(
    (left, right) => right.score - left.score || right.seq - left.seq || (left.storedIn < right.storedIn ? -1 : 1),
  );
  const byKey = new Map(words.map((match) => [keyOf(match.storedIn, match.seq), match]));
  const added = nearest
    .filter((row) => !byKey.has(keyOf(row.sessionId, row.seq)))
    .map((row): ScopeMatch => ({ storedIn: row.sessionId, seq: row.seq, score: 0 }));
  const kept = filtered ? await passingFilter(raw, added, filter) : new Set(added);
  for (const match of added) if (kept.has(match)) byKey.set(keyOf(match.storedIn, match.seq), match);
  const scores = new Map<string, number>();
  const rank = (keys: readonly string[]) =>
    keys.forEach((key, position) => scores.set(key, (scores.get(key) ?? 0) + 1 / (RRF_K + position + 1)));
  rank(words.map((match) => keyOf(match.storedIn, match.seq)));
  rank(nearest.map((row) => keyOf(row.sessionId, row.seq)).filter((key) => byKey.has(key)));
  return [...byKey].map(([key, match]) => ({ ...match, score: scores.get(key) ?? 0 }));
}

/** The nearest-only matches whose rows pass the role and tool filter, read (and kept for the page). */
async function passingFilter(
  raw: Pick<LineageBackend, "readHits">,
  matches: ScopeMatch[],
  filter: SearchFilter,
): Promise<Set<ScopeMatch>> {
  const loaded = await loadHits(raw, matches);
  const passing = new Set<ScopeMatch>();
  for (const match of matches) {
    const hit = loaded.get(match);
    if (hit === undefined || !rowMatchesFilter(hit.row, filter)) continue;
    match.hit = hit;
    passing.add(match);
  }
  return passing;
}
