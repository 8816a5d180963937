import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryFixture, expectErrorCodes, okText, type MemoryFixture } from "./test-support/memory-fixture.js";

let fixture: MemoryFixture;
beforeEach(() => {
  fixture = createMemoryFixture();
});
afterEach(() => fixture.cleanup());

async function seed(files: Record<string, string>) {
  const executor = fixture.executor();
  for (const [path, file_text] of Object.entries(files))
    okText(await executor.execute({ command: "create", path, file_text }));
  return executor;
}

describe("delete", () => {
  it("deletes a file", async () => {
    const executor = await seed({ "/memories/project/a.md": "x" });
    expect(okText(await executor.execute({ command: "delete", path: "/memories/project/a.md" }))).toBe(
      "Deleted /memories/project/a.md.",
    );
    expect(fs.existsSync(fixture.hostPath("project", "a.md"))).toBe(false);
  });

  it("deletes a folder with everything in it", async () => {
    const executor = await seed({
      "/memories/project/dir/a.md": "x",
      "/memories/project/dir/sub/b.md": "y",
      "/memories/project/keep.md": "z",
    });
    expect(okText(await executor.execute({ command: "delete", path: "/memories/project/dir/" }))).toBe(
      "Deleted the folder /memories/project/dir and the 2 file(s) in it.",
    );
    expect(fs.existsSync(fixture.hostPath("project", "dir"))).toBe(false);
    expect(fs.existsSync(fixture.hostPath("project", "keep.md"))).toBe(true);
  });

  it("refuses the root, a scope and a missing path", async () => {
    const executor = await seed({ "/memories/project/a.md": "x" });
    expect(await executor.execute({ command: "delete", path: "/memories" })).toMatchObject({ code: "invalid_input" });
    expect(await executor.execute({ command: "delete", path: "/memories/project" })).toMatchObject({
      code: "invalid_input",
    });
    expect(await executor.execute({ command: "delete", path: "/memories/project/none.md" })).toMatchObject({
      code: "not_found",
    });
    expect(fs.existsSync(fixture.hostPath("project", "a.md"))).toBe(true);
  });
});

describe("rename", () => {
  it("moves a file, creating folders, also across scopes", async () => {
    const executor = await seed({ "/memories/workspace/draft.md": "draft" });
    expect(
      okText(
        await executor.execute({
          command: "rename",
          old_path: "/memories/workspace/draft.md",
          new_path: "/memories/project/docs/final.md",
        }),
      ),
    ).toBe("Renamed /memories/workspace/draft.md to /memories/project/docs/final.md.");
    expect(fs.readFileSync(fixture.hostPath("project", "docs/final.md"), "utf8")).toBe("draft");
    expect(fs.existsSync(fixture.hostPath("workspace", "draft.md"))).toBe(false);
  });

  it("moves a folder", async () => {
    const executor = await seed({ "/memories/project/a/x.md": "x" });
    okText(
      await executor.execute({ command: "rename", old_path: "/memories/project/a", new_path: "/memories/project/b" }),
    );
    expect(fs.readFileSync(fixture.hostPath("project", "b/x.md"), "utf8")).toBe("x");
  });

  it("never replaces an existing entry and refuses impossible moves", async () => {
    const executor = await seed({
      "/memories/project/a.md": "a",
      "/memories/project/b.md": "b",
      "/memories/project/d/x.md": "x",
    });
    await expectErrorCodes(executor, [
      [{ command: "rename", old_path: "/memories/project/a.md", new_path: "/memories/project/b.md" }, "already_exists"],
      [{ command: "rename", old_path: "/memories/project/a.md", new_path: "/memories/project/a.md" }, "invalid_input"],
      [{ command: "rename", old_path: "/memories/project/d", new_path: "/memories/project/d/e" }, "invalid_input"],
      [{ command: "rename", old_path: "/memories/project", new_path: "/memories/global/p" }, "invalid_input"],
      [{ command: "rename", old_path: "/memories/project/none.md", new_path: "/memories/project/c.md" }, "not_found"],
      [{ command: "rename", old_path: "/memories/project/a.md" }, "invalid_input"],
    ]);
    expect(fs.readFileSync(fixture.hostPath("project", "b.md"), "utf8")).toBe("b");
  });
});

describe("read-only memory and bad input", () => {
  it("allows view and refuses every change", async () => {
    await seed({ "/memories/project/a.md": "x" });
    const executor = fixture.executor({ readOnly: true });
    expect(okText(await executor.execute({ command: "view", path: "/memories/project/a.md" }))).toContain("\tx");
    const attempts = [
      { command: "create", path: "/memories/project/b.md", file_text: "y" },
      { command: "str_replace", path: "/memories/project/a.md", old_str: "x", new_str: "y" },
      { command: "insert", path: "/memories/project/a.md", insert_line: 0, insert_text: "y" },
      { command: "delete", path: "/memories/project/a.md" },
      { command: "rename", old_path: "/memories/project/a.md", new_path: "/memories/project/c.md" },
    ];
    for (const attempt of attempts)
      expect(await executor.execute(attempt)).toMatchObject({ status: "error", code: "read_only" });
    expect(fs.readdirSync(fixture.hostPath("project", "")).filter((name) => !name.startsWith("."))).toEqual(["a.md"]);
  });

  it("answers malformed input with an error result", async () => {
    const executor = fixture.executor();
    for (const input of [
      null,
      "view",
      [],
      {},
      { command: "explode" },
      { command: "view" },
      { command: "view", path: 7 },
    ]) {
      const result = await executor.execute(input);
      expect(result.status).toBe("error");
      expect(result.status === "error" && result.code).toMatch(/invalid_input|invalid_path/);
    }
  });
});
