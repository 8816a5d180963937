import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTEXT_NOTES_PATH } from "../../core/hot-memories/limits.js";
import { MemoryPathError } from "./errors.js";
import { renderHotMemories } from "./hot-memories.js";
import { listMemoryPins, setMemoryPin } from "./pins.js";
import { SENTINEL_SECRET, createMemoryFixture, okText, type MemoryFixture } from "./test-support/memory-fixture.js";

const DAY = 86_400_000;
let fixture: MemoryFixture;
beforeEach(() => {
  fixture = createMemoryFixture();
});
afterEach(() => fixture.cleanup());

const render = (sessionId = "s1", now = new Date()) =>
  renderHotMemories({ root: fixture.root, sessionId, now: () => now });
const paths = (selection: ReturnType<typeof render>) => selection.entries.map((entry) => entry.path);

describe("hot memories from disk", () => {
  it("show a change to the notes file made through the tool in the very next render", async () => {
    const executor = fixture.executor();
    expect(render().text).toBe("");
    okText(await executor.execute({ command: "create", path: CONTEXT_NOTES_PATH, file_text: "- step 1 done\n" }));
    expect(render().text).toContain("- step 1 done");
    okText(
      await executor.execute({
        command: "str_replace",
        path: CONTEXT_NOTES_PATH,
        old_str: "step 1 done",
        new_str: "step 2 done",
      }),
    );
    const next = render().text;
    expect(next).toContain("- step 2 done");
    expect(next).not.toContain("step 1 done");
  });

  it("show a session's own notes, even never accessed, and not another session's", async () => {
    fs.mkdirSync(path.join(fixture.root, "workspaces", "s2"), { recursive: true });
    fs.writeFileSync(path.join(fixture.root, "workspaces", "s2", "context-notes.md"), "notes of s2");
    expect(render("s1").text).toBe("");
    expect(render("s2").text).toContain("notes of s2");
    expect(render("s2").entries[0]).toMatchObject({ path: CONTEXT_NOTES_PATH, reason: "notes" });
  });

  it("persist access counts: files used through the tool are selected, untouched files are not", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/project/used.md", file_text: "used" }));
    fs.writeFileSync(path.join(fixture.root, "project", "untouched.md"), "untouched");
    const selection = render();
    expect(paths(selection)).toEqual(["/memories/project/used.md"]);
    expect(selection.skipped).toEqual([]);
    const index = JSON.parse(fs.readFileSync(path.join(fixture.root, "hot-index.json"), "utf8")) as {
      version: number;
      files: Record<string, { access: { count: number } }>;
    };
    expect(index.version).toBe(1);
    expect(index.files["project/used.md"]?.access.count).toBe(1);
  });

  it("rank by accesses with a 7-day half-life, unlike raw counts or recency alone", async () => {
    let now = new Date(0);
    const executor = fixture.executor({ now: () => now });
    const use = async (name: string, times: number) => {
      okText(await executor.execute({ command: "create", path: `/memories/project/${name}`, file_text: name }));
      for (let index = 1; index < times; index += 1)
        okText(await executor.execute({ command: "view", path: `/memories/project/${name}` }));
    };
    await use("a.md", 3); // day 0: 3 accesses, worth 0.75 on day 14
    now = new Date(7 * DAY);
    await use("c.md", 1); // day 7: worth 0.5 on day 14
    now = new Date(14 * DAY);
    await use("b.md", 1); // day 14: worth 1
    expect(paths(render("s1", now))).toEqual([
      "/memories/project/b.md",
      "/memories/project/a.md",
      "/memories/project/c.md",
    ]);
  });

  it("persist pins across processes' views of the index and keep them through a rename", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/global/style.md", file_text: "style" }));
    fs.mkdirSync(path.join(fixture.root, "project"), { recursive: true });
    fs.writeFileSync(path.join(fixture.root, "project", "manual.md"), "written by the user");
    await setMemoryPin({ root: fixture.root, sessionId: "s1", path: "/memories/project/manual.md" });
    expect(listMemoryPins({ root: fixture.root, sessionId: "s2" })).toEqual(["/memories/project/manual.md"]);
    expect(paths(render())).toEqual(["/memories/project/manual.md", "/memories/global/style.md"]);

    okText(
      await executor.execute({
        command: "rename",
        old_path: "/memories/project/manual.md",
        new_path: "/memories/project/guide/manual.md",
      }),
    );
    expect(listMemoryPins({ root: fixture.root, sessionId: "s1" })).toEqual(["/memories/project/guide/manual.md"]);
    okText(await executor.execute({ command: "delete", path: "/memories/project/guide" }));
    expect(listMemoryPins({ root: fixture.root, sessionId: "s1" })).toEqual([]);

    await setMemoryPin({ root: fixture.root, sessionId: "s1", path: "/memories/global/style.md" });
    await setMemoryPin({ root: fixture.root, sessionId: "s1", path: "/memories/global/style.md", pinned: false });
    expect(listMemoryPins({ root: fixture.root, sessionId: "s1" })).toEqual([]);
    expect(paths(render())).toEqual(["/memories/global/style.md"]); // still accessed, no longer pinned
  });

  it("refuse to pin what is not an existing memory file", async () => {
    for (const bad of ["/etc/passwd", "/memories/project/missing.md", "/memories/project", "/memories/../x"]) {
      await expect(setMemoryPin({ root: fixture.root, sessionId: "s1", path: bad })).rejects.toSatisfy((error) =>
        MemoryPathError.isInstance(error),
      );
    }
  });

  it("are not written by a read-only session", async () => {
    fs.mkdirSync(path.join(fixture.root, "project"), { recursive: true });
    fs.writeFileSync(path.join(fixture.root, "project", "a.md"), "a");
    okText(await fixture.executor({ readOnly: true }).execute({ command: "view", path: "/memories/project/a.md" }));
    expect(fs.existsSync(path.join(fixture.root, "hot-index.json"))).toBe(false);
  });

  it("never read indexed files that are links out of the root, binary or too large", async () => {
    const project = path.join(fixture.root, "project");
    const executor = fixture.executor();
    for (const name of ["escape.md", "binary.md", "large.md"])
      okText(await executor.execute({ command: "create", path: `/memories/project/${name}`, file_text: "x" }));
    fs.rmSync(path.join(project, "escape.md"));
    fs.symlinkSync(path.join(fixture.sentinel, "secret.txt"), path.join(project, "escape.md"));
    fs.writeFileSync(path.join(project, "binary.md"), Buffer.from([1, 0, 2]));
    fs.writeFileSync(path.join(project, "large.md"), "y".repeat(101 * 1024));
    const selection = render();
    expect(selection.text).toBe("");
    expect(JSON.stringify(selection)).not.toContain(SENTINEL_SECRET);
    expect(selection.unreadable.map((item) => item.path).sort()).toEqual([
      "/memories/project/binary.md",
      "/memories/project/escape.md",
      "/memories/project/large.md",
    ]);
  });

  it("survive an unreadable index and keep it aside instead of overwriting it", async () => {
    fs.mkdirSync(fixture.root, { recursive: true });
    fs.writeFileSync(path.join(fixture.root, "hot-index.json"), "{ not json");
    expect(render().indexProblem).toContain("not valid JSON");
    okText(await fixture.executor().execute({ command: "create", path: "/memories/project/a.md", file_text: "a" }));
    expect(paths(render())).toEqual(["/memories/project/a.md"]);
    expect(fs.readdirSync(fixture.root).filter((name) => name.startsWith("hot-index.json.unreadable-"))).toHaveLength(
      1,
    );
  });

  it("leave an index of a newer format untouched", async () => {
    fs.mkdirSync(fixture.root, { recursive: true });
    const newer = JSON.stringify({ version: 2, files: {} });
    fs.writeFileSync(path.join(fixture.root, "hot-index.json"), newer);
    okText(await fixture.executor().execute({ command: "create", path: "/memories/project/a.md", file_text: "a" }));
    expect(fs.readFileSync(path.join(fixture.root, "hot-index.json"), "utf8")).toBe(newer);
    expect(render().indexProblem).toContain("newer");
  });
});
