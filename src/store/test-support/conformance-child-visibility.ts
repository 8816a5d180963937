/**
 * Conformance cases (issue 46, ADR 0073): a manual clear of a session hides its children started
 * at or before it, and the whole tree below them, on every backend; a fork keeps its own floor
 * (ADR 0059). The rule is read through `store/lineage/session-visibility.ts`, which every surface
 * uses. Test-only.
 */
import { describe, expect } from "vitest";
import type { HistoryStore } from "../port.js";
import { ForkRefusedError } from "../lineage/lineage-errors.js";
import { visibleSession, visibleSessions } from "../lineage/session-visibility.js";
import type { ConformanceSuite } from "./conformance-search.js";
import { reply, reset, text } from "./conformance-rows.js";

const SECRET = "the launch code is 0451";

/**
 * `main`: the secret (1), a reply (2), the `task` call (3), a reply (4); `main/child` started at
 * item 3 repeats the secret, `main/child/grandchild` started at the child's item 2. A second child
 * `main/late` starts after the clear (once `clear` is true).
 */
async function seedTree(store: HistoryStore, { clear }: { clear: boolean }): Promise<void> {
  await store.append("main", [text(SECRET), reply("noted"), reply("delegating"), reply("done")]);
  await store.append("main/child", [text(`Find where ${SECRET} is used`), reply(`It is ${SECRET}`)], {
    parent: { sessionId: "main", itemId: "3" },
  });
  await store.append("main/child/grandchild", [text(SECRET)], { parent: { sessionId: "main/child", itemId: "2" } });
  if (!clear) return;
  await store.append("main", [reset(), text("a new start"), reply("calling again")]);
  await store.append("main/late", [text("after the clear")], { parent: { sessionId: "main", itemId: "8" } });
}

const ids = (summaries: readonly { sessionId: string }[]) => summaries.map((summary) => summary.sessionId).sort();

/**
 * @example describeChildVisibilityConformance({ get store() { return store; }, test });
 */
export function describeChildVisibilityConformance(suite: ConformanceSuite): void {
  const { test } = suite;
  describe("lineage: a clear hides the children started before it (ADR 0073)", () => {
    test("every child is visible while no clear lies after its call", async () => {
      const { store } = suite;
      await seedTree(store, { clear: false });
      expect(ids(await visibleSessions({ store, summaries: await store.sessions() }))).toEqual([
        "main",
        "main/child",
        "main/child/grandchild",
      ]);
      expect((await visibleSession({ store, sessionId: "main/child/grandchild" }))?.parent).toEqual({
        sessionId: "main/child",
        itemId: "2",
      });
    });

    test("a clear after the task call hides the child and its children; a later child stays visible", async () => {
      const { store } = suite;
      await seedTree(store, { clear: true });
      expect((await store.session("main"))?.floorSeq).toBe(5);
      expect(ids(await visibleSessions({ store, summaries: await store.sessions() }))).toEqual(["main", "main/late"]);
      expect(
        ids(await visibleSessions({ store, summaries: await store.sessions({ parentSessionId: "main" }) })),
      ).toEqual(["main/late"]);
      // A list of the hidden session alone (its parent not among the summaries) is judged the same.
      expect(
        await visibleSessions({ store, summaries: await store.sessions({ parentSessionId: "main/child" }) }),
      ).toEqual([]);
      expect(await visibleSession({ store, sessionId: "main/child" })).toBeUndefined();
      expect(await visibleSession({ store, sessionId: "main/child/grandchild" })).toBeUndefined();
      expect(await visibleSession({ store, sessionId: "nobody" })).toBeUndefined();
      expect((await visibleSession({ store, sessionId: "main/late" }))?.sessionId).toBe("main/late");
    });

    test("a clear inside a child hides its children started before it, not the child", async () => {
      const { store } = suite;
      await seedTree(store, { clear: false });
      await store.append("main/child", [reset(), text("child starts over")]);
      expect(ids(await visibleSessions({ store, summaries: await store.sessions() }))).toEqual(["main", "main/child"]);
      expect(await visibleSession({ store, sessionId: "main/child/grandchild" })).toBeUndefined();
    });

    test("a child whose parent is no longer stored is hidden (fail closed)", async () => {
      const { store } = suite;
      await store.append("gone", [text("task call")]);
      await store.append("gone/child", [text(SECRET)], { parent: { sessionId: "gone", itemId: "1" } });
      expect((await visibleSession({ store, sessionId: "gone/child" }))?.sessionId).toBe("gone/child");
      await store.deleteSession("gone");
      expect(await visibleSession({ store, sessionId: "gone/child" })).toBeUndefined();
      expect(await visibleSessions({ store, summaries: await store.sessions() })).toEqual([]);
    });

    test("a hidden child cannot be forked; a fork made before the clear keeps its own floor (ADR 0059)", async () => {
      const { store } = suite;
      await seedTree(store, { clear: false });
      await store.fork("main/child", { atSeq: 2, newSessionId: "kept" });
      await store.append("main", [reset()]);
      await expect(store.fork("main/child", { atSeq: 2, newSessionId: "copy" })).rejects.toSatisfy(
        (error: unknown) => ForkRefusedError.isInstance(error) && error.reason === "behind-floor",
      );
      await expect(store.fork("main/child/grandchild", { atSeq: 1, newSessionId: "copy" })).rejects.toSatisfy(
        (error: unknown) => ForkRefusedError.isInstance(error) && error.reason === "behind-floor",
      );
      expect(await store.session("copy")).toBeUndefined();
      expect((await visibleSession({ store, sessionId: "kept" }))?.forkOf).toEqual({
        sessionId: "main/child",
        atSeq: 2,
      });
      expect((await store.items("kept")).rows.map((row) => row.seq)).toEqual([1, 2]);
    });
  });
}
