/**
 * The messages `ctxwin demo` sends, and the patterns the demo model recognizes in them. The model
 * never sees this module's constants directly: it reads the same words in the request it receives.
 */

/** The task of the exploration turn. */
export function explorationTask({ folderName, files }: { folderName: string; files: number }): string {
  return (
    `Explore the folder "${folderName}": list its files, then read up to ${files} of them one by ` +
    "one, most informative first (documentation before code), and keep notes of what each file is for."
  );
}

/** The final question: a detail of the first file read, long gone from the context by then. */
export function recallQuestion({ line }: { line: number }): string {
  return `Final question: what exactly does line ${line} of the first file you read say? Quote it exactly.`;
}

export const TASK_PATTERN = /read up to (\d+) of them/i;
export const RECALL_PATTERN = /line (\d+) of (the first file you read|[\w./@-]+\.\w+)/i;
export const BUDGET_WARNING_MARKER = "[Context budget]";

/** The sub-agent phase (`ctxwin demo --subagents`): the task the parent hands to a sub-agent. */
export function delegationTask({ agent, task }: { agent: string; task: string }): string {
  return `Delegate to the ${agent} sub-agent with the task tool: ${task}`;
}

/** The question about a file only the sub-agent read: its transcript is the only place that holds it. */
export function subagentQuestion({ line, file }: { line: number; file: string }): string {
  return (
    `Question about the sub-agent's work: what exactly does line ${line} of ${file} say? ` +
    "The sub-agent read it, not you: look it up in its session history."
  );
}

export const DELEGATE_PATTERN = /^Delegate to the ([\w-]+) sub-agent with the task tool: ([\s\S]+)$/;
