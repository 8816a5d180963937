import { describe, expect, it } from "vitest";
import { unifiedDiff } from "./line-diff.js";

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index}\n`).join("");

describe("unifiedDiff", () => {
  it("diffs a new file against /dev/null", () => {
    expect(unifiedDiff({ path: "config.toml", before: undefined, after: "a\nb\n" })).toBe(
      "--- /dev/null\n+++ config.toml\n@@ -0,0 +1,2 @@\n+a\n+b\n",
    );
  });

  it("shows a changed line as its removal, then its addition, with three lines of context", () => {
    const before = '{\n  "theme": "dark"\n}\n';
    const after = '{\n  "theme": "dark",\n  "hooks": {}\n}\n';
    expect(unifiedDiff({ path: "settings.json", before, after })).toBe(
      [
        "--- settings.json",
        "+++ settings.json",
        "@@ -1,3 +1,4 @@",
        " {",
        '-  "theme": "dark"',
        '+  "theme": "dark",',
        '+  "hooks": {}',
        " }",
        "",
      ].join("\n"),
    );
  });

  it("gives changes far apart a hunk each instead of printing the unchanged lines between them", () => {
    const before = numbered(40);
    const after = before.replace("line 2\n", "two\n").replace("line 35\n", "thirty-five\n");
    const diff = unifiedDiff({ path: "f", before, after });
    expect(diff.match(/^@@ .* @@$/gm)).toEqual(["@@ -1,6 +1,6 @@", "@@ -33,7 +33,7 @@"]);
    expect(diff).not.toContain(" line 20\n");
  });

  it("says where a side has no newline at its end", () => {
    expect(unifiedDiff({ path: "f", before: "a\nb", after: "a\nb\nc\n" })).toBe(
      "--- f\n+++ f\n@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n",
    );
  });

  it("writes a path as it is, without C quoting", () => {
    const path = "C:\\Users\\José\\.codex\\config.toml";
    expect(unifiedDiff({ path, before: "a\n", after: "b\n" }).split("\n").slice(0, 2)).toEqual([
      `--- ${path}`,
      `+++ ${path}`,
    ]);
  });
});
