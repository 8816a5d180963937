/**
 * `ctxwin setup` as a user runs it, in a temporary home folder: the first case as the built binary
 * in a child process, the others through the same command tree in this process. From a clean
 * home, `setup claude-code` registers a hook that, run as Claude Code runs it after a
 * compaction, adds the guidance to the new context. Settings files keep everything else;
 * running twice changes nothing; `--remove` undoes it; bad files are refused whole.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runUnprivileged, UNPRIVILEGED_SKIP_REASON } from "../../../test/unprivileged-user.js";
import { runCtxwinInProcess } from "../test-support/run-ctxwin-in-process.js";
import { CTXWIN_BINARY, runProgram, type CtxwinExit } from "../test-support/run-ctxwin.js";
import {
  CLAUDE_CODE_FIXTURE as fixture,
  CLAUDE_CODE_SESSION_ID as SESSION,
  compactionHookInput,
} from "../../import/test-support/claude-code-fixture.js";

vi.setConfig({ testTimeout: 120_000 });

/** Runs ctxwin the way the test's CLIs will: the built binary under this node. */
const COMMAND = `${process.execPath} ${CTXWIN_BINARY}`;

let home: string;
/** The CLIs' folders at their defaults under HOME, whatever the machine running the tests sets. */
const CLEAN_ENV = { NO_COLOR: "1", CODEX_HOME: "", CLAUDE_CONFIG_DIR: "" };

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), "ctxwin-setup-"));
});

afterEach(() => rmSync(home, { recursive: true, force: true }));

function run(
  program: string,
  args: readonly string[],
  { stdin = "", shell = false }: { stdin?: string; shell?: boolean } = {},
): Promise<CtxwinExit> {
  return runProgram(program, args, { cwd: home, shell, env: { ...process.env, ...CLEAN_ENV, HOME: home }, stdin });
}

/** `ctxwin setup` as the built binary in a child process, with HOME at the test's home folder. */
const setupSpawned = (...args: string[]) =>
  run(process.execPath, [CTXWIN_BINARY, "setup", ...args, "--command", COMMAND]);
/** The same through the command tree in this process (run-ctxwin-in-process.ts), with HOME at the test's home folder. */
const setup = (...args: string[]) =>
  runCtxwinInProcess(["setup", ...args, "--command", COMMAND], { cwd: home, env: { ...CLEAN_ENV, HOME: home } });
const read = (...parts: string[]) => readFileSync(path.join(home, ...parts), "utf8");
/** Every file under the home folder with its text: what a refused setup must leave alone. */
function snapshot(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(home, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile()) files[path.relative(home, file)] = readFileSync(file, "utf8");
  }
  return files;
}

describe("claude-code", () => {
  it("from a clean home: registers the server and a hook that answers a compaction with the guidance", async () => {
    const result = await setupSpawned("claude-code");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`created ${path.join(home, ".claude.json")}`);

    const servers = (
      JSON.parse(read(".claude.json")) as { mcpServers: Record<string, { command: string; args: string[] }> }
    ).mcpServers;
    expect(servers["ctxwin"]).toEqual({
      type: "stdio",
      command: process.execPath,
      args: [CTXWIN_BINARY, "mcp", "--dir", home, "--import", "claude-code"],
    });
    const settings = JSON.parse(read(".claude", "settings.json")) as {
      hooks: { SessionStart: { matcher: string; hooks: { command: string }[] }[] };
    };
    const [group] = settings.hooks.SessionStart;
    expect(group?.matcher).toBe("compact|resume");

    // What Claude Code does after a compaction: run the command through a shell, the input on stdin.
    const transcript = path.join(home, ".claude", "projects", "-home-dev-shop-api", `${SESSION}.jsonl`);
    mkdirSync(path.dirname(transcript), { recursive: true });
    copyFileSync(fixture, transcript);
    const input = compactionHookInput(transcript, "/home/dev/shop-api");
    const hook = await run(group!.hooks[0]!.command, [], { stdin: JSON.stringify(input), shell: true });
    expect(hook.stderr).toBe("");
    expect(hook.status).toBe(0);
    const context = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(context).toContain(`session_id "claude-code:${SESSION}"`);
    expect(context).toContain("2 windows precede this point");
    expect(existsSync(path.join(home, ".ctxwin", "ctxwin.db"))).toBe(true);
  });

  it("keeps the other settings, changes nothing the second time, and --remove takes only its own entries out", async () => {
    mkdirSync(path.join(home, ".claude"));
    const theirs = {
      theme: "dark",
      hooks: { SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo hi" }] }] },
      permissions: { allow: ["Bash(ls)"] },
    };
    writeFileSync(path.join(home, ".claude", "settings.json"), `${JSON.stringify(theirs, null, 2)}\n`);
    writeFileSync(
      path.join(home, ".claude.json"),
      `${JSON.stringify({ numStartups: 3, mcpServers: { github: { command: "gh" } } }, null, 2)}\n`,
    );
    const before = snapshot();

    expect((await setup("claude-code")).status).toBe(0);
    const installed = snapshot();
    expect(read(".claude", "settings.json.ctxwin-backup")).toBe(before[path.join(".claude", "settings.json")]);
    expect(JSON.parse(read(".claude", "settings.json"))).toMatchObject({
      theme: "dark",
      permissions: { allow: ["Bash(ls)", "mcp__ctxwin__session_history"] },
    });

    const again = await setup("claude-code");
    expect(again.stdout).toBe(
      `unchanged ${path.join(home, ".claude.json")}\nunchanged ${path.join(home, ".claude", "settings.json")}\n`,
    );
    expect(snapshot()).toEqual(installed);

    expect((await run(process.execPath, [CTXWIN_BINARY, "setup", "--remove"])).status).toBe(0);
    expect(snapshot()).toEqual(before);
  });

  it("--dry-run prints the diff and writes nothing", async () => {
    const result = await setup("claude-code", "--dry-run");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`+++ ${path.join(home, ".claude", "settings.json")}`);
    expect(result.stdout).toContain('+        "matcher": "compact|resume",');
    expect(result.stdout).toContain('+      "mcp__ctxwin__session_history"');
    expect(snapshot()).toEqual({});
  });
});

