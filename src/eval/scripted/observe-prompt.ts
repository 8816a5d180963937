/**
 * What the scripted eval model sees of a request: the user texts, the tool calls and results
 * since the last user message, and every text of the request (tool results included) to search.
 */
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";

export interface ObservedStep {
  toolName: string;
  input: unknown;
  /** The tool result as text (JSON for structured results); `undefined` before it arrives. */
  output?: string;
}

export interface ObservedPrompt {
  /** The system prompt (with the pinned notes, when memory is on). */
  system: string;
  userTexts: string[];
  lastUserText: string;
  /** Tool calls after the last user message, with their results. */
  stepsSinceUser: ObservedStep[];
  /** Every text of the request but the system prompt: user, assistant, tool results. */
  texts: string[];
}

function outputText(output: unknown): string {
  const value = (output as { value?: unknown } | undefined)?.value;
  return typeof value === "string" ? value : JSON.stringify(value ?? output);
}

/**
 * @example const observed = observePrompt(options.prompt);
 */
export function observePrompt(prompt: LanguageModelV4Prompt): ObservedPrompt {
  let system = "";
  const userTexts: string[] = [];
  const texts: string[] = [];
  let steps: ObservedStep[] = [];
  const byCallId = new Map<string, ObservedStep>();
  for (const message of prompt) {
    if (message.role === "system") {
      system += message.content;
      continue;
    }
    if (message.role === "user") {
      const text = message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
      userTexts.push(text);
      texts.push(text);
      steps = [];
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text") texts.push(part.text);
      if (part.type === "tool-call") {
        const step: ObservedStep = { toolName: part.toolName, input: part.input };
        byCallId.set(part.toolCallId, step);
        steps.push(step);
      }
      if (part.type === "tool-result") {
        const text = outputText(part.output);
        texts.push(text);
        const step = byCallId.get(part.toolCallId);
        if (step !== undefined) step.output = text;
      }
    }
  }
  return { system, userTexts, lastUserText: userTexts.at(-1) ?? "", stepsSinceUser: steps, texts };
}
