import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryFixture, expectErrorCodes, okText, type MemoryFixture } from "./test-support/memory-fixture.js";

let fixture: MemoryFixture;
beforeEach(() => {
  fixture = createMemoryFixture();
});
afterEach(() => fixture.cleanup());

const read = (scope: "global" | "project" | "workspace", relative: string) =>
  fs.readFileSync(fixture.hostPath(scope, relative), "utf8");

describe("create", () => {
  it("creates a file and its folders", async () => {
    const result = await fixture
      .executor()
      .execute({ command: "create", path: "/memories/project/topics/api.md", file_text: "# API\n" });
    expect(okText(result)).toBe("Created /memories/project/topics/api.md (6 bytes).");
    expect(result).toMatchObject({ changedPaths: ["/memories/project/topics/api.md"] });
    expect(read("project", "topics/api.md")).toBe("# API\n");
  });

  it("refuses an existing file unless overwrite is explicit", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/global/a.md", file_text: "first" }));
    const again = await executor.execute({ command: "create", path: "/memories/global/a.md", file_text: "second" });
    expect(again).toMatchObject({ status: "error", code: "already_exists" });
    expect(read("global", "a.md")).toBe("first");
    okText(
      await executor.execute({
        command: "create",
        path: "/memories/global/a.md",
        file_text: "second",
        overwrite: true,
      }),
    );
    expect(read("global", "a.md")).toBe("second");
  });

  it("refuses directories, scope roots and a missing file_text", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/project/dir/a.md", file_text: "x" }));
    expect(await executor.execute({ command: "create", path: "/memories/project/dir", file_text: "x" })).toMatchObject({
      code: "is_directory",
    });
    expect(await executor.execute({ command: "create", path: "/memories/project", file_text: "x" })).toMatchObject({
      code: "invalid_input",
    });
    expect(await executor.execute({ command: "create", path: "/memories", file_text: "x" })).toMatchObject({
      code: "invalid_input",
    });
    expect(await executor.execute({ command: "create", path: "/memories/project/b.md" })).toMatchObject({
      code: "invalid_input",
    });
    expect(
      await executor.execute({ command: "create", path: "/memories/project/dir/a.md/c.md", file_text: "x" }),
    ).toMatchObject({ code: "not_a_directory" });
  });

  it("writes the workspace of its own session only", async () => {
    okText(
      await fixture
        .executor({ sessionId: "s1" })
        .execute({ command: "create", path: "/memories/workspace/n.md", file_text: "one" }),
    );
    okText(
      await fixture
        .executor({ sessionId: "s2" })
        .execute({ command: "create", path: "/memories/workspace/n.md", file_text: "two" }),
    );
    expect(fs.readFileSync(fixture.hostPath("workspace", "n.md", "s1"), "utf8")).toBe("one");
    expect(fs.readFileSync(fixture.hostPath("workspace", "n.md", "s2"), "utf8")).toBe("two");
    const view = okText(
      await fixture.executor({ sessionId: "s2" }).execute({ command: "view", path: "/memories/workspace/n.md" }),
    );
    expect(view).toContain("\ttwo");
  });

  it("leaves no temporary files behind", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "x" }));
    okText(
      await executor.execute({ command: "str_replace", path: "/memories/project/a.md", old_str: "x", new_str: "y" }),
    );
    expect(fs.readdirSync(path.join(fixture.root, "project")).filter((name) => name.startsWith(".ctxwin-tmp"))).toEqual(
      [],
    );
  });
});

