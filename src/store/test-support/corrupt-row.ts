/**
 * The corrupt-row case of the database backends: three rows appended, the second one's stored
 * JSON broken by hand, and every read path skipping it.
 */
import { expect } from "vitest";
import type { HistoryStore } from "../port.js";
import { text } from "./conformance-rows.js";

/** Appends the three rows of session "s" whose second one the test then breaks. */
export const appendThreeNeedles = (store: HistoryStore) =>
  store.append("s", [text("first needle"), text("second needle"), text("third needle")]);

/** Expects every read of session "s" to skip its broken row 2 and keep rows 1 and 3. */
export async function expectSecondRowSkipped(store: HistoryStore): Promise<void> {
  const window = await store.activeWindow("s");
  expect(window.rows.map((row) => row.seq)).toEqual([1, 3]);
  expect(window.skipped).toBe(1);
  expect((await store.items("s")).skipped).toBe(1);
  expect(await store.read("s", 2)).toBeUndefined();
  expect((await store.search("s", { query: "needle", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([
    3, 1,
  ]);
  expect((await store.search("s", { query: "needle", mode: "ranked" })).hits.map((hit) => hit.row.seq).sort()).toEqual([
    1, 3,
  ]);
}
