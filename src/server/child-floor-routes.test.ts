/**
 * The web API applies the privacy floor to sub-agent children (issue 46, ADR 0073), against a
 * real SQLite store: a child started at or before its parent's manual clear, and its own child,
 * are left out of the session list (and its `q` search, by title or by id) and of the parent's
 * children, answer 404 on every session route (details, transcript pages, windows, search,
 * timeline, usage, events, children, fork), and the parent's transcript does not link to them.
 * A child started after the clear is listed, linked and readable as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHILD_SECRET, LATE_WORD, seedClearedChildTree } from "../store/test-support/cleared-child-tree.js";
import { startFixture, type ServerFixture } from "./test-support/server-fixture.js";

const HIDDEN = ["main%2Fchild", "main%2Fchild%2Fgrandchild"];

describe("the privacy floor covers sub-agent children over HTTP", () => {
  let fixture: ServerFixture;
  beforeAll(async () => {
    fixture = await startFixture({ seed: seedClearedChildTree });
  });
  afterAll(() => fixture.close());

  it("GET /api/sessions lists neither the hidden children nor their pre-clear titles", async () => {
    const { status, body } = await fixture.api("/api/sessions");
    expect(status).toBe(200);
    expect(body.sessions.map((entry: { sessionId: string }) => entry.sessionId).sort()).toEqual(["main", "main/late"]);
    expect(JSON.stringify(body)).not.toContain("vault");
  });

  it("GET /api/sessions?q= finds them neither by their title nor by their id", async () => {
    for (const query of ["vault", "Find where", "main/child", "grandchild"]) {
      const { body } = await fixture.api(`/api/sessions?q=${encodeURIComponent(query)}`);
      expect(body.sessions, query).toEqual([]);
    }
    // main/late by its id; main by its item after the clear (the task call naming main/late, ADR 0089).
    expect(
      (await fixture.api("/api/sessions?q=main%2Flate")).body.sessions.map(
        (entry: { sessionId: string }) => entry.sessionId,
      ),
    ).toEqual(["main/late", "main"]);
  });

  it("GET /api/sessions/main/children lists only the child started after the clear", async () => {
    const { status, body } = await fixture.api("/api/sessions/main/children");
    expect(status).toBe(200);
    expect(body.sessions.map((entry: { sessionId: string }) => entry.sessionId)).toEqual(["main/late"]);
  });

  it("every route of a hidden child answers 404 like an unknown session, and says nothing of it", async () => {
    for (const id of HIDDEN) {
      for (const suffix of [
        "",
        "/rows",
        "/rows?internal=true",
        "/windows",
        "/search?q=vault",
        "/search?q=vault&mode=ranked",
        "/timeline",
        "/usage",
        "/children",
        "/events",
      ]) {
        const { status, body } = await fixture.api(`/api/sessions/${id}${suffix}`);
        expect(status, `${id}${suffix}`).toBe(404);
        expect(body.error.code).toBe("not-found");
        expect(JSON.stringify(body)).not.toContain(CHILD_SECRET);
      }
    }
  });

  it("POST …/main%2Fchild/fork copies nothing into a new session", async () => {
    for (const body of [{ atItem: 2 }, { atItem: "1", newSessionId: "copied" }, { beforeItem: 1 }]) {
      const answer = await fixture.api("/api/sessions/main%2Fchild/fork", { method: "POST", body });
      expect(answer.status, JSON.stringify(body)).toBe(404);
    }
    expect((await fixture.store.sessions()).map((summary) => summary.sessionId).sort()).toEqual([
      "main",
      "main/child",
      "main/child/grandchild",
      "main/late",
    ]);
    const listed = await fixture.api("/api/sessions");
    expect(JSON.stringify(listed.body)).not.toContain("vault");
  });

  it("the parent's transcript links the task call after the clear, not the one before it", async () => {
    const { body } = await fixture.api("/api/sessions/main/rows");
    const taskPart = (seq: number) => body.rows.find((row: { seq: number }) => row.seq === seq).parts[0];
    expect(taskPart(3).childSessionId).toBeUndefined();
    expect(taskPart(7).childSessionId).toBe("main/late");
  });

  it("a child started after the clear is readable and searchable", async () => {
    expect((await fixture.api("/api/sessions/main%2Flate")).body).toMatchObject({
      sessionId: "main/late",
      parent: { sessionId: "main", itemId: "7" },
    });
    const search = await fixture.api(`/api/sessions/main%2Flate/search?q=${LATE_WORD}`);
    expect(search.status).toBe(200);
    expect(search.body.hits.length).toBeGreaterThan(0);
  });
});
