/**
 * `ctxwin setup --scope project` registers a server that imports only the project's sessions
 * (`--import-project <project>`), and a second setup recognises that entry as its own.
 */
import { describe, expect, it } from "vitest";
import { installJson } from "./json-settings.js";
import { setupTargets } from "./setup-targets.js";

const context = { home: "/home/me", project: "/home/me/work/shop-api", storeDirectory: "/home/me/work/shop-api" };

describe("the server setup registers", () => {
  it("imports only the project's sessions with --scope project, every session with --scope user", () => {
    const command = ["npx", "-y", "ctxwin"];
    const [claudeServer] = setupTargets({ client: "claude-code", scope: "project", ...context, command });
    expect(claudeServer).toMatchObject({
      entries: {
        mcpServer: {
          entry: {
            args: [
              "-y",
              "ctxwin",
              "mcp",
              "--dir",
              context.project,
              "--import",
              "claude-code",
              "--import-project",
              context.project,
            ],
          },
        },
      },
    });
    const [codex] = setupTargets({ client: "codex", scope: "project", ...context, command });
    expect(codex).toMatchObject({
      entries: {
        block: expect.stringContaining(
          `args = ["-y", "ctxwin", "mcp", "--dir", "${context.project}", "--import", "codex", "--import-project", "${context.project}"]`,
        ),
      },
    });
    for (const client of ["claude-code", "codex"] as const) {
      expect(JSON.stringify(setupTargets({ client, scope: "user", ...context, command }))).not.toContain(
        "--import-project",
      );
    }
  });

  it("a second setup replaces its own project entry, whatever command runs ctxwin", () => {
    const command = ["/usr/bin/node", "/opt/ctxwin/dist/cli/main.js"];
    const [first] = setupTargets({ client: "claude-code", scope: "project", ...context, command });
    const [second] = setupTargets({
      client: "claude-code",
      scope: "project",
      ...context,
      storeDirectory: "/srv/history",
      command,
    });
    if (first?.kind !== "json" || second?.kind !== "json") throw new Error("expected the .mcp.json target");
    const text = installJson(installJson(undefined, first.entries), second.entries);
    expect(JSON.parse(text)).toEqual({ mcpServers: { ctxwin: second.entries.mcpServer?.entry } });
  });
});
