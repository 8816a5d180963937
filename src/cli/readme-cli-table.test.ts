/**
 * The README's CLI reference against the program itself: every command of the tables exists, every
 * option a table names is in that command's `--help`, every command the program has is in the
 * table, and the sentences about `--dir` and `--store` name the commands that take them.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { createProgram } from "./create-program.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The README from `## CLI reference` to the next `## ` heading. */
const reference = readme.slice(
  readme.indexOf("## CLI reference"),
  readme.indexOf("\n## ", readme.indexOf("## CLI reference")),
);

/** Each `ctxwin …` code span of a table row's first cell, `\|` read as `|`. */
const tableForms = reference
  .split("\n")
  .filter((line) => line.startsWith("| `ctxwin "))
  .flatMap((line) => {
    const firstCell = line.split(/(?<!\\)\|/)[1] ?? "";
    return [...firstCell.matchAll(/`(ctxwin [^`]+)`/g)].map((match) => match[1]!.replaceAll("\\|", "|"));
  });

let program: Command;
beforeAll(async () => {
  program = await createProgram();
});

const subcommands = (command: Command) => command.commands.filter((child) => child.name() !== "help");
const optionsOf = (command: Command) =>
  command
    .createHelp()
    .visibleOptions(command)
    .flatMap((option) => (option.long === undefined ? [] : [option.long]));

/**
 * The commands a form names: `ctxwin history windows <session>` names `history windows`;
 * `ctxwin history sessions | windows | items` names each of the three.
 */
function commandsOf(form: string): { path: string; command: Command | undefined }[] {
  const words = form.split(/\s+/).slice(1);
  let command: Command | undefined = program;
  const path: string[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    if (!/^[a-z][a-z-]*$/.test(word)) break;
    const child: Command | undefined = subcommands(command).find((candidate) => candidate.name() === word);
    if (child === undefined) {
      // The first word after `ctxwin` must be a command; later plain words are arguments.
      if (path.length === 0) return [{ path: word, command: undefined }];
      break;
    }
    path.push(word);
    command = child;
    // `a | b | c`: alternatives of this word, each a sibling command.
    if (words[index + 1] === "|" && subcommands(child).length === 0) {
      const parent: Command = command.parent!;
      const alternatives = [word];
      while (words[index + 1] === "|" && /^[a-z][a-z-]*$/.test(words[index + 2] ?? "")) {
        const next = words[index + 2]!;
        if (!subcommands(parent).some((candidate) => candidate.name() === next)) break;
        alternatives.push(next);
        index += 2;
      }
      if (alternatives.length > 1) {
        const prefix = path.slice(0, -1);
        return alternatives.map((name) => ({
          path: [...prefix, name].join(" "),
          command: subcommands(parent).find((candidate) => candidate.name() === name),
        }));
      }
    }
  }
  return [{ path: path.join(" "), command }];
}

/** Every command below `command` that has no subcommands of its own, with its path. */
function leaves(command: Command, path: string[] = []): { path: string; command: Command }[] {
  const children = subcommands(command);
  if (children.length === 0) return [{ path: path.join(" "), command }];
  return children.flatMap((child) => leaves(child, [...path, child.name()]));
}

describe("the README's CLI reference", () => {
  it("finds the command table", () => {
    expect(tableForms.length).toBeGreaterThanOrEqual(10);
  });

  it("names only commands the program has", () => {
    const unknown = tableForms.flatMap((form) =>
      commandsOf(form)
        .filter(({ command }) => command === undefined)
        .map(({ path }) => `${path} (in \`${form}\`)`),
    );
    expect(unknown).toEqual([]);
  });

  it("names only options that are in the command's --help", () => {
    const missing = tableForms.flatMap((form) => {
      const named = form.match(/--[a-z][a-z-]*/g) ?? [];
      return commandsOf(form).flatMap(({ path, command }) => {
        if (command === undefined) return [];
        const options = new Set(optionsOf(command));
        return named.filter((option) => !options.has(option)).map((option) => `ctxwin ${path} ${option}`);
      });
    });
    expect(missing).toEqual([]);
  });

  it("lists every command the program has", () => {
    const listed = new Set(tableForms.flatMap((form) => commandsOf(form).map(({ path }) => path.split(" ")[0])));
    const unlisted = subcommands(program)
      .map((command) => command.name())
      .filter((name) => !listed.has(name));
    expect(unlisted).toEqual([]);
  });

  it("lists every history subcommand in the history row", () => {
    const row = tableForms.find((form) => form.startsWith("ctxwin history "))!;
    const history = subcommands(program).find((command) => command.name() === "history")!;
    expect(commandsOf(row).map(({ path }) => path)).toEqual(
      expect.arrayContaining(subcommands(history).map((command) => `history ${command.name()}`)),
    );
    expect(commandsOf(row)).toHaveLength(subcommands(history).length);
  });

  it("says every command takes --dir: each one that runs does", () => {
    expect(reference).toContain("Every command takes `--dir <project>`");
    const without = leaves(program)
      .filter(({ command }) => !optionsOf(command).includes("--dir"))
      .map(({ path }) => path);
    expect(without).toEqual([]);
  });

  it("names the commands that take --store", () => {
    const sentence = /\.((?:\s*`[a-z -]+`,?(?: and)?)+) also take\s+`--store <url\|file>`/.exec(reference);
    expect(sentence).not.toBeNull();
    const named = [...sentence![1]!.matchAll(/`([a-z -]+)`/g)].map((match) => match[1]!).sort();
    const taking = [
      ...new Set(
        leaves(program)
          .filter(({ command }) => optionsOf(command).includes("--store"))
          .map(({ path }) => (path.startsWith("history ") ? "history" : path)),
      ),
    ].sort();
    expect(named).toEqual(taking);
  });
});
