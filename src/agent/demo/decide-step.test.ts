/**
 * The demo model's policy on hand-built requests: it acts only on what a request contains.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Message } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { CONTINUE_TEXT } from "../../core/rollover/rollover-rows.js";
import { carriedContinueText } from "../../core/rollover/turn-carry.js";
import { decideStep } from "./decide-step.js";
import { delegationTask, explorationTask, recallQuestion, subagentQuestion } from "./demo-prompts.js";
import { parseNotes, renderNotes, summarizeFile } from "./explorer-notes.js";
import { observeRequest } from "./observe-request.js";

const tools = ["read_file", "list_files", "search_text", "memory", "session_history"].map((name) => ({
  type: "function" as const,
  name,
  inputSchema: {},
}));
let callCounter = 0;

function request(system: string, messages: LanguageModelV4Message[]): LanguageModelV4CallOptions {
  return { prompt: [{ role: "system", content: system }, ...messages], tools } as LanguageModelV4CallOptions;
}

const user = (text: string): LanguageModelV4Message => ({ role: "user", content: [{ type: "text", text }] });

/** An assistant tool call followed by its result. */
function toolStep(toolName: string, input: unknown, output: string | object): LanguageModelV4Message[] {
  const toolCallId = `call-${(callCounter += 1)}`;
  return [
    { role: "assistant", content: [{ type: "tool-call", toolCallId, toolName, input }] },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId,
          toolName,
          output:
            typeof output === "string" ? { type: "text", value: output } : { type: "json", value: output as never },
        },
      ],
    },
  ];
}

const task = explorationTask({ folderName: "project", files: 2 });
const readme = "File: README.md · lines 1–3 of 3\n# Reservoir notes\nThe gauge constant is 7.31.\nEnd.";

/** The task, the folder listed, README.md read, then the budget warning. */
const readUntilTheWarning = (): LanguageModelV4Message[] => [
  user(task),
  ...toolStep("list_files", { path: "." }, "README.md (2.0 KB)\nguide.md (1.0 KB)"),
  ...toolStep("read_file", { path: "README.md" }, readme),
  user("[Context budget] Window w:0 holds about 9,000 of 16,000 tokens …"),
];

describe("the demo model's policy", () => {
  it("lists the folder first, then reads documentation before code", () => {
    expect(decideStep(observeRequest(request("", [user(task)])))).toEqual({
      kind: "tool",
      call: { toolName: "list_files", input: { path: ".", recursive: false } },
    });
    const listed = request("", [
      user(task),
      ...toolStep("list_files", { path: ".", recursive: false }, "src/\nindex.ts (1.0 KB)\nREADME.md (2.0 KB)"),
    ]);
    expect(decideStep(observeRequest(listed))).toEqual({
      kind: "tool",
      call: { toolName: "read_file", input: { path: "README.md" } },
    });
  });

  it("writes notes when the budget warning arrives, and reads them back after a rollover", () => {
    const messages = readUntilTheWarning();
    const step = decideStep(observeRequest(request("", messages)));
    expect(step.kind === "tool" && step.call.toolName).toBe("memory");
    const notesText = step.kind === "tool" ? String(step.call.input["file_text"]) : "";
    const notes = parseNotes(`<memory path="/memories/workspace/context-notes.md">\n${notesText}</memory>`);
    expect(notes.read).toEqual([{ path: "README.md", lines: 3, summary: "Reservoir notes" }]);
    expect(notes.next).toEqual(["guide.md"]);

    // A new window holds only the lead-in and "continue": the pinned notes say what comes next.
    const next = decideStep(
      observeRequest(
        request(`<hot_memories>\n<memory path="x">\n${notesText}</memory>`, [
          user("[Context window w:9 begins.] … the one just before is w:0 …"),
          user("Continue the task you were working on."),
        ]),
      ),
    );
    expect(next).toEqual({ kind: "tool", call: { toolName: "read_file", input: { path: "guide.md" } } });
  });

  it("writes the files read since the warning when the notes-flush step arrives, with only the memory tool offered", () => {
    const messages = [
      ...readUntilTheWarning(),
      ...toolStep("memory", { command: "create" }, "File created."),
      ...toolStep("read_file", { path: "guide.md" }, "File: guide.md · lines 1–2 of 2\n# Guide\nSteps."),
      user(
        "[Context window w:0 rolls over after this step.] Update your notes file /memories/workspace/context-notes.md now with the memory tool: …",
      ),
    ];
    const flush = {
      ...request("", messages),
      tools: tools.filter((tool) => tool.name === "memory"),
    } as LanguageModelV4CallOptions;
    const step = decideStep(observeRequest(flush));
    expect(step.kind === "tool" && step.call.toolName).toBe("memory");
    const notes = parseNotes(
      `<memory path="x">\n${step.kind === "tool" ? String(step.call.input["file_text"]) : ""}</memory>`,
    );
    expect(notes.read.map((note) => note.path)).toEqual(["README.md", "guide.md"]);
  });

  it("answers a question about its first file through session_history: search, read_item, then the quoted line", () => {
    const notes = renderNotes({
      task,
      read: [{ path: "README.md", lines: 3, summary: "Reservoir notes" }],
      next: [],
      folders: [],
      listed: ["."],
    });
    const system = `<memory path="/memories/workspace/context-notes.md">\n${notes}</memory>`;
    const question = user(recallQuestion({ line: 2 }));
    const search = decideStep(observeRequest(request(system, [question])));
    expect(search).toEqual({
      kind: "tool",
      call: {
        toolName: "session_history",
        input: { action: "search", query: "File: README.md · lines 1", mode: "literal" },
      },
    });

    const hits = {
      ok: true,
      hits: [
        { item_id: "40", snippet_offset_chars: 10 },
        { item_id: "4", snippet_offset_chars: 30 },
      ],
    };
    const afterSearch = [question, ...toolStep("session_history", { action: "search" }, hits)];
    const read = decideStep(observeRequest(request(system, afterSearch)));
    expect(read.kind === "tool" && read.call.input).toMatchObject({ action: "read_item", item_id: "4" });

    const page = { ok: true, text: `read_file({"path":"README.md"}) → ${readme}` };
    const answer = decideStep(
      observeRequest(
        request(system, [...afterSearch, ...toolStep("session_history", { action: "read_item", item_id: "4" }, page)]),
      ),
    );
    expect(answer.kind === "text" && answer.text).toContain(
      'Line 2 of README.md (the first file I read) says: "The gauge constant is 7.31."',
    );
  });

  it("explains what it can do when the request is neither a task nor a question", () => {
    const step = decideStep(observeRequest(request("", [user("hello there")])));
    expect(step.kind === "text" && step.text).toMatch(/scripted demo model/);
  });
});

