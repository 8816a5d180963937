/**
 * Rows written by the concurrency and crash tests carry a tag in the UIMessage `metadata` field
 * (not `meta`, whose types are ctxwin's own): which worker wrote the row, in which append call
 * ("batch"), at which index of that call, and the row's position in the worker's own order.
 */
import type { RowInput } from "../../core/row.js";
import type { StoredRow } from "../port.js";

export interface RowTag {
  worker: string;
  /** Unique id of the append call that wrote the row. */
  batch: string;
  /** Position of the row inside its append call. */
  index: number;
  /** Number of rows of the append call. */
  size: number;
  /** Position of the row in everything its worker wrote (0, 1, 2, ...). */
  order: number;
}

/**
 * Rows of one append call, tagged.
 *
 * @example
 * const rows = taggedRows({ worker: "w1", batch: "w1:0", size: 10, firstOrder: 0 });
 */
export function taggedRows({
  worker,
  batch,
  size,
  firstOrder,
  text = ({ order }) => `${worker} wrote row ${order} (${batch})`,
}: {
  worker: string;
  batch: string;
  size: number;
  firstOrder: number;
  text?: (tag: RowTag) => string;
}): RowInput[] {
  return Array.from({ length: size }, (_unused, index): RowInput => {
    const tag: RowTag = { worker, batch, index, size, order: firstOrder + index };
    return { role: "user", parts: [{ type: "text", text: text(tag) }], metadata: tag };
  });
}

/** The tag of a stored row, or `undefined` for rows without one (e.g. a test's marker rows). */
export function tagOf(row: StoredRow): RowTag | undefined {
  const metadata = row.metadata as Partial<RowTag> | undefined;
  if (metadata === undefined || metadata === null || typeof metadata !== "object") return undefined;
  const { worker, batch, index, size, order } = metadata;
  if (typeof worker !== "string" || typeof batch !== "string") return undefined;
  if (typeof index !== "number" || typeof size !== "number" || typeof order !== "number") return undefined;
  return { worker, batch, index, size, order };
}
