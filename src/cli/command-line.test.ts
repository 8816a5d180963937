/**
 * Every command-line mistake is one line on stderr that says what to do, exit code 2; help and
 * version still exit 0. Help and version run the built binary, as a user would; the mistakes run
 * through the same command tree and error handling in this process (run-ctxwin-in-process.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { usageLine } from "./command-line.js";
import { runCtxwinInProcess } from "./test-support/run-ctxwin-in-process.js";
import { runCtxwin } from "./test-support/run-ctxwin.js";

const folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-usage-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const ctxwin = (args: string[]) => runCtxwin(args, { cwd: folder });
const ctxwinInProcess = (args: string[]) => runCtxwinInProcess(args, { cwd: folder });

describe("command-line mistakes", () => {
  const cases: Array<{ args: string[]; line: RegExp }> = [
    {
      args: ["serve", "--port", "abc"],
      line: /^ctxwin serve: option '--port <n>' argument 'abc' is invalid\. .*see 'ctxwin serve --help'\.$/,
    },
    { args: ["frobnicate"], line: /^ctxwin: unknown command 'frobnicate'; see 'ctxwin --help'\.$/ },
    {
      args: ["history", "--dir", "X"],
      line: /^ctxwin history: unknown option '--dir'; 'ctxwin history' needs a subcommand first \(sessions, .*\), e\.g\. 'ctxwin history sessions --help'\.$/,
    },
    // One word is a search across every session (issue 50); none is a usage error.
    {
      args: ["history", "search"],
      line: /^ctxwin history search: missing required argument 'session-or-text'; see 'ctxwin history search --help'\.$/,
    },
    {
      args: ["history", "sessions", "--bogus"],
      line: /^ctxwin history sessions: unknown option '--bogus'; see 'ctxwin history sessions --help'\.$/,
    },
    { args: ["import", "--bogus"], line: /^ctxwin import: unknown option '--bogus'/ },
  ];
  for (const { args, line } of cases) {
    it(`ctxwin ${args.join(" ")}: one line, exit code 2`, async () => {
      const result = await ctxwinInProcess(args);
      expect(result.status).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(result.stderr.trimEnd()).toMatch(line);
    });
  }

  it("help and version still exit 0 on stdout", async () => {
    for (const args of [["--help"], ["--version"], ["history", "--help"]]) {
      const result = await ctxwin(args);
      expect(result.status, args.join(" ")).toBe(0);
      expect(result.stdout.length).toBeGreaterThan(0);
    }
  });

  it("a group command without its subcommand shows its help and exits 2", async () => {
    const result = await ctxwinInProcess(["history"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/sessions/);
  });
});

describe("usageLine", () => {
  it("keeps the first line of commander's message and says where to look", () => {
    expect(usageLine("error: unknown option '--x'\n(Did you mean --y?)\n", "ctxwin demo", [])).toBe(
      "ctxwin demo: unknown option '--x'; see 'ctxwin demo --help'.",
    );
  });
});