describe("summarizeFile", () => {
  it("takes the first heading, else the first meaningful line", () => {
    expect(summarizeFile("\n# Title here\ntext")).toBe("Title here");
    expect(summarizeFile('import x from "y";\n/** Opens the store. */\nexport function open() {}')).toBe(
      "Opens the store.",
    );
  });
});

describe("the demo model with a sub-agent", () => {
  it("delegates a task once with the task tool, then reports the sub-agent's answer and session", () => {
    const delegation = delegationTask({ agent: "explorer", task: explorationTask({ folderName: "docs", files: 3 }) });
    expect(decideStep(observeRequest(request("", [user(delegation)])))).toEqual({
      kind: "tool",
      call: {
        toolName: "task",
        input: { agent: "explorer", prompt: explorationTask({ folderName: "docs", files: 3 }) },
      },
    });
    const done = request("", [
      user(delegation),
      ...toolStep(
        "task",
        { agent: "explorer", prompt: "…" },
        { status: "completed", agent: "explorer", session_id: "main/explorer-1", answer: "I read 3 files.\n1. a.md" },
      ),
    ]);
    expect(decideStep(observeRequest(done))).toEqual({
      kind: "text",
      text: "The explorer sub-agent's task ended completed in its own session main/explorer-1: I read 3 files.",
    });
  });

  it("reads a search hit in a sub-agent's transcript from that session, and says so", () => {
    const question = subagentQuestion({ line: 2, file: "README.md" });
    const searched = request("", [
      user(question),
      ...toolStep(
        "session_history",
        { action: "search", query: "File: README.md · lines 1", mode: "literal" },
        { ok: true, hits: [{ item_id: "4", session_id: "main/explorer-1", snippet_offset_chars: 0 }] },
      ),
    ]);
    const step = decideStep(observeRequest(searched));
    expect(step).toMatchObject({
      kind: "tool",
      call: {
        toolName: "session_history",
        input: { action: "read_item", item_id: "4", session_id: "main/explorer-1" },
      },
    });
    const read = request("", [
      ...searched.prompt.slice(1),
      ...toolStep(
        "session_history",
        { action: "read_item", item_id: "4", session_id: "main/explorer-1" },
        { ok: true, text: readme },
      ),
    ] as LanguageModelV4Message[]);
    const answer = decideStep(observeRequest(read));
    expect(answer).toEqual({
      kind: "text",
      text:
        'Line 2 of README.md says: "The gauge constant is 7.31."\nIt is not in my context, ' +
        "so I found it with session_history: search, then read_item 4 of session main/explorer-1.",
    });
  });

  it("after a rollover that stopped the delegation turn: a finished task in the carried ledger is not run again", () => {
    const delegation = delegationTask({ agent: "explorer", task: explorationTask({ folderName: "docs", files: 3 }) });
    const input = { itemId: "40", windowId: "w:0", text: delegation, totalChars: delegation.length, truncated: false };
    const finished = carriedContinueText({
      instruction: CONTINUE_TEXT,
      carry: {
        input,
        ledger: [
          {
            itemId: "41",
            toolName: "task",
            input: JSON.stringify({ agent: "explorer", prompt: "…" }),
            outcome: "finished",
          },
        ],
        omittedCalls: 0,
      },
    });
    expect(decideStep(observeRequest(request("", [user(finished)])))).toEqual({
      kind: "text",
      text: "The explorer sub-agent's task finished before my context rolled over (item 41); its transcript is in its own session.",
    });
    const notYet = carriedContinueText({ instruction: CONTINUE_TEXT, carry: { input, ledger: [], omittedCalls: 0 } });
    expect(decideStep(observeRequest(request("", [user(notYet)])))).toMatchObject({
      kind: "tool",
      call: { toolName: "task", input: { agent: "explorer" } },
    });
  });
});
