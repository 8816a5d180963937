import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryFixture, okText, type MemoryFixture } from "./test-support/memory-fixture.js";

let fixture: MemoryFixture;
beforeEach(() => {
  fixture = createMemoryFixture();
});
afterEach(() => fixture.cleanup());

function put(scope: "global" | "project" | "workspace", relative: string, content: string, sessionId?: string): void {
  const file = fixture.hostPath(scope, relative, sessionId);
  fs.mkdirSync(file.slice(0, file.lastIndexOf("/")), { recursive: true });
  fs.writeFileSync(file, content);
}

describe("view", () => {
  it("lists /memories two levels deep: the scopes and what is directly in them", async () => {
    put("project", "notes.md", "hello");
    put("project", "topics/api.md", "deep");
    put("global", ".hidden.md", "hidden");
    put("workspace", "context-notes.md", "mine");
    put("workspace", "context-notes.md", "other session", "s2");
    const text = okText(await fixture.executor().execute({ command: "view", path: "/memories" }));
    expect(text.split("\n")).toEqual([
      "Directory /memories — up to 2 levels deep, hidden entries not shown:",
      "/memories/global/",
      "/memories/project/",
      "/memories/project/notes.md  (5 bytes)",
      "/memories/project/topics/",
      "/memories/workspace/",
      "/memories/workspace/context-notes.md  (4 bytes)",
    ]);
  });

  it("lists a directory two levels below it, and an unused scope as empty", async () => {
    put("project", "a/b/c/d.md", "x");
    const text = okText(await fixture.executor().execute({ command: "view", path: "/memories/project" }));
    expect(text.split("\n").slice(1)).toEqual(["/memories/project/a/", "/memories/project/a/b/"]);
    const empty = okText(await fixture.executor().execute({ command: "view", path: "/memories/global/" }));
    expect(empty).toContain("(empty)");
  });

  it("shows a file with line numbers, or only view_range", async () => {
    put("project", "list.md", "one\ntwo\nthree\n");
    const executor = fixture.executor();
    const whole = okText(await executor.execute({ command: "view", path: "/memories/project/list.md" }));
    expect(whole).toBe(
      "File /memories/project/list.md — 3 line(s), 14 bytes:\n     1\tone\n     2\ttwo\n     3\tthree",
    );
    const part = okText(
      await executor.execute({ command: "view", path: "/memories/project/list.md", view_range: [2, -1] }),
    );
    expect(part).toBe("File /memories/project/list.md — lines 2 to 3 of 3:\n     2\ttwo\n     3\tthree");
    const clamped = okText(
      await executor.execute({ command: "view", path: "/memories/project/list.md", view_range: [1, 99] }),
    );
    expect(clamped).toContain("lines 1 to 3 of 3");
  });

  it("treats null optional fields as absent", async () => {
    put("project", "a.md", "x\n");
    const result = await fixture
      .executor()
      .execute({ command: "view", path: "/memories/project/a.md", view_range: null, file_text: null });
    expect(okText(result)).toContain("     1\tx");
  });

  it.each([
    [[0, 2], "start must be from 1 to 3"],
    [[4, 4], "start must be from 1 to 3"],
    [[3, 2], "end must be -1 or at least the start"],
    [[1], "two integers"],
    [[1.5, 2], "two integers"],
  ])("refuses view_range %j", async (range, message) => {
    put("project", "list.md", "one\ntwo\nthree\n");
    const result = await fixture
      .executor()
      .execute({ command: "view", path: "/memories/project/list.md", view_range: range });
    expect(result).toMatchObject({ status: "error", code: "invalid_input" });
    expect(result.status === "error" && result.message).toContain(message);
  });

  it("reads view_range written as canonical decimal strings (MCP Inspector sends text), refuses other text", async () => {
    put("project", "list.md", "one\ntwo\nthree\n");
    const view = (range: unknown) =>
      fixture.executor().execute({ command: "view", path: "/memories/project/list.md", view_range: range });
    expect(okText(await view(["2", "-1"]))).toBe(
      "File /memories/project/list.md — lines 2 to 3 of 3:\n     2\ttwo\n     3\tthree",
    );
    for (const range of [
      ["02", "3"],
      ["2", "3.0"],
      ["", "3"],
      [" 2", "3"],
      ["+2", "3"],
      ["2", "-01"],
    ]) {
      expect(await view(range)).toMatchObject({
        status: "error",
        code: "invalid_input",
        message: expect.stringContaining("two integers"),
      });
    }
  });

  it("reports a missing path and says the file is empty", async () => {
    put("project", "empty.md", "");
    const executor = fixture.executor();
    expect(await executor.execute({ command: "view", path: "/memories/project/nope.md" })).toMatchObject({
      status: "error",
      code: "not_found",
    });
    expect(okText(await executor.execute({ command: "view", path: "/memories/project/empty.md" }))).toBe(
      "File /memories/project/empty.md is empty.",
    );
  });

  it("caps a long listing and says how much is left out", async () => {
    for (let index = 0; index < 320; index += 1) put("project", `f${String(index).padStart(3, "0")}.md`, "x");
    const text = okText(await fixture.executor().execute({ command: "view", path: "/memories/project" }));
    expect(text.split("\n")).toHaveLength(1 + 300 + 1);
    expect(text).toContain("and 20 more entries not shown");
  });
});
