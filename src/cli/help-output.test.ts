/**
 * `--help` lists every command with every option (issue 49): a command's module loads only when
 * that command runs, the others stand in the tree as placeholders. This test holds each command's
 * help as it read before that change (help-output.txt), and the executable's tree (only the
 * command named loaded) to the same help as the whole tree.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { createProgram } from "./create-program.js";

/** The help of `command` and of every command below it, 100 columns wide. */
function helpOfTree(command: Command, path: string[] = []): string[] {
  command.configureHelp({ ...command.configureHelp(), helpWidth: 100 });
  const name = [...path, command.name()];
  return [
    `# ${name.join(" ")}\n${command.helpInformation()}`,
    ...command.commands.flatMap((child) => helpOfTree(child, name)),
  ];
}

const commandNames = ["demo", "chat", "history", "import", "embed", "mcp", "serve", "doctor", "eval", "hook", "setup"];

describe("ctxwin --help", () => {
  it("lists every command and option as it did before the commands loaded lazily", async () => {
    const expected = readFileSync(new URL("help-output.txt", import.meta.url), "utf8");
    expect(helpOfTree(await createProgram()).join("\n")).toBe(expected);
  });

  it("reads the same when only the command named is loaded", async () => {
    const whole = await createProgram();
    expect(whole.commands.map((command) => command.name())).toEqual(
      [...commandNames, "help"].slice(0, whole.commands.length),
    );
    const programOnly = await createProgram({ argv: ["node", "ctxwin", "--help"] });
    expect(helpOfTree(programOnly)[0]).toBe(helpOfTree(whole)[0]);
    for (const name of commandNames) {
      const lazy = await createProgram({ argv: ["node", "ctxwin", name, "--help"] });
      const loaded = lazy.commands.find((command) => command.name() === name);
      const full = whole.commands.find((command) => command.name() === name);
      expect(loaded && helpOfTree(loaded, ["ctxwin"])).toEqual(full && helpOfTree(full, ["ctxwin"]));
      expect(helpOfTree(lazy)[0]).toBe(helpOfTree(whole)[0]);
    }
  });
});
