/**
 * The README shows the move from `ToolLoopAgent` to `createContextAgent` as a diff of at most 5
 * changed lines. This test keeps it honest: the diff's new side is examples/ai-sdk-agent.ts as it
 * is, and its old side, applied back to that file, gives a working `ToolLoopAgent` program that
 * answers like the example on the same model.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ToolLoopAgent } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedModel, type Script } from "../src/session/test-support/scripted-model.js";
import { enterProjectFolder } from "./example-test-support.js";

const examples = import.meta.dirname;
const readme = readFileSync(path.join(examples, "..", "README.md"), "utf8");
const exampleSource = readFileSync(path.join(examples, "ai-sdk-agent.ts"), "utf8");

interface Hunk {
  before: string[];
  after: string[];
}

/** The README's ```diff block that moves to createContextAgent, as hunks (`@@` separates them). */
function readmeDiff(): { hunks: Hunk[]; changed: number } {
  const blocks = [...readme.matchAll(/```diff\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .filter((block) => block.includes("createContextAgent"));
  expect(blocks).toHaveLength(1);
  const hunks: Hunk[] = [{ before: [], after: [] }];
  let changed = 0;
  for (const line of blocks[0]!.trimEnd().split("\n")) {
    if (line.startsWith("@@")) {
      hunks.push({ before: [], after: [] });
      continue;
    }
    const [marker, text] = [line[0], line.slice(1)];
    const hunk = hunks.at(-1)!;
    if (marker === "-" || marker === " ") hunk.before.push(text);
    if (marker === "+" || marker === " ") hunk.after.push(text);
    if (marker === "-" || marker === "+") changed += 1;
    if (marker !== "-" && marker !== "+" && marker !== " ") throw new Error(`Not a diff line: ${JSON.stringify(line)}`);
  }
  return { hunks, changed };
}

/** The example with each hunk's new side replaced by its old side; each new side must occur once. */
function applyBack(source: string, hunks: Hunk[]): string {
  let lines = source.split("\n");
  for (const { before, after } of hunks) {
    const starts = lines.flatMap((_, index) =>
      after.every((text, offset) => lines[index + offset] === text) ? [index] : [],
    );
    expect(starts, `the example holds these lines once:\n${after.join("\n")}`).toHaveLength(1);
    lines = [...lines.slice(0, starts[0]), ...before, ...lines.slice(starts[0]! + after.length)];
  }
  return lines.join("\n");
}

const generated = path.join(examples, `readme-before-${process.pid}.generated.ts`);
let project: ReturnType<typeof enterProjectFolder>;
beforeAll(() => (project = enterProjectFolder({ "notes.md": "The build runs on Node 20.\n" })));
afterAll(() => {
  rmSync(generated, { force: true });
  project.leave();
});

describe("README: from ToolLoopAgent to createContextAgent", () => {
  it("is a diff of at most 5 changed lines whose new side is examples/ai-sdk-agent.ts", () => {
    const { hunks, changed } = readmeDiff();
    expect(changed).toBeLessThanOrEqual(5);
    expect(changed).toBeGreaterThan(0);
    const before = applyBack(exampleSource, hunks);
    expect(before).toContain("new ToolLoopAgent({");
    expect(before).not.toMatch(/createContextAgent\(|import \{[^}]*createContextAgent/);
  });

  it("applied back, gives a ToolLoopAgent program that answers like the example on the same model", async () => {
    writeFileSync(generated, applyBack(exampleSource, readmeDiff().hunks));
    const script: Script = [
      { toolCalls: [{ toolName: "read_file", input: { path: "notes.md" } }], inputTokens: 500 },
      { text: "Node 20.", inputTokens: 600 },
    ];
    const answers: string[] = [];
    for (const file of [generated, path.join(examples, "ai-sdk-agent.ts")]) {
      const { createProjectAgent } = (await import(file)) as {
        createProjectAgent: (model: unknown, chatId: string) => { stream: ToolLoopAgent["stream"] };
      };
      const { model, calls } = scriptedModel({ script });
      const agent = createProjectAgent(model, "readme-chat");
      expect(agent instanceof ToolLoopAgent, file).toBe(file === generated);
      const result = await agent.stream({ prompt: "Which Node version does the build use?" });
      answers.push(`${String((await result.steps)[0]!.toolResults[0]!.output)} / ${await result.text}`);
      expect(calls[0]!.system).toContain("You are a careful coding agent.");
    }
    expect(answers[0]).toContain("The build runs on Node 20.");
    expect(answers[1]).toBe(answers[0]);
  });
});
