/**
 * Two real processes editing the same memory file: no torn file is ever visible, no edit is lost,
 * and an edit based on text that the other process already replaced fails instead of undoing it.
 * A writer killed with SIGKILL (even while holding the lock) leaves a whole file and no lasting lock.
 */
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEditor, type EditorProcess } from "./test-support/editor-process.js";
import { createMemoryFixture, okText, type MemoryFixture } from "./test-support/memory-fixture.js";

let fixture: MemoryFixture;
const editors: EditorProcess[] = [];
beforeEach(() => {
  fixture = createMemoryFixture();
});
afterEach(async () => {
  for (const editor of editors.splice(0)) await editor.kill();
  fixture.cleanup();
});

function start(name: string, mode: "append" | "race" | "hold-lock" | "forever", iterations = 0): EditorProcess {
  const editor = startEditor({ root: fixture.root, sessionId: "s1", name, mode, iterations });
  editors.push(editor);
  return editor;
}

const WELL_FORMED = /^(?:[AB]-\d+\n)*<<END>>\n$/;

/** Creates the file the writers edit, holding only the end marker; returns its host path. */
async function createSharedFile(): Promise<string> {
  okText(
    await fixture
      .executor()
      .execute({ command: "create", path: "/memories/project/shared.md", file_text: "<<END>>\n" }),
  );
  return fixture.hostPath("project", "shared.md");
}

describe("concurrent edits from two processes", () => {
  it("apply every edit of both, and readers only ever see whole files", async () => {
    const shared = await createSharedFile();
    const iterations = 40;
    const [first, second] = [start("A", "append", iterations), start("B", "append", iterations)];
    await Promise.all([first.waitForLine("ready"), second.waitForLine("ready")]);
    first.go();
    second.go();
    const reports = Promise.all([first.report(), second.report()]);
    let finished = false;
    void reports.finally(() => {
      finished = true;
    });
    let reads = 0;
    while (!finished) {
      expect(fs.readFileSync(shared, "utf8")).toMatch(WELL_FORMED);
      reads += 1;
      await sleep(1);
    }
    for (const report of await reports) expect(report.outcomes).toEqual(Array.from({ length: iterations }, () => "ok"));
    expect(reads).toBeGreaterThan(0);

    const lines = fs.readFileSync(shared, "utf8").trimEnd().split("\n");
    expect(lines.pop()).toBe("<<END>>");
    expect(lines).toHaveLength(2 * iterations);
    for (const name of ["A", "B"]) {
      expect(lines.filter((line) => line.startsWith(`${name}-`))).toEqual(
        Array.from({ length: iterations }, (_, index) => `${name}-${index}`),
      );
    }
  });

  it("let exactly one of two edits of the same text win; the stale one fails and loses nothing", async () => {
    const rounds = 30;
    const executor = fixture.executor();
    for (let round = 0; round < rounds; round += 1) {
      okText(
        await executor.execute({
          command: "create",
          path: `/memories/project/race-${round}.md`,
          file_text: "state: v0\n",
        }),
      );
    }
    const [first, second] = [start("A", "race", rounds), start("B", "race", rounds)];
    await Promise.all([first.waitForLine("ready"), second.waitForLine("ready")]);
    first.go();
    second.go();
    const [reportA, reportB] = await Promise.all([first.report(), second.report()]);
    for (let round = 0; round < rounds; round += 1) {
      const outcomes = [reportA.outcomes[round], reportB.outcomes[round]].sort();
      expect(outcomes).toEqual(["no_match", "ok"]);
      const winner = reportA.outcomes[round] === "ok" ? "A" : "B";
      expect(fs.readFileSync(fixture.hostPath("project", `race-${round}.md`), "utf8")).toBe(`state: ${winner}\n`);
    }
  });
});

describe("a writer killed with SIGKILL", () => {
  it("holding the lock: others get a busy result while it lives, and go ahead once it is dead", async () => {
    const executor = fixture.executor({ lockWaitMs: 20 });
    okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "v0\n" }));
    const holder = start("A", "hold-lock");
    await holder.waitForLine("ready");
    holder.go();
    expect(await holder.waitForLine("locked")).toBe("locked");
    const blocked = await executor.execute({
      command: "str_replace",
      path: "/memories/project/a.md",
      old_str: "v0",
      new_str: "v1",
    });
    expect(blocked).toMatchObject({ status: "error", code: "busy" });
    await holder.kill();
    okText(
      await executor.execute({ command: "str_replace", path: "/memories/project/a.md", old_str: "v0", new_str: "v1" }),
    );
    expect(fs.readFileSync(fixture.hostPath("project", "a.md"), "utf8")).toBe("v1\n");
  });

  it("in the middle of a stream of edits leaves a whole file that can still be edited", async () => {
    const shared = await createSharedFile();
    const writer = start("A", "forever");
    await writer.waitForLine("ready");
    writer.go();
    while (fs.readFileSync(shared, "utf8").split("\n").length < 12) await sleep(1);
    await writer.kill();
    const content = fs.readFileSync(shared, "utf8");
    expect(content).toMatch(WELL_FORMED);
    const executor = fixture.executor();
    okText(
      await executor.execute({
        command: "str_replace",
        path: "/memories/project/shared.md",
        old_str: "<<END>>",
        new_str: "B-0\n<<END>>",
      }),
    );
    expect(fs.readFileSync(shared, "utf8")).toBe(content.replace("<<END>>", "B-0\n<<END>>"));
    expect(okText(await executor.execute({ command: "view", path: "/memories/project" }))).not.toContain("ctxwin-tmp");
  });
});