describe("codex", () => {
  const config = `# my Codex settings
model = "o3" # the model I like

[features]
web_search = true

[mcp_servers.github]
command = "gh-mcp"
`;

  it("appends its block, keeping comments and order, and --remove gives the file back byte for byte", async () => {
    mkdirSync(path.join(home, ".codex"));
    writeFileSync(path.join(home, ".codex", "config.toml"), config);
    const result = await setup("codex");
    expect(result.status).toBe(0);
    const installed = read(".codex", "config.toml");
    expect(installed.startsWith(config)).toBe(true);
    expect(installed).toContain(`[mcp_servers.ctxwin]\ncommand = ${JSON.stringify(process.execPath)}`);
    expect(installed).toContain('[[hooks.SessionStart]]\nmatcher = "resume"');
    expect(installed).toContain("[[hooks.PostCompact]]\n\n[[hooks.PostCompact.hooks]]");
    expect(read(".codex", "config.toml.ctxwin-backup")).toBe(config);

    expect((await setup("codex")).stdout).toBe(`unchanged ${path.join(home, ".codex", "config.toml")}\n`);
    const dryRemove = await run(process.execPath, [CTXWIN_BINARY, "setup", "codex", "--remove", "--dry-run"]);
    expect(dryRemove.stdout).toContain("-[[hooks.SessionStart]]");
    expect(read(".codex", "config.toml")).toBe(installed);
    expect((await run(process.execPath, [CTXWIN_BINARY, "setup", "codex", "--remove"])).status).toBe(0);
    expect(read(".codex", "config.toml")).toBe(config);
  });
});

