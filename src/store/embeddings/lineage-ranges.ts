/**
 * Where a session's vectors are (ADR 0063, "Forks"): a fork shares its origin's rows up to
 * `atSeq` by reference (ADR 0059), so their vectors are the origin's, stored once under the
 * origin's id. A search range of a fork is cut into one range per session of its lineage: the
 * fork's own rows, then each ancestor's shared part, each searched in that session's vectors.
 * The range's lower bound (the fork's privacy floor) holds for every part: a fork's floor is a
 * seq of the shared history, at or below each ancestor's floor for the rows it shares.
 */
import type { ForkOrigin, HistoryStore, SessionSummary } from "../port.js";
import type { NearestQuery, NearestRow, VectorIndex } from "./vector-index.js";

/** One session's part of a search range: exclusive seq bounds, the same seqs the fork sees. */
export interface SessionRange {
  sessionId: string;
  lowSeq: number;
  highSeq: number;
  /** The session as read while cutting (`undefined`: no such session), so callers need not read it again. */
  summary: SessionSummary | undefined;
}

/**
 * The parts of `sessionId`'s range `(lowSeq, highSeq)` by the session that holds their rows,
 * newest first; one part for a session that is no fork.
 *
 * @example
 * await lineageRanges(store, "fork", { lowSeq: 0, highSeq: 100 });
 * // [{ sessionId: "fork", lowSeq: 12, highSeq: 100, summary }, { sessionId: "origin", lowSeq: 0, highSeq: 13, summary }]
 */
export async function lineageRanges(
  store: Pick<HistoryStore, "session">,
  sessionId: string,
  bounds: { lowSeq: number; highSeq: number },
  /** `sessionId`'s summary when the caller has read it already (not read again). */
  known?: SessionSummary,
): Promise<SessionRange[]> {
  const ranges: SessionRange[] = [];
  const { lowSeq } = bounds;
  let highSeq = bounds.highSeq;
  for (let current: string | undefined = sessionId; current !== undefined && highSeq - 1 > lowSeq;) {
    const summary: SessionSummary | undefined =
      current === sessionId && known !== undefined ? known : await store.session(current);
    const forkOf: ForkOrigin | undefined = summary?.forkOf;
    if (forkOf === undefined) {
      ranges.push({ sessionId: current, lowSeq, highSeq, summary });
      break;
    }
    if (highSeq - 1 > forkOf.atSeq)
      ranges.push({ sessionId: current, lowSeq: Math.max(lowSeq, forkOf.atSeq), highSeq, summary });
    highSeq = Math.min(highSeq, forkOf.atSeq + 1);
    current = forkOf.sessionId;
  }
  return ranges;
}

/**
 * The rows nearest to the query over all `ranges` (each searched in its own session's vectors),
 * most similar first, at most `limit`: one `nearest` call per range, in parallel.
 *
 * @example await nearestInRanges(index, ranges, { model, vector, limit: 30 })
 */
export async function nearestInRanges(
  index: VectorIndex,
  ranges: readonly SessionRange[],
  query: Omit<NearestQuery, "sessionId" | "lowSeq" | "highSeq">,
): Promise<NearestRow[]> {
  const answers = await Promise.all(
    ranges.map(({ sessionId, lowSeq, highSeq }) => index.nearest({ ...query, sessionId, lowSeq, highSeq })),
  );
  if (answers.length === 1) return answers[0] as NearestRow[];
  return answers
    .flat()
    .sort((left, right) => right.similarity - left.similarity || right.seq - left.seq)
    .slice(0, query.limit);
}

/** The sessions of a lineage, for the embedder to catch up on before a search (the origins' rows are theirs to embed). */
export const sessionsOf = (ranges: readonly SessionRange[]): string[] => [
  ...new Set(ranges.map((range) => range.sessionId)),
];

/**
 * `sessionIds` with the origins of the forks among them (origins first), each once: what a
 * backfill of those sessions must embed for their searches to find every row they share.
 *
 * @example await withOrigins(store, ["fork"]) // ["origin", "fork"]
 */
export async function withOrigins(
  store: Pick<HistoryStore, "session">,
  sessionIds: readonly string[],
): Promise<string[]> {
  const ordered = new Set<string>();
  for (const sessionId of sessionIds) {
    const chain: string[] = [];
    for (
      let current: string | undefined = sessionId;
      current !== undefined && !ordered.has(current) && !chain.includes(current);
    ) {
      chain.push(current);
      current = (await store.session(current))?.forkOf?.sessionId;
    }
    for (const id of chain.reverse()) ordered.add(id);
  }
  return [...ordered];
}
