import { describe, expect, it } from "vitest";
import type { SessionSummary } from "./api/types";
import { sessionTree, type SessionNode } from "./session-tree";

const session = (sessionId: string, fields: Partial<SessionSummary> = {}): SessionSummary => ({
  sessionId,
  title: sessionId,
  lastActivity: "2026-12-01T10:00:00.000Z",
  windows: 1,
  rows: 2,
  parent: null,
  forkOf: null,
  ...fields,
});
const child = (sessionId: string, parent: string, itemId: string) =>
  session(sessionId, { parent: { sessionId: parent, itemId } });
const shape = (nodes: SessionNode[]): unknown[] =>
  nodes.map((node) =>
    node.children.length === 0 ? node.session.sessionId : { [node.session.sessionId]: shape(node.children) },
  );

describe("sessionTree", () => {
  it("nests sub-agents' sessions under their parent in the order of their task calls, at any depth", () => {
    const tree = sessionTree([
      session("lead"),
      child("late", "lead", "12"),
      child("early", "lead", "3"),
      child("grandchild", "early", "2"),
      session("other"),
    ]);
    expect(shape(tree)).toEqual([{ lead: [{ early: ["grandchild"] }, "late"] }, "other"]);
  });

  it("keeps a child whose parent is not listed at the top, and a fork where its activity puts it", () => {
    const tree = sessionTree([
      child("orphan", "gone", "4"),
      session("fork", { forkOf: { sessionId: "lead", atItem: "3" } }),
      session("lead"),
    ]);
    expect(shape(tree)).toEqual(["orphan", "fork", "lead"]);
  });

  it("never loses a session to a cycle a hand-written store could hold", () => {
    const tree = sessionTree([child("a", "b", "1"), child("b", "a", "1"), child("self", "self", "1")]);
    const ids = (nodes: SessionNode[]): string[] =>
      nodes.flatMap((node) => [node.session.sessionId, ...ids(node.children)]);
    expect(ids(tree).sort()).toEqual(["a", "b", "self"]);
  });
});