describe("bad settings files: one line, exit code 1, nothing written", () => {
  it.each([
    [
      "invalid JSON",
      ".claude/settings.json",
      '{ "theme": ',
      "claude-code",
      /settings\.json: it is not valid JSON .*Nothing was changed\.$/,
    ],
    [
      "JSON that is not an object",
      ".claude.json",
      "[]",
      "claude-code",
      /\.claude\.json: it is not a JSON object\. Nothing was changed\.$/,
    ],
    [
      "invalid TOML",
      ".codex/config.toml",
      'model = "o3\nthis is not toml\n',
      "codex",
      /config\.toml: it is not valid TOML \(.*at line 1\)\. Nothing was changed\.$/,
    ],
    [
      "a server of its own named ctxwin",
      ".codex/config.toml",
      "[mcp_servers.'ctxwin']\ncommand = \"mine\"\n",
      "codex",
      /already has an MCP server 'ctxwin' that does not run 'ctxwin mcp'/,
    ],
    [
      "SessionStart as a table",
      ".codex/config.toml",
      "[hooks.SessionStart]\nfoo = 1\n",
      "codex",
      /'hooks\.SessionStart' is a table, not a list/,
    ],
  ])("%s", async (_name, file, text, client, message) => {
    mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
    writeFileSync(path.join(home, file), text);
    const before = snapshot();
    const result = await setup(client);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^ctxwin: [^\n]+\n$/);
    expect(result.stderr.trim()).toMatch(message);
    expect(snapshot()).toEqual(before);
  });

  it("a symbolic link: refused, and the file it points to is left alone", async () => {
    mkdirSync(path.join(home, ".claude"));
    writeFileSync(path.join(home, "real-settings.json"), "{}\n");
    symlinkSync(path.join(home, "real-settings.json"), path.join(home, ".claude", "settings.json"));
    const result = await setup("claude-code");
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /settings\.json: it is a symbolic link; ctxwin setup edits only regular files .*Nothing was changed\.\n$/,
    );
    expect(snapshot()).toEqual({ "real-settings.json": "{}\n" });
  });

  describe.skipIf(UNPRIVILEGED_SKIP_REASON !== undefined)(
    `a read-only file${UNPRIVILEGED_SKIP_REASON === undefined ? "" : ` (skipped: ${UNPRIVILEGED_SKIP_REASON})`}`,
    () => {
      it("is refused with the way forward; no file is written", async () => {
        // Project scope in a folder everyone may enter, run as a user the permissions apply to.
        chmodSync(home, 0o777);
        mkdirSync(path.join(home, ".claude"), { mode: 0o777 });
        chmodSync(path.join(home, ".claude"), 0o777);
        writeFileSync(path.join(home, ".claude", "settings.json"), "{}\n", { mode: 0o444 });
        chmodSync(path.join(home, ".claude", "settings.json"), 0o444);
        const result = await runUnprivileged(
          process.execPath,
          [CTXWIN_BINARY, "setup", "claude-code", "--scope", "project"],
          { cwd: home },
        );
        expect(result.status).toBe(1);
        expect(result.stderr).toMatch(
          /settings\.json: it is read-only for this user; make it writable \(chmod u\+w\) and run setup again\. Nothing was changed\.\n$/,
        );
        expect(snapshot()).toEqual({ [path.join(".claude", "settings.json")]: "{}\n" });
      });
    },
  );
});

