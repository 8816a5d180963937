/** Reading the stored rows of a cross-session search's matches (ADR 0089). */
import type { LineageBackend } from "../lineage/lineage-backend.js";
import type { StoredRow } from "../port.js";
import type { ScopeMatch } from "./cross-search.js";

/**
 * The rows of `matches` the backend did not read, one `readHits` per stored session, together (a cross-session
 * search's page; hybrid's rows found by meaning when a filter must see them first).
 *
 * @example const loaded = await loadHits(raw, page.map((entry) => entry.match));
 */
export async function loadHits(
  raw: Pick<LineageBackend, "readHits">,
  matches: readonly ScopeMatch[],
): Promise<Map<ScopeMatch, { row: StoredRow; windowId: string }>> {
  const loaded = new Map<ScopeMatch, { row: StoredRow; windowId: string }>();
  const missing = new Map<string, ScopeMatch[]>();
  for (const match of matches) {
    if (match.hit !== undefined) loaded.set(match, match.hit);
    else missing.set(match.storedIn, [...(missing.get(match.storedIn) ?? []), match]);
  }
  // The sessions are read together (PostgreSQL: a round trip each, over the store's connections).
  await Promise.all(
    [...missing].map(async ([storedIn, list]) => {
      // The scope already applied each session's floor: the stored rows are read as they are.
      const read = await raw.readHits(
        storedIn,
        list.map((match) => match.seq),
        { includeCleared: true },
      );
      const bySeq = new Map(read.map((hit) => [hit.row.seq, hit]));
      for (const match of list) {
        const hit = bySeq.get(match.seq);
        if (hit !== undefined) loaded.set(match, hit);
      }
    }),
  );
  return loaded;
}
