import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitignoreRules } from "./gitignore-rules.js";
import { MAX_IGNORE_FILE_BYTES, MAX_IGNORE_FILE_RULES } from "./limits.js";
import { formatSize } from "./results.js";
import { callToolWithPermissions, UNPRIVILEGED_SKIP_REASON } from "./test-support/permission-call.js";
import { callTool, makeWorkspace } from "./test-support/workspace-fixture.js";
import { walkTree } from "./walk-tree.js";
import { workspaceTools } from "./workspace-tools.js";

/** The paths of a `list_files` result, without sizes and without the bracketed notes. */
async function listed(
  tools: ReturnType<typeof workspaceTools>,
  input: Record<string, unknown> = {},
): Promise<string[]> {
  const text = await callTool(tools, "list_files", input);
  return text
    .split("\n")
    .filter((line) => !line.startsWith("["))
    .map((line) => line.replace(/ \([^)]*\)$/, ""));
}

function gitAvailable(): boolean {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Git with no global or system configuration (no core.excludesFile of the machine running the tests). */
function git(base: string, cwd: string, args: string[]): string {
  const env = {
    ...process.env,
    HOME: base,
    XDG_CONFIG_HOME: base,
    GIT_CONFIG_GLOBAL: path.join(base, "no-gitconfig"),
    GIT_CONFIG_NOSYSTEM: "1",
  };
  return execFileSync("git", args, { cwd, env, encoding: "utf8" });
}

const PATTERN_FIXTURE: Record<string, string> = {
  ".gitignore": [
    "# build output",
    "dist/",
    "*.log",
    "!keep.log",
    "/root-only.txt",
    "build",
    "docs/**/draft-*.md",
    "\\#hash.txt",
    "/a/b/",
    "*.gen.ts",
    "[Tt]emp/",
    "!secret.txt",
    "*.LOWER",
    "",
  ].join("\n"),
  "packages/app/.gitignore": "/out\n*.tmp\n!keep.gen.ts\n",
  "a/.gitignore": "!b/\n",
  "dist/index.js": "x",
  "app.log": "x",
  "keep.log": "x",
  "sub/keep.log": "x",
  "sub/other.log": "x",
  "root-only.txt": "x",
  "sub/root-only.txt": "x",
  "build/x.js": "x",
  "tools/build": "x",
  "docs/guide/draft-1.md": "x",
  "docs/draft-2.md": "x",
  "docs/final.md": "x",
  "#hash.txt": "x",
  "a/b/x.txt": "x",
  "a/c.txt": "x",
  "src/x.gen.ts": "x",
  "src/main.ts": "x",
  "packages/app/keep.gen.ts": "x",
  "packages/app/other.gen.ts": "x",
  "packages/app/out/o.js": "x",
  "packages/app/src/out/o.js": "x",
  "packages/app/t.tmp": "x",
  "packages/lib/out/o.js": "x",
  "packages/lib/t.tmp": "x",
  "Temp/t.txt": "x",
  "temp/t.txt": "x",
  "secret.txt": "x",
  "excluded-by-info.txt": "x",
  "name.lower": "x",
};

describe("git ignore rules in list_files and search_text", () => {
  it("applies negation, anchoring, folder-only patterns and nested .gitignore files relative to their folder", async () => {
    const { root } = makeWorkspace(PATTERN_FIXTURE);
    const tools = workspaceTools({ root });
    const shown = await listed(tools);
    expect(shown).toEqual(
      expect.arrayContaining([
        "keep.log",
        "sub/keep.log",
        "sub/root-only.txt",
        "docs/final.md",
        "a/b/x.txt",
        "a/c.txt",
        "src/main.ts",
        "packages/app/keep.gen.ts",
        "packages/app/src/out/o.js",
        "packages/lib/out/o.js",
        "packages/lib/t.tmp",
        ".gitignore",
        "packages/app/.gitignore",
      ]),
    );
    for (const hidden of [
      "dist/index.js",
      "app.log",
      "sub/other.log",
      "root-only.txt",
      "build/x.js",
      "tools/build",
      "docs/guide/draft-1.md",
      "docs/draft-2.md",
      "#hash.txt",
      "src/x.gen.ts",
      "packages/app/other.gen.ts",
      "packages/app/out/o.js",
      "packages/app/t.tmp",
      "Temp/t.txt",
      "temp/t.txt",
    ]) {
      expect(shown).not.toContain(hidden);
    }
  });

  it.skipIf(!gitAvailable())(
    "leaves out exactly the files git leaves out (git ls-files --others --exclude-standard; skipped without git)",
    async () => {
      const { base, root } = makeWorkspace(PATTERN_FIXTURE);
      git(base, root, ["init", "-q"]);
      fs.writeFileSync(path.join(root, ".git", "info", "exclude"), "excluded-by-info.txt\nsecret.txt\n");
      const expected = git(base, root, ["ls-files", "-z", "--others", "--exclude-standard"])
        .split("\0")
        .filter((name) => name !== "");
      const shown = await listed(workspaceTools({ root }));
      expect([...shown].sort()).toEqual([...expected].sort());
      // The fixture exercises both sides: .git/info/exclude hides a file, and .gitignore's "!secret.txt" outranks it.
      expect(shown).not.toContain("excluded-by-info.txt");
      expect(shown).toContain("secret.txt");
    },
  );

  it("does not enter ignored folders, and names the first ignored entries in a note", async () => {
    const { root } = makeWorkspace({
      ".gitignore": "dist/\ncoverage/\n*.log\n",
      "dist/a/b.js": "",
      "coverage/lcov.info": "",
      "a.log": "",
      "b.log": "",
      "src/x.ts": "",
    });
    const asked: string[] = [];
    const rules = gitignoreRules({ root });
    const summary = walkTree({
      absolute: root,
      shown: ".",
      recursive: true,
      visit: () => true,
      isIgnored: (absolute, isDirectory) => {
        asked.push(path.relative(root, absolute));
        return rules.isIgnored(absolute, isDirectory);
      },
    });
    expect(asked).not.toContain(path.join("dist", "a"));
    expect(summary.ignored).toBe(4);
    expect(summary.firstIgnored).toEqual(["a.log", "b.log", "coverage/"]);
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "list_files", {})).toBe(
      [
        ".gitignore (22 B)",
        "src/x.ts (0 B)",
        "[4 git-ignored entries not shown: a.log, b.log, coverage/, …; pass one as path to list it]",
      ].join("\n"),
    );
    expect(await callTool(tools, "list_files", { path: "src" })).toBe("src/x.ts (0 B)");
  });

  it("uses a path that is named even when it is ignored: list_files, search_text and read_file", async () => {
    const { root } = makeWorkspace({
      ".gitignore": "dist/\n*.map\n",
      "dist/index.js": "const needle = 1;\n",
      "dist/index.js.map": "needle",
      "dist/types/a.d.ts": "needle",
      "src/a.ts": "",
    });
    const tools = workspaceTools({ root });
    expect(await listed(tools, { path: "dist" })).toEqual(["dist/index.js", "dist/index.js.map", "dist/types/a.d.ts"]);
    expect(await callTool(tools, "list_files", { path: "dist/index.js" })).toBe("dist/index.js (18 B)");
    expect(await callTool(tools, "read_file", { path: "dist/index.js" })).toBe(
      "File: dist/index.js · lines 1–1 of 1\nconst needle = 1;",
    );
    expect(await callTool(tools, "search_text", { query: "needle", path: "dist/index.js" })).toBe(
      "dist/index.js:1: const needle = 1;",
    );
    expect((await callTool(tools, "search_text", { query: "needle", path: "dist" })).split("\n")).toEqual([
      "dist/index.js:1: const needle = 1;",
      "dist/index.js.map:1: needle",
      "dist/types/a.d.ts:1: needle",
    ]);
  });

  it("says when a search found nothing but ignored entries were not searched", async () => {
    const { root } = makeWorkspace({ ".gitignore": "dist/\n", "dist/index.js": "needle", "src/a.ts": "haystack\n" });
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "search_text", { query: "needle" })).toBe(
      'No matches for "needle" in . (2 file(s) searched).\n[1 git-ignored entry not searched: dist/; pass one as path to search it]',
    );
    expect(await callTool(tools, "search_text", { query: "haystack" })).toBe("src/a.ts:1: haystack");
  });

  it("can be turned off with respectGitignore: false, and the tool descriptions say which applies", async () => {
    const { root } = makeWorkspace({ ".gitignore": "dist/\n", "dist/index.js": "needle", "src/a.ts": "" });
    const on = workspaceTools({ root });
    const off = workspaceTools({ root, respectGitignore: false });
    expect(await listed(off)).toEqual([".gitignore", "dist/index.js", "src/a.ts"]);
    expect(await callTool(off, "search_text", { query: "needle" })).toBe("dist/index.js:1: needle");
    for (const name of ["list_files", "search_text"]) {
      expect(on[name]?.description).toContain("ignored by git (.gitignore files, .git/info/exclude");
      expect(off[name]?.description).not.toContain("ignored by git");
    }
  });

  it("reads the rules again at every call, so an edited .gitignore counts at once", async () => {
    const { root } = makeWorkspace({ "a.txt": "", "b.txt": "" });
    const tools = workspaceTools({ root });
    expect(await listed(tools)).toEqual(["a.txt", "b.txt"]);
    fs.writeFileSync(path.join(root, ".gitignore"), "b.txt\n");
    expect(await listed(tools)).toEqual([".gitignore", "a.txt"]);
  });

  it("never reads rules above the root", async () => {
    const { base, root } = makeWorkspace({ "a.txt": "", "dist/b.js": "" });
    fs.writeFileSync(path.join(base, ".gitignore"), "*\n");
    fs.mkdirSync(path.join(base, ".git", "info"), { recursive: true });
    fs.writeFileSync(path.join(base, ".git", "info", "exclude"), "*\n");
    expect(await listed(workspaceTools({ root }))).toEqual(["a.txt", "dist/b.js"]);
  });
});

