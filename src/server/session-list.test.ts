/**
 * The sessions list and a session's summary apply the privacy floor (ADR 0046): a title comes
 * only from rows after the newest manual reset, else it is the session id, and `q` never matches
 * text from before the floor — also for imported sessions and after a clear made while the
 * server runs (the title cache keys on the floor, not only on the session's incarnation).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RowInput } from "../core/row.js";
import { resetBoundaryRow } from "../core/rollover/notice-rows.js";
import { startFixture, type ServerFixture } from "./test-support/server-fixture.js";

const userText = (text: string): RowInput => ({ role: "user", parts: [{ type: "text", text }] });
const assistantText = (text: string): RowInput => ({ role: "assistant", parts: [{ type: "text", text }] });

/** The hidden first row the Claude Code and Codex importers write (src/cli/import/transcript-rows.ts). */
const importedHeader = (title: string): RowInput => ({
  role: "system",
  parts: [{ type: "text", text: `Imported claude-code session: ${title}` }],
  synthetic: true,
  uiVisible: false,
  meta: {
    type: "imported-session",
    source: "claude-code",
    sourceSessionId: "abc",
    title,
    project: "/home/dev/app",
    file: "/tmp/abc.jsonl",
  },
});

const IMPORTED = "claude-code:abc";

describe("session titles and the q filter respect the privacy floor", () => {
  let fixture: ServerFixture;

  beforeAll(async () => {
    fixture = await startFixture({
      seed: async (store) => {
        await store.append("cleared", [
          userText("Plan the marmalade launch"),
          assistantText("ok"),
          resetBoundaryRow({}),
          userText("After the clear: plum tart"),
        ]);
        await store.append("cleared-empty", [
          userText("The quince password is hidden"),
          assistantText("noted"),
          resetBoundaryRow({}),
        ]);
        await store.append(IMPORTED, [
          importedHeader("Imported fig secret"),
          userText("Imported fig secret"),
          resetBoundaryRow({}),
          assistantText("after the clear"),
        ]);
        await store.append("plain", [userText("A plain session about walnuts")]);
        await store.append("coloured", [userText("\u001b[1mBold\u001b[22m request about \u001b[32mlimes\u001b[0m")]);
      },
    });
  });
  afterAll(() => fixture.close());

  const titles = async (query = "") => {
    const { body } = await fixture.api(`/api/sessions${query === "" ? "" : `?q=${encodeURIComponent(query)}`}`);
    return Object.fromEntries(
      (body.sessions as { sessionId: string; title: string }[]).map((entry) => [entry.sessionId, entry.title]),
    );
  };

  it("a title comes from after the newest reset, or is the session id", async () => {
    expect(await titles()).toEqual({
      cleared: "After the clear: plum tart",
      "cleared-empty": "cleared-empty",
      [IMPORTED]: IMPORTED,
      plain: "A plain session about walnuts",
      coloured: "Bold request about limes",
    });
    expect((await fixture.api("/api/sessions/cleared")).body).toMatchObject({ title: "After the clear: plum tart" });
    expect((await fixture.api("/api/sessions/cleared-empty")).body).toMatchObject({ title: "cleared-empty" });
    expect((await fixture.api(`/api/sessions/${encodeURIComponent(IMPORTED)}`)).body).toMatchObject({
      title: IMPORTED,
    });
  });

  it("q never finds a session by text from before its floor", async () => {
    for (const query of ["marmalade", "quince", "fig secret", "Imported"])
      expect(await titles(query), query).toEqual({});
    expect(await titles("plum")).toEqual({ cleared: "After the clear: plum tart" });
    expect(await titles("walnut")).toEqual({ plain: "A plain session about walnuts" });
    expect(Object.keys(await titles("claude-code:"))).toEqual([IMPORTED]);
  });

  it("a clear made while the server runs hides the title it had cached, and a later message names the session", async () => {
    expect(await titles("walnut")).toEqual({ plain: "A plain session about walnuts" });
    expect((await fixture.api("/api/sessions/plain/clear", { method: "POST", body: {} })).status).toBe(200);
    expect(await titles("walnut")).toEqual({});
    expect((await titles())["plain"]).toBe("plain");
    expect((await fixture.api("/api/sessions/plain")).body).toMatchObject({ title: "plain" });
    await fixture.store.append("plain", [userText("Now about pecans")]);
    expect(await titles("pecan")).toEqual({ plain: "Now about pecans" });
    expect((await fixture.api("/api/sessions/plain")).body).toMatchObject({ title: "Now about pecans" });
  });
});

describe("q finds sessions by their items with the store's cross-session search (issue 51, ADR 0089)", () => {
  let fixture: ServerFixture;

  beforeAll(async () => {
    fixture = await startFixture({
      seed: async (store) => {
        await store.append("budget", [
          userText("Plan the quarter"),
          assistantText("The pistachio budget is 40"),
          resetBoundaryRow({}),
          userText("Next plan"),
        ]);
        await store.append("later", [userText("Plan the week"), assistantText("pistachio orders arrive Monday")]);
        await store.append("other", [userText("Nothing relevant")]);
      },
    });
  });
  afterAll(() => fixture.close());

  it("lists a session whose item after its floor holds q, not one whose only match lies before it", async () => {
    const { body } = await fixture.api(`/api/sessions?q=${encodeURIComponent("Pistachio")}`);
    expect((body.sessions as { sessionId: string }[]).map((entry) => entry.sessionId)).toEqual(["later"]);
  });
});
