/**
 * `--help` lists every command with every option (issue 49): the commands' modules load only when
 * a command runs, so their definitions stay in small modules; this test holds each command's help,
 * as it read before that split (help-output.txt), so that no option goes missing from help.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { createProgram } from "./create-program.js";

/** The help of `command` and of every command below it, 100 columns wide. */
function helpOfTree(command: Command, path: string[] = []): string[] {
  command.configureHelp({ helpWidth: 100 });
  const name = [...path, command.name()];
  return [`# ${name.join(" ")}\n${command.helpInformation()}`, ...command.commands.flatMap((child) => helpOfTree(child, name))];
}

describe("ctxwin --help", () => {
  it("lists every command and option as it did before the commands loaded lazily", () => {
    const expected = readFileSync(new URL("help-output.txt", import.meta.url), "utf8");
    expect(helpOfTree(createProgram()).join("\n")).toBe(expected);
  });
});