describe("unusable ignore files", () => {
  it("ignores a .gitignore that is a folder, a link (inside or outside the workspace) or a pipe, and says so", async () => {
    const { base, root } = makeWorkspace({
      "folder/.gitignore/inner": "",
      "in/x.txt": "",
      "out/x.txt": "",
      "pipe/x.txt": "",
      "rules.txt": "x.txt\n",
    });
    fs.writeFileSync(path.join(base, "outside-rules"), "*\n");
    fs.symlinkSync(path.join(base, "outside-rules"), path.join(root, "out", ".gitignore"));
    fs.symlinkSync(path.join(root, "rules.txt"), path.join(root, "in", ".gitignore"));
    const fifo = tryMakeFifo(path.join(root, "pipe", ".gitignore"));
    const text = await callTool(workspaceTools({ root }), "list_files", {});
    expect(await listed(workspaceTools({ root }))).toEqual(
      expect.arrayContaining([
        "folder/.gitignore/inner",
        "in/.gitignore",
        "in/x.txt",
        "out/.gitignore",
        "out/x.txt",
        "pipe/x.txt",
        "rules.txt",
      ]),
    );
    const link = "is a symbolic link (git does not follow it either)";
    const named = `folder/.gitignore is a folder, not a file; in/.gitignore ${link}; out/.gitignore ${link}`;
    expect(text.split("\n").at(-1)).toBe(`[ignore rules not used: ${named}${fifo ? "; and 1 more" : ""}]`);
  });

  it("ignores a .gitignore over the size or pattern cap, and still uses the others", async () => {
    const huge = `*\n${"#".repeat(MAX_IGNORE_FILE_BYTES + 50 * 1024)}`;
    const many = `${Array.from({ length: MAX_IGNORE_FILE_RULES + 1 }, (_, index) => `pattern-${index}`).join("\n")}\n*\n`;
    const { root } = makeWorkspace({
      "huge/.gitignore": huge,
      "huge/a.txt": "",
      "many/.gitignore": many,
      "many/a.txt": "",
      "ok/.gitignore": "a.txt\n",
      "ok/a.txt": "",
      "ok/b.txt": "",
    });
    const text = await callTool(workspaceTools({ root }), "search_text", { query: "nothing here" });
    expect(text.split("\n")).toEqual([
      'No matches for "nothing here" in . (6 file(s) searched).',
      "[1 git-ignored entry not searched: ok/a.txt; pass one as path to search it]",
      `[ignore rules not used: huge/.gitignore is ${formatSize(huge.length)}, ` +
        `over the ${formatSize(MAX_IGNORE_FILE_BYTES)} limit; ` +
        `many/.gitignore has ${MAX_IGNORE_FILE_RULES + 2} patterns, over the ${MAX_IGNORE_FILE_RULES} limit]`,
    ]);
  });

  it("survives malformed patterns and keeps the well-formed ones", async () => {
    // ("***" would be fine too, but it matches every name, in git as well.)
    const rules = [
      "[",
      "\\",
      "[z-a]",
      "a[",
      "!",
      "#",
      "a\\",
      "(",
      "{a,b}",
      "/",
      "//",
      "!/",
      "\u0000",
      "\uFFFD\uFFFD",
      "drop.txt",
      "",
    ].join("\n");
    const { root } = makeWorkspace({
      ".gitignore": Buffer.concat([Buffer.from(rules), Buffer.from([0xff, 0xfe, 0x0a])]),
      "drop.txt": "",
      "keep.txt": "",
      "...": "",
      "a[b/c.txt": "",
    });
    const shown = await listed(workspaceTools({ root }));
    expect(shown).toContain("keep.txt");
    expect(shown).toContain("...");
    expect(shown).not.toContain("drop.txt");
  });

  it("uses .git/info/exclude only when .git and .git/info are real folders", async () => {
    const { base, root } = makeWorkspace({ ".git/info/exclude": "a.txt\n", "a.txt": "", "b.txt": "" });
    const tools = workspaceTools({ root });
    expect(await listed(tools)).toEqual(["b.txt"]);
    fs.rmSync(path.join(root, ".git"), { recursive: true });
    fs.mkdirSync(path.join(base, "elsewhere", "info"), { recursive: true });
    fs.writeFileSync(path.join(base, "elsewhere", "info", "exclude"), "*\n");
    fs.symlinkSync(path.join(base, "elsewhere"), path.join(root, ".git"));
    expect(await listed(tools)).toEqual(["a.txt", "b.txt"]);
    fs.rmSync(path.join(root, ".git"));
    fs.mkdirSync(path.join(root, ".git"));
    fs.symlinkSync(path.join(base, "elsewhere", "info"), path.join(root, ".git", "info"));
    expect(await listed(tools)).toEqual(["a.txt", "b.txt"]);
    fs.rmSync(path.join(root, ".git", "info"));
    fs.mkdirSync(path.join(root, ".git", "info"));
    fs.symlinkSync(path.join(base, "elsewhere", "info", "exclude"), path.join(root, ".git", "info", "exclude"));
    expect(await callTool(tools, "list_files", {})).toBe(
      "a.txt (0 B)\nb.txt (0 B)\n[ignore rules not used: .git/info/exclude is a symbolic link (git does not follow it either)]",
    );
  });

  // Permissions do not stop root: as root (CI) the call runs in a child process as `nobody`.
  it.skipIf(UNPRIVILEGED_SKIP_REASON !== undefined)(
    `ignores an unreadable .gitignore and says so${UNPRIVILEGED_SKIP_REASON === undefined ? "" : ` (skipped: ${UNPRIVILEGED_SKIP_REASON})`}`,
    async () => {
      const { base, root } = makeWorkspace({ ".gitignore": "a.txt\n", "a.txt": "" });
      fs.chmodSync(path.join(root, ".gitignore"), 0o000);
      const text = await callToolWithPermissions({ base, root, name: "list_files", input: {} });
      expect(text).toBe(
        ".gitignore (6 B)\na.txt (0 B)\n[ignore rules not used: .gitignore could not be opened (EACCES)]",
      );
    },
  );
});

function tryMakeFifo(file: string): boolean {
  try {
    execFileSync("mkfifo", [file], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
