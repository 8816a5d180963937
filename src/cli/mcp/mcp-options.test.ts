/**
 * `ctxwin mcp --memory` and `--import`, through the MCP SDK's client: notes written by one agent's
 * server are read by another's; a server with `--import claude-code` imports the transcripts of
 * its home folder, follows a transcript that grows, and says when an answer came before the
 * import was done.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCtxwin } from "../test-support/run-ctxwin.js";
import { startMcp, type McpSession } from "./test-support/mcp-client.js";
import { CLAUDE_CODE_FIXTURE as fixture } from "../../import/test-support/claude-code-fixture.js";

const CLAUDE = "claude-code:5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37";
const folders: string[] = [];
const sessions: McpSession[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function temporaryFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-mcp-options-"));
  folders.push(folder);
  return folder;
}

async function start(args: string[], cwd: string, env: Record<string, string> = {}): Promise<McpSession> {
  const session = await startMcp({ args, cwd, env });
  sessions.push(session);
  return session;
}

const textOf = (answer: { content: { type: string; text?: string }[] }) =>
  answer.content.map((item) => item.text ?? "").join("\n");

describe("ctxwin mcp --memory", () => {
  it("serves the memory tool: notes one agent writes, another agent's server reads", async () => {
    const project = temporaryFolder();
    await runCtxwin(["import", "claude-code", fixture, "--dir", project], { cwd: project });
    const memory = path.join(project, "memory");
    const writer = await start(["--dir", project, "--memory", memory], project);
    const { tools } = await writer.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["memory", "session_history"]);
    const created = await writer.call("memory", {
      command: "create",
      path: "/memories/project/staging.md",
      file_text: "staging db port 6543\n",
    });
    expect(created.isError).toBe(false);
    const escape = await writer.call("memory", { command: "view", path: "/memories/../../etc/passwd" });
    expect(escape.isError).toBe(true);

    const reader = await start(["--dir", project, "--memory", memory, "--memory-read-only"], project);
    const viewed = await reader.call("memory", { command: "view", path: "/memories/project/staging.md" });
    expect(textOf(viewed as never)).toContain("staging db port 6543");
    const refused = await reader.call("memory", { command: "delete", path: "/memories/project/staging.md" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused as never)).toMatch(/read-only/);
  });
});

describe("ctxwin mcp --import", () => {
  it("imports the home folder's transcripts before answering, and follows a growing one", async () => {
    const home = temporaryFolder();
    const project = temporaryFolder();
    const transcripts = path.join(home, ".claude", "projects", "-home-dev-shop-api");
    mkdirSync(transcripts, { recursive: true });
    const transcript = path.join(transcripts, "5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37.jsonl");
    const lines = readFileSync(fixture, "utf8").trimEnd().split("\n");
    const firstHalf = lines.slice(0, 12);
    // Start from the first half; the second half arrives while the server runs.
    writeFileSync(transcript, `${firstHalf.join("\n")}\n`);

    const mcp = await start(["--dir", project, "--import", "claude-code", "--import-interval", "0"], project, {
      HOME: home,
    });
    // An answer may come before the import is done; it then says how far the import got.
    const listed = await untilImported(mcp, { action: "list_sessions" });
    expect((listed.result["sessions"] as { session_id: string }[]).map((entry) => entry.session_id)).toEqual([CLAUDE]);
    const early = await untilImported(mcp, { action: "search", query: "Conversation compacted" });
    expect(early.result["results"]).toEqual([]);

    appendFileSync(transcript, `${lines.slice(12).join("\n")}\n`);
    const grown = await untilImported(mcp, { action: "list_windows", session_id: CLAUDE });
    expect((grown.result["windows"] as { kind: string }[]).map((window) => window.kind)).toContain("compaction");
    expect(mcp.stderr()).toBe("");
  });

  it("--import-project: only the project's own sessions reach the project's store", async () => {
    const home = temporaryFolder();
    const project = temporaryFolder();
    const text = readFileSync(fixture, "utf8");
    const otherId = "0c3f1e2d-4b5a-4978-8e6f-5d4c3b2a1908";
    for (const [folder, sessionId] of [
      [project, "5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37"],
      ["/home/dev/billing", otherId],
    ] as const) {
      const transcripts = path.join(home, ".claude", "projects", folder.replace(/[^a-zA-Z0-9]/g, "-"));
      mkdirSync(transcripts, { recursive: true });
      writeFileSync(
        path.join(transcripts, `${sessionId}.jsonl`),
        text.replaceAll("5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37", sessionId),
      );
    }
    const mcp = await start(["--dir", project, "--import", "claude-code", "--import-project", project], project, {
      HOME: home,
    });
    const listed = await untilImported(mcp, { action: "list_sessions" });
    expect((listed.result["sessions"] as { session_id: string }[]).map((entry) => entry.session_id)).toEqual([CLAUDE]);

    const combined = await runCtxwin(
      ["mcp", "--dir", project, "--import", "claude-code", "--import-project", project, "--import-path", home],
      { cwd: project },
    );
    expect(combined.status).toBe(2);
    expect(combined.stderr).toMatch(/^ctxwin mcp: --import-path and --import-project cannot be combined/);
  });

  it("refuses --import with an unknown format as a usage error", async () => {
    const project = temporaryFolder();
    const result = await runCtxwin(["mcp", "--dir", project, "--import", "vim"], { cwd: project });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^ctxwin mcp: --import must be claude-code or codex; got 'vim'/);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});

/**
 * Calls until an answer comes without the "still importing" note. Each answer that has the note
 * must name how far the import got; the test's timeout bounds the wait.
 */
async function untilImported(mcp: McpSession, input: Record<string, unknown>) {
  for (;;) {
    const answer = await mcp.history(input);
    expect(answer.result["ok"]).toBe(true);
    if (answer.note === undefined) return answer;
    expect(answer.note).toMatch(
      /^Note: ctxwin is still importing claude-code transcripts in the background.*: (listing the files|\d+ of \d+ files read)\./,
    );
  }
}
