/**
 * `items`, `read` and `activeWindow` of a fork: the origin's rows up to `atSeq`, then the fork's
 * own, paged as one history (ADR 0059).
 */
import { MAX_PAGE_LIMIT, checkItemsOptions } from "../options.js";
import type { ActiveWindow, FloorOptions, HistoryStore, ItemPage, ItemsOptions, StoredRow } from "../port.js";
import type { LineageBackend } from "./lineage-backend.js";
import { aboveFloor, asForkRow, originRange, type ForkView } from "./fork-view.js";

export interface ForkReadContext {
  raw: LineageBackend;
  /** The store with lineage, for reading an origin that is itself a fork. */
  composed: HistoryStore;
  view: ForkView;
}

export async function forkItems({ raw, composed, view }: ForkReadContext, options: ItemsOptions): Promise<ItemPage> {
  const checked = checkItemsOptions(view.sessionId, options);
  const range = await originRange(composed, view, checked.includeCleared);
  const after = checked.afterSeq ?? 0;
  if (range === undefined || after >= view.atSeq) return raw.items(view.sessionId, options);
  const shared = {
    ...(options.windowId === undefined ? {} : { windowId: options.windowId }),
    includeCleared: checked.includeCleared,
  };
  const originShared = { ...shared, includeCleared: range.includeCleared };
  const originBefore = Math.min(checked.beforeSeq ?? Number.MAX_SAFE_INTEGER, view.atSeq + 1);
  const newestFirst = checked.afterSeq === undefined && checked.beforeSeq !== undefined;
  if (!newestFirst) {
    const origin = await composed.items(view.originId, {
      ...originShared,
      afterSeq: Math.max(after, range.above),
      beforeSeq: originBefore,
      limit: checked.limit,
    });
    const used = origin.rows.length + origin.skipped;
    const ownRange = {
      ...shared,
      afterSeq: view.atSeq,
      ...(checked.beforeSeq === undefined ? {} : { beforeSeq: checked.beforeSeq }),
    };
    if (used >= checked.limit) {
      const hasMore = origin.hasMore || (await raw.items(view.sessionId, { ...ownRange, limit: 1 })).rows.length > 0;
      return { rows: origin.rows.map((row) => asForkRow(view, row)), hasMore, skipped: origin.skipped };
    }
    const own = await raw.items(view.sessionId, { ...ownRange, limit: checked.limit - used });
    return {
      rows: [...origin.rows.map((row) => asForkRow(view, row)), ...own.rows],
      hasMore: own.hasMore,
      skipped: origin.skipped + own.skipped,
    };
  }
  const own =
    (checked.beforeSeq ?? 0) > view.atSeq + 1
      ? await raw.items(view.sessionId, options)
      : { rows: [], hasMore: false, skipped: 0 };
  const used = own.rows.length + own.skipped;
  const originPage = (limit: number) =>
    composed.items(view.originId, { ...originShared, beforeSeq: originBefore, limit });
  if (used >= checked.limit) {
    const hasMore = own.hasMore || aboveFloor((await originPage(1)).rows, range, (row) => row.seq).kept.length > 0;
    return { ...own, hasMore };
  }
  const origin = await originPage(checked.limit - used);
  const { kept, cut } = aboveFloor(origin.rows, range, (row) => row.seq);
  return {
    rows: [...kept.map((row) => asForkRow(view, row)), ...own.rows],
    hasMore: origin.hasMore && !cut,
    skipped: own.skipped + origin.skipped,
  };
}

export async function forkRead(
  { raw, composed, view }: ForkReadContext,
  seq: number,
  options: FloorOptions,
): Promise<StoredRow | undefined> {
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq > view.atSeq)
    return raw.read(view.sessionId, seq, options);
  if (options.includeCleared !== true && seq <= view.floorSeq) return undefined;
  const row = await composed.read(view.originId, seq, { includeCleared: true });
  return row === undefined ? undefined : asForkRow(view, row);
}

/** The fork's active window: when it opened at or before `atSeq`, its origin rows come first. */
export async function forkActiveWindow({ raw, composed, view }: ForkReadContext): Promise<ActiveWindow> {
  const own = await raw.activeWindow(view.sessionId);
  if (own.boundarySeq > view.atSeq) return own;
  const rows: StoredRow[] = [];
  let skipped = 0;
  for (let afterSeq = Math.max(0, own.boundarySeq - 1); ;) {
    const page = await composed.items(view.originId, {
      afterSeq,
      beforeSeq: view.atSeq + 1,
      includeCleared: true,
      limit: MAX_PAGE_LIMIT,
    });
    rows.push(...page.rows.map((row) => asForkRow(view, row)));
    skipped += page.skipped;
    const last = page.rows.at(-1);
    if (!page.hasMore || last === undefined) break;
    afterSeq = last.seq;
  }
  return { ...own, rows: [...rows, ...own.rows], skipped: skipped + own.skipped };
}
