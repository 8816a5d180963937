import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderHotMemories } from "./hot-memories.js";
import {
  SENTINEL_SECRET,
  createMemoryFixture,
  expectErrorCodes,
  okText,
  type MemoryFixture,
} from "./test-support/memory-fixture.js";

let fixture: MemoryFixture;
let before: Record<string, string>;
beforeEach(() => {
  fixture = createMemoryFixture();
  before = fixture.sentinelSnapshot();
});
afterEach(() => {
  expect(fixture.sentinelSnapshot()).toEqual(before);
  fixture.cleanup();
});

function everyCommandOn(target: string) {
  return [
    { command: "view", path: target },
    { command: "create", path: target, file_text: "pwned" },
    { command: "create", path: target, file_text: "pwned", overwrite: true },
    { command: "str_replace", path: target, old_str: SENTINEL_SECRET, new_str: "pwned" },
    { command: "insert", path: target, insert_line: 0, insert_text: "pwned" },
    { command: "delete", path: target },
    { command: "rename", old_path: target, new_path: "/memories/project/moved.md" },
    { command: "rename", old_path: "/memories/project/own.md", new_path: target },
  ];
}

describe("paths that leave the memory root are refused", () => {
  it.each([
    ["'..' segments", "/memories/project/../../sentinel/secret.txt", "outside_memory"],
    ["absolute host paths", "ABSOLUTE", "outside_memory"],
    ["NUL bytes", "/memories/project/a.md\u0000/../../../sentinel/secret.txt", "invalid_path"],
    ["Windows separators", "/memories/project\\..\\..\\sentinel\\secret.txt", "outside_memory"],
    ["drive letters", "C:\\memories\\project\\a.md", "outside_memory"],
  ])("%s", async (_name, raw, code) => {
    const target = raw === "ABSOLUTE" ? path.join(fixture.sentinel, "secret.txt") : raw;
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/project/own.md", file_text: "mine" }));
    for (const input of everyCommandOn(target)) {
      const result = await executor.execute(input);
      expect(result, JSON.stringify(input)).toMatchObject({ status: "error", code });
      expect(JSON.stringify(result)).not.toContain(SENTINEL_SECRET);
    }
  });
});

describe("symbolic links", () => {
  beforeEach(() => {
    const project = path.join(fixture.root, "project");
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, "own.md"), "mine\n");
    fs.symlinkSync(fixture.sentinel, path.join(project, "link-dir"));
    fs.symlinkSync(path.join(fixture.sentinel, "secret.txt"), path.join(project, "link-file.md"));
    fs.symlinkSync(path.join(fixture.sentinel, "created-through-link.md"), path.join(project, "dangling.md"));
    fs.symlinkSync(path.join(project, "own.md"), path.join(project, "alias.md"));
  });

  it.each([
    ["a link to a folder outside", "/memories/project/link-dir/secret.txt"],
    ["a link to a folder outside, nested", "/memories/project/link-dir/nested/deep.md"],
    ["the link to a folder itself", "/memories/project/link-dir"],
    ["a link to a file outside", "/memories/project/link-file.md"],
    ["a dangling link", "/memories/project/dangling.md"],
  ])("refuses every command through %s", async (_name, target) => {
    const executor = fixture.executor();
    for (const input of everyCommandOn(target)) {
      const result = await executor.execute(input);
      expect(result, JSON.stringify(input)).toMatchObject({ status: "error", code: "outside_memory" });
      expect(JSON.stringify(result)).not.toContain(SENTINEL_SECRET);
    }
    expect(fs.existsSync(path.join(fixture.sentinel, "created-through-link.md"))).toBe(false);
  });

  it("lists links without following them out", async () => {
    const text = okText(await fixture.executor().execute({ command: "view", path: "/memories/project" }));
    expect(text).toContain("/memories/project/link-dir  (symbolic link out of its scope or broken; not followed)");
    expect(text).toContain("/memories/project/link-file.md  (symbolic link out of its scope or broken; not followed)");
    expect(text).not.toContain("secret.txt");
    expect(text).not.toContain("nested");
  });

  it("follows a link that stays inside its scope", async () => {
    const executor = fixture.executor();
    expect(okText(await executor.execute({ command: "view", path: "/memories/project/alias.md" }))).toContain("\tmine");
    okText(
      await executor.execute({
        command: "str_replace",
        path: "/memories/project/alias.md",
        old_str: "mine",
        new_str: "ours",
      }),
    );
    expect(fs.readFileSync(path.join(fixture.root, "project", "own.md"), "utf8")).toBe("ours\n");
  });
});