describe("str_replace", () => {
  it("replaces a unique match and shows the changed lines", async () => {
    const executor = fixture.executor();
    okText(
      await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "alpha\nbeta\ngamma\n" }),
    );
    const text = okText(
      await executor.execute({
        command: "str_replace",
        path: "/memories/project/a.md",
        old_str: "beta",
        new_str: "BETA\nbeta2",
      }),
    );
    expect(read("project", "a.md")).toBe("alpha\nBETA\nbeta2\ngamma\n");
    expect(text).toBe(
      "Edited /memories/project/a.md: replaced the text at line 2.\nLines 1 to 4 now read:\n     1\talpha\n     2\tBETA\n     3\tbeta2\n     4\tgamma",
    );
  });

  it("reports every line of an ambiguous match and changes nothing", async () => {
    const executor = fixture.executor();
    okText(
      await executor.execute({
        command: "create",
        path: "/memories/project/a.md",
        file_text: "todo\nx\ntodo\ny\nsome todo\n",
      }),
    );
    const result = await executor.execute({
      command: "str_replace",
      path: "/memories/project/a.md",
      old_str: "todo",
      new_str: "done",
    });
    expect(result).toMatchObject({ status: "error", code: "ambiguous_match" });
    expect(result.status === "error" && result.message).toContain("appears 3 times");
    expect(result.status === "error" && result.message).toContain("lines 1, 3, 5");
    expect(read("project", "a.md")).toBe("todo\nx\ntodo\ny\nsome todo\n");
  });

  it("counts overlapping matches as ambiguous", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "aaa" }));
    expect(
      await executor.execute({ command: "str_replace", path: "/memories/project/a.md", old_str: "aa", new_str: "b" }),
    ).toMatchObject({ code: "ambiguous_match" });
  });

  it("fails when the text is not there, and refuses empty or identical strings", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "hello" }));
    await expectErrorCodes(executor, [
      [{ command: "str_replace", path: "/memories/project/a.md", old_str: "bye", new_str: "x" }, "no_match"],
      [{ command: "str_replace", path: "/memories/project/a.md", old_str: "", new_str: "x" }, "invalid_input"],
      [{ command: "str_replace", path: "/memories/project/a.md", old_str: "hello", new_str: "hello" }, "invalid_input"],
      [{ command: "str_replace", path: "/memories/project/a.md", old_str: "hello" }, "invalid_input"],
      [{ command: "str_replace", path: "/memories/project/none.md", old_str: "a", new_str: "b" }, "not_found"],
    ]);
  });

  it("deletes the matched text when new_str is empty", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "keep drop keep" }));
    okText(
      await executor.execute({ command: "str_replace", path: "/memories/project/a.md", old_str: " drop", new_str: "" }),
    );
    expect(read("project", "a.md")).toBe("keep keep");
  });

  it("fails instead of overwriting a change made by a writer that does not take the lock", async () => {
    const file = fixture.hostPath("project", "a.md");
    let interfere = false;
    const executor = fixture.executor({
      beforeCommit: () => {
        if (interfere) fs.writeFileSync(file, "state: edited elsewhere\n"); // an editor saving in place
      },
    });
    okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "state: v0\n" }));
    interfere = true;
    const result = await executor.execute({
      command: "str_replace",
      path: "/memories/project/a.md",
      old_str: "v0",
      new_str: "v1",
    });
    expect(result).toMatchObject({ status: "error", code: "changed_concurrently" });
    expect(fs.readFileSync(file, "utf8")).toBe("state: edited elsewhere\n");
  });
});

describe("insert", () => {
  it("inserts after the given line, at the top with 0 and at the end with the line count", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "one\ntwo\n" }));
    okText(
      await executor.execute({
        command: "insert",
        path: "/memories/project/a.md",
        insert_line: 1,
        insert_text: "one-and-a-half",
      }),
    );
    okText(
      await executor.execute({
        command: "insert",
        path: "/memories/project/a.md",
        insert_line: 0,
        insert_text: "zero\n",
      }),
    );
    const text = okText(
      await executor.execute({
        command: "insert",
        path: "/memories/project/a.md",
        insert_line: 4,
        insert_text: "three\nfour",
      }),
    );
    expect(read("project", "a.md")).toBe("zero\none\none-and-a-half\ntwo\nthree\nfour\n");
    expect(text).toContain("Inserted 2 line(s) into /memories/project/a.md after line 4.");
    expect(text).toContain("     5\tthree\n     6\tfour");
  });

  it("keeps a file without a final newline without one, and fills an empty file", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "a\nb" }));
    okText(
      await executor.execute({ command: "insert", path: "/memories/project/a.md", insert_line: 2, insert_text: "c" }),
    );
    expect(read("project", "a.md")).toBe("a\nb\nc");
    okText(await executor.execute({ command: "create", path: "/memories/project/e.md", file_text: "" }));
    okText(
      await executor.execute({
        command: "insert",
        path: "/memories/project/e.md",
        insert_line: 0,
        insert_text: "first",
      }),
    );
    expect(read("project", "e.md")).toBe("first\n");
  });

  it("refuses a line outside the file and bad values", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "one\n" }));
    for (const insert_line of [2, -1, 0.5, "1.0", "01", null]) {
      expect(
        await executor.execute({ command: "insert", path: "/memories/project/a.md", insert_line, insert_text: "x" }),
      ).toMatchObject({ code: "invalid_input" });
    }
    expect(
      await executor.execute({ command: "insert", path: "/memories/project/a.md", insert_line: 0, insert_text: "" }),
    ).toMatchObject({ code: "invalid_input" });
    expect(read("project", "a.md")).toBe("one\n");
  });

  it("reads insert_line written as a canonical decimal string (MCP Inspector sends text), refuses other text", async () => {
    const executor = fixture.executor();
    okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "one\nthree\n" }));
    okText(
      await executor.execute({
        command: "insert",
        path: "/memories/project/a.md",
        insert_line: "1",
        insert_text: "two",
      }),
    );
    expect(read("project", "a.md")).toBe("one\ntwo\nthree\n");
    for (const insert_line of ["1.5", "1e0", "", " 1", "+1", "01", "-1", "-0"]) {
      expect(
        await executor.execute({ command: "insert", path: "/memories/project/a.md", insert_line, insert_text: "x" }),
      ).toEqual({
        status: "error",
        command: "insert",
        code: "invalid_input",
        message: "insert_line must be a whole number ≥ 0: the line after which to insert (0 inserts at the top).",
      });
    }
    expect(
      await executor.execute({ command: "insert", path: "/memories/project/a.md", insert_line: "4", insert_text: "x" }),
    ).toMatchObject({
      message: "insert_line must be from 0 to 3 (/memories/project/a.md has 3 line(s)); got 4.",
    });
    expect(read("project", "a.md")).toBe("one\ntwo\nthree\n");
  });
});
