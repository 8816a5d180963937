import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, makeWorkspace } from "./test-support/workspace-fixture.js";
import { workspaceTools } from "./workspace-tools.js";

/** Reads a whole file page by page, following the continuation offsets; returns the pages' lines. */
async function readAllPages(
  tools: ReturnType<typeof workspaceTools>,
  file: string,
): Promise<{ text: string; calls: number }> {
  const pieces: string[] = [];
  let offset = 1;
  let calls = 0;
  for (;;) {
    calls += 1;
    const result = await callTool(tools, "read_file", { path: file, offset });
    const [header, ...rest] = result.split("\n");
    expect(header).toMatch(/^File: .+ · lines \d+–\d+ of \d+$/);
    const marker = rest.at(-1)?.match(/^\[… truncated: continue with offset=(\d+)\]$/);
    if (marker === null || marker === undefined) {
      pieces.push(rest.join("\n"));
      return { text: pieces.join("\n"), calls };
    }
    pieces.push(rest.slice(0, -1).join("\n"));
    offset = Number(marker[1]);
  }
}

describe("read_file", () => {
  it("shows a header and the raw lines of a selection", async () => {
    const { root } = makeWorkspace({ "src/a.ts": "one\n  two\nthree\nfour\n" });
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "read_file", { path: "src/a.ts" })).toBe(
      "File: src/a.ts · lines 1–4 of 4\none\n  two\nthree\nfour",
    );
    expect(await callTool(tools, "read_file", { path: "src/a.ts", offset: 2, limit: 2 })).toBe(
      "File: src/a.ts · lines 2–3 of 4\n  two\nthree",
    );
    expect(await callTool(tools, "read_file", { path: "./src//a.ts", offset: 4, limit: 10 })).toBe(
      "File: src/a.ts · lines 4–4 of 4\nfour",
    );
    expect(await callTool(tools, "read_file", { path: "src/a.ts", offset: null, limit: null })).toContain(
      "lines 1–4 of 4",
    );
  });

  it("round-trips a file exactly through truncated pages (CRLF, unicode, blank lines, no final newline)", async () => {
    const lines = Array.from({ length: 401 }, (_, index) =>
      index % 7 === 0 ? "" : `línea ${index} ${"ü😀".repeat(index % 13)}\r`,
    );
    const content = lines.join("\n");
    const { root } = makeWorkspace({ "big.txt": content, "final-newline.txt": `${content}\n` });
    const tools = workspaceTools({ root, limits: { maxReadChars: 500 } });
    const withoutNewline = await readAllPages(tools, "big.txt");
    expect(withoutNewline.text).toBe(content);
    expect(withoutNewline.calls).toBeGreaterThan(10);
    const withNewline = await readAllPages(tools, "final-newline.txt");
    expect(`${withNewline.text}\n`).toBe(`${content}\n`);
  });

  it("never returns more than maxReadChars of file text and cuts a single over-long line", async () => {
    const { root } = makeWorkspace({ "min.js": `${"x".repeat(5000)}\nshort\n` });
    const tools = workspaceTools({ root, limits: { maxReadChars: 100 } });
    const result = await callTool(tools, "read_file", { path: "min.js" });
    const [header, body, note] = result.split("\n");
    expect(header).toBe("File: min.js · lines 1–1 of 2");
    expect(body).toBe("x".repeat(100));
    expect(note).toBe(
      "[… truncated: line 1 has 5000 characters, only the first 100 are shown; continue with offset=2]",
    );
    expect(await callTool(tools, "read_file", { path: "min.js", offset: 2 })).toBe(
      "File: min.js · lines 2–2 of 2\nshort",
    );
  });

  it("reads an empty file and refuses offsets past the end", async () => {
    const { root } = makeWorkspace({ "empty.txt": "", "two.txt": "a\nb\n" });
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "read_file", { path: "empty.txt" })).toBe(
      "File: empty.txt · lines 0–0 of 0 (empty file)",
    );
    expect(await callTool(tools, "read_file", { path: "two.txt", offset: 3 })).toBe(
      "Error: offset 3 is past the end of two.txt, which has 2 line(s); use an offset from 1 to 2.",
    );
  });

  it("refuses binary files, folders, missing files and FIFOs with what to do instead", async () => {
    const { root } = makeWorkspace({
      "image.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
      "docs/readme.md": "hi",
    });
    fs.mkdirSync(path.join(root, "empty-folder"));
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "read_file", { path: "image.png" })).toMatch(/^Error: image\.png is a binary file/);
    expect(await callTool(tools, "read_file", { path: "docs" })).toBe(
      'Error: docs is a folder, not a file; use list_files with path "docs".',
    );
    expect(await callTool(tools, "read_file", { path: "docs/missing.md" })).toMatch(
      /^Error: docs\/missing\.md does not exist; use list_files or search_text/,
    );
    expect(await callTool(tools, "read_file", { path: "docs/readme.md/x" })).toMatch(
      /^Error: docs\/readme\.md is a file, not a folder/,
    );
    if (process.platform !== "win32") {
      const { execFileSync } = await import("node:child_process");
      execFileSync("mkfifo", [path.join(root, "pipe")]);
      expect(await callTool(tools, "read_file", { path: "pipe" })).toMatch(/^Error: pipe is not a regular file/);
    }
  });

  it("reads unicode paths", async () => {
    const { root } = makeWorkspace({ "données/日本語 ü.md": "bonjour\n" });
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "read_file", { path: "données/日本語 ü.md" })).toBe(
      "File: données/日本語 ü.md · lines 1–1 of 1\nbonjour",
    );
  });

  it("answers wrong input types with an error result naming the field", async () => {
    const { root } = makeWorkspace({ "a.txt": "a" });
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "read_file", { path: 7 })).toMatch(
      /^Error: Invalid input: path must be a path string .*; got 7\.$/,
    );
    expect(await callTool(tools, "read_file", {})).toMatch(/^Error: Invalid input: path must be .*; it is missing\.$/);
    expect(await callTool(tools, "read_file", { path: "a.txt", offset: 0, limit: "5 lines" })).toBe(
      'Error: Invalid input: offset must be an integer ≥ 1 (a 1-based line number); got 0; limit must be an integer ≥ 1; got "5 lines".',
    );
    expect(await callTool(tools, "read_file", "a.txt")).toMatch(/^Error: Invalid input: path must be/);
  });
});