describe("content limits", () => {
  it("refuses binary content when writing and binary files when reading", async () => {
    const executor = fixture.executor();
    await expectErrorCodes(executor, [
      [{ command: "create", path: "/memories/project/b.md", file_text: "a\u0000b" }, "binary_file"],
      [{ command: "create", path: "/memories/project/b.md", file_text: "lone \ud800 surrogate" }, "invalid_input"],
    ]);
    const project = path.join(fixture.root, "project");
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, "nul.bin"), Buffer.from([0x61, 0x00, 0x62]));
    fs.writeFileSync(path.join(project, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    await expectErrorCodes(executor, [
      [{ command: "view", path: "/memories/project/nul.bin" }, "binary_file"],
      [{ command: "view", path: "/memories/project/latin1.txt" }, "binary_file"],
      [{ command: "str_replace", path: "/memories/project/nul.bin", old_str: "a", new_str: "c" }, "binary_file"],
      [{ command: "insert", path: "/memories/project/latin1.txt", insert_line: 0, insert_text: "c" }, "binary_file"],
      [{ command: "str_replace", path: "/memories/project/nul.bin", old_str: "a", new_str: "\u0000" }, "binary_file"],
    ]);
  });

  it("accepts 100 KiB and refuses a byte more, whether created, grown or found on disk", async () => {
    const executor = fixture.executor();
    const limit = 100 * 1024;
    okText(
      await executor.execute({
        command: "create",
        path: "/memories/project/full.md",
        file_text: `start${"x".repeat(limit - 5)}`,
      }),
    );
    await expectErrorCodes(executor, [
      [{ command: "create", path: "/memories/project/over.md", file_text: "x".repeat(limit + 1) }, "file_too_large"],
      [
        { command: "create", path: "/memories/project/over.md", file_text: "é".repeat(limit / 2 + 1) },
        "file_too_large",
      ],
      [
        { command: "str_replace", path: "/memories/project/full.md", old_str: "start", new_str: "start!" },
        "file_too_large",
      ],
      [{ command: "insert", path: "/memories/project/full.md", insert_line: 0, insert_text: "y" }, "file_too_large"],
    ]);
    fs.writeFileSync(path.join(fixture.root, "project", "huge.md"), "z".repeat(limit * 2));
    expect(await executor.execute({ command: "view", path: "/memories/project/huge.md" })).toMatchObject({
      code: "file_too_large",
    });
    expect(fs.statSync(path.join(fixture.root, "project", "full.md")).size).toBe(limit);
  });

  it("refuses a new file beyond 1000 files per scope", async () => {
    const project = path.join(fixture.root, "project");
    fs.mkdirSync(path.join(project, "sub"), { recursive: true });
    for (let index = 0; index < 1000; index += 1)
      fs.writeFileSync(path.join(project, index < 500 ? "" : "sub", `f${index}.md`), "x");
    const executor = fixture.executor();
    expect(
      await executor.execute({ command: "create", path: "/memories/project/one-more.md", file_text: "x" }),
    ).toMatchObject({ code: "too_many_files" });
    okText(
      await executor.execute({
        command: "create",
        path: "/memories/project/f1.md",
        file_text: "replaced",
        overwrite: true,
      }),
    );
    okText(await executor.execute({ command: "create", path: "/memories/global/elsewhere.md", file_text: "x" }));
    expect(
      await executor.execute({
        command: "rename",
        old_path: "/memories/global/elsewhere.md",
        new_path: "/memories/project/elsewhere.md",
      }),
    ).toMatchObject({
      code: "too_many_files",
    });
    okText(
      await executor.execute({
        command: "rename",
        old_path: "/memories/project/f1.md",
        new_path: "/memories/project/sub/renamed.md",
      }),
    );
    okText(await executor.execute({ command: "delete", path: "/memories/project/f2.md" }));
    okText(await executor.execute({ command: "create", path: "/memories/project/one-more.md", file_text: "x" }));
  });
});

describe("scope folders that are symbolic links", () => {
  const layouts: Array<{ name: string; link: (root: string) => string; target: string }> = [
    { name: "<root>/project", link: (root) => path.join(root, "project"), target: "/memories/project/notes.md" },
    {
      name: "<root>/workspaces",
      link: (root) => path.join(root, "workspaces"),
      target: "/memories/workspace/notes.md",
    },
    {
      name: "<root>/workspaces/<id>",
      link: (root) => path.join(root, "workspaces", "s1"),
      target: "/memories/workspace/notes.md",
    },
  ];
  for (const { name, link, target } of layouts) {
    it(`${name} as a link out of the root: every command is refused and its notes never reach <hot_memories>`, async () => {
      fs.writeFileSync(path.join(fixture.sentinel, "notes.md"), `${SENTINEL_SECRET}\n`);
      fs.mkdirSync(path.join(fixture.sentinel, "s1"), { recursive: true });
      fs.writeFileSync(path.join(fixture.sentinel, "s1", "notes.md"), `${SENTINEL_SECRET}\n`);
      before = fixture.sentinelSnapshot();
      const linkPath = link(fixture.root);
      fs.mkdirSync(path.dirname(linkPath), { recursive: true });
      fs.symlinkSync(fixture.sentinel, linkPath);
      const executor = fixture.executor();
      for (const input of everyCommandOn(target).filter(
        (input) => !("new_path" in input && input.new_path === target),
      )) {
        const result = await executor.execute(input);
        expect(result, JSON.stringify(input)).toMatchObject({ status: "error", code: "outside_memory" });
        expect(JSON.stringify(result)).not.toContain(SENTINEL_SECRET);
      }
      const { text } = renderHotMemories({ root: fixture.root, sessionId: "s1" });
      expect(text).not.toContain(SENTINEL_SECRET);
    });
  }
});