describe("round trip, backups and concurrent setups", () => {
  const SETTINGS =
    '\uFEFF{\n\t"big": 12345678901234567890123,\n\t"huge": 1e400,\n\t"inline": [1, {"a": 2}],\n\t"permissions": {"allow": ["Bash(ls)"]}\n}\n';
  const CLAUDE_JSON = '{\r\n  "numStartups": 3,\r\n  "mcpServers": {"github": {"command": "gh"}}\r\n}';

  it("setup, setup with another --dir, then --remove: both files byte-identical, the first backup kept until then", async () => {
    mkdirSync(path.join(home, ".claude"));
    writeFileSync(path.join(home, ".claude", "settings.json"), SETTINGS);
    writeFileSync(path.join(home, ".claude.json"), CLAUDE_JSON);

    expect((await setup("claude-code")).status).toBe(0);
    const allowed = JSON.parse(read(".claude", "settings.json").slice(1)) as { permissions: { allow: string[] } };
    expect(allowed.permissions.allow).toEqual(["Bash(ls)", "mcp__ctxwin__session_history"]);
    expect(read(".claude", "settings.json")).toContain("12345678901234567890123");
    expect((await setup("claude-code", "--dir", path.join(home, "elsewhere"))).status).toBe(0);
    expect(read(".claude", "settings.json")).toContain(`--dir ${path.join(home, "elsewhere")}`);
    // The second write did not replace the backup: it is still the user's original.
    expect(read(".claude", "settings.json.ctxwin-backup")).toBe(SETTINGS);
    expect(read(".claude.json.ctxwin-backup")).toBe(CLAUDE_JSON);

    const removed = await setup("--remove");
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain(
      `updated ${path.join(home, ".claude.json")} (back to its text before ctxwin setup; .claude.json.ctxwin-backup deleted)`,
    );
    expect(snapshot()).toEqual({ [path.join(".claude", "settings.json")]: SETTINGS, ".claude.json": CLAUDE_JSON });
  });

  it("six concurrent setups: every one succeeds, the backup is the original, the file holds ctxwin's entries once", async () => {
    mkdirSync(path.join(home, ".codex"));
    const original = 'model = "o3"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\n';
    writeFileSync(path.join(home, ".codex", "config.toml"), original);
    const stores = Array.from({ length: 6 }, (_, index) => path.join(home, `store-${index}`));
    const results = await Promise.all(stores.map((store) => setupSpawned("codex", "--dir", store)));
    for (const result of results)
      expect({ status: result.status, stderr: result.stderr.replace(/^ctxwin setup: .*waiting.*\n/gm, "") }).toEqual({
        status: 0,
        stderr: "",
      });
    expect(read(".codex", "config.toml.ctxwin-backup")).toBe(original);
    const config = parseToml(read(".codex", "config.toml")) as {
      mcp_servers: Record<string, { args: string[] }>;
      hooks: { SessionStart: unknown[]; PostCompact: unknown[] };
    };
    expect(Object.keys(config.mcp_servers)).toEqual(["github", "ctxwin"]);
    expect(stores).toContain(config.mcp_servers["ctxwin"]!.args.at(-3));
    expect([config.hooks.SessionStart.length, config.hooks.PostCompact.length]).toEqual([1, 1]);
    expect(read(".codex", "config.toml").startsWith(original)).toBe(true);
    expect(readdirSync(path.join(home, ".codex")).sort()).toEqual(["config.toml", "config.toml.ctxwin-backup"]);
  });

  it("waits while another setup holds the file's lock, and writes only after it is released", async () => {
    mkdirSync(path.join(home, ".codex"));
    writeFileSync(path.join(home, ".codex", "config.toml"), 'model = "o3"\n');
    const lock = path.join(home, ".codex", "config.toml.ctxwin-lock");
    writeFileSync(lock, `${process.pid}\n`); // a running process holds it: this test's
    const child = spawn(process.execPath, [CTXWIN_BINARY, "setup", "codex", "--command", COMMAND], {
      cwd: home,
      env: { ...process.env, ...CLEAN_ENV, HOME: home },
    });
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await new Promise<void>((resolve) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        if (stderr.includes("is editing it; waiting for it to finish")) resolve();
      });
    });
    expect(read(".codex", "config.toml")).toBe('model = "o3"\n');
    rmSync(lock);
    expect(await exited).toBe(0);
    expect(read(".codex", "config.toml")).toContain("[mcp_servers.ctxwin]");
    expect(existsSync(lock)).toBe(false);
  });

  it("takes over a lock whose process has ended", async () => {
    mkdirSync(path.join(home, ".codex"));
    const ended = await run(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    writeFileSync(path.join(home, ".codex", "config.toml.ctxwin-lock"), `${ended.stdout}\n`);
    const result = await setup("codex");
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    expect(readdirSync(path.join(home, ".codex"))).toEqual(["config.toml"]);
  });

  it("a read-only file (0444) is refused even as root; nothing is written", async () => {
    mkdirSync(path.join(home, ".codex"));
    writeFileSync(path.join(home, ".codex", "config.toml"), 'model = "o3"\n', { mode: 0o444 });
    chmodSync(path.join(home, ".codex", "config.toml"), 0o444);
    const before = snapshot();
    const result = await setup("codex");
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /config\.toml: it is read-only for this user; make it writable \(chmod u\+w\) and run setup again\. Nothing was changed\.\n$/,
    );
    expect(snapshot()).toEqual(before);
  });
});

describe("where the CLIs keep their settings, and the command written", () => {
  it("honours CODEX_HOME and CLAUDE_CONFIG_DIR as the CLIs do", async () => {
    const codexHome = path.join(home, "codex-home");
    const claudeHome = path.join(home, "claude-config");
    mkdirSync(codexHome);
    const env = { ...CLEAN_ENV, HOME: home, CODEX_HOME: codexHome, CLAUDE_CONFIG_DIR: claudeHome };
    for (const client of ["codex", "claude-code"]) {
      const result = await runCtxwinInProcess(["setup", client, "--command", COMMAND], { cwd: home, env });
      expect(result.status).toBe(0);
    }
    expect(Object.keys(snapshot()).sort()).toEqual([
      path.join("claude-config", ".claude.json"),
      path.join("claude-config", "settings.json"),
      path.join("codex-home", "config.toml"),
    ]);
    expect((await runCtxwinInProcess(["setup", "--remove"], { cwd: home, env })).status).toBe(0);
    expect(read("codex-home", "config.toml")).toBe("");
    // --remove creates no folder: neither ~/.codex nor ~/.claude appeared.
    expect(readdirSync(home).sort()).toEqual(["claude-config", "codex-home"]);
  });

  it("without --command, writes the command that runs this install: its node and its script", async () => {
    expect((await run(process.execPath, [CTXWIN_BINARY, "setup", "codex"])).status).toBe(0);
    const config = parseToml(read(".codex", "config.toml")) as {
      mcp_servers: { ctxwin: { command: string; args: string[] } };
    };
    expect(config.mcp_servers.ctxwin.command).toBe(process.execPath);
    expect(config.mcp_servers.ctxwin.args[0]).toBe(realpathSync(CTXWIN_BINARY));
  });
});
