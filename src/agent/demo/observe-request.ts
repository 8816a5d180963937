/**
 * What the demo model sees in one request, read from the prompt the provider receives: the system
 * prompt (with `<hot_memories>`), the user texts, and every tool call with its result. The demo
 * model decides only from this, like a real model would.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4ToolResultOutput } from "@ai-sdk/provider";

export interface ObservedToolStep {
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  /** The result as text (JSON results stringified), '' while it has none. */
  resultText: string;
  /** The result value when it was JSON. */
  resultJson: unknown;
}

export interface ObservedRequest {
  system: string;
  /** User texts in order. */
  userTexts: string[];
  /** User texts with the number of tool steps before each. */
  userMessages: Array<{ text: string; stepsBefore: number }>;
  /** Tool steps in order. */
  toolSteps: ObservedToolStep[];
  /** Tool steps after the last user text (what the agent did for the message it answers now). */
  sinceLastUser: ObservedToolStep[];
  toolNames: string[];
}

/**
 * @example
 * const observed = observeRequest(options);
 * observed.userTexts.at(-1) // the message the model answers
 */
export function observeRequest(options: LanguageModelV4CallOptions): ObservedRequest {
  const system: string[] = [];
  const userTexts: string[] = [];
  const userMessages: Array<{ text: string; stepsBefore: number }> = [];
  const toolSteps: ObservedToolStep[] = [];
  const byId = new Map<string, ObservedToolStep>();
  let lastUserIndex = 0;
  for (const message of options.prompt) {
    if (message.role === "system") {
      system.push(message.content);
      continue;
    }
    if (message.role === "user") {
      const text = message.content
        .filter((part) => part.type === "text")
        .map((part) => part.text)
        .join("\n");
      if (text !== "") {
        userTexts.push(text);
        userMessages.push({ text, stepsBefore: toolSteps.length });
        lastUserIndex = toolSteps.length;
      }
      continue;
    }
    for (const part of message.content) {
      if (part.type === "tool-call") {
        const step: ObservedToolStep = {
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: asRecord(part.input),
          resultText: "",
          resultJson: undefined,
        };
        toolSteps.push(step);
        byId.set(part.toolCallId, step);
      } else if (part.type === "tool-result") {
        const step = byId.get(part.toolCallId);
        if (step === undefined) continue;
        const { text, json } = readOutput(part.output);
        step.resultText = text;
        step.resultJson = json;
      }
    }
  }
  return {
    system: system.join("\n"),
    userTexts,
    userMessages,
    toolSteps,
    sinceLastUser: toolSteps.slice(lastUserIndex),
    toolNames: (options.tools ?? []).map((tool) => tool.name),
  };
}

function asRecord(input: unknown): Record<string, unknown> {
  if (typeof input === "string") {
    try {
      return asRecord(JSON.parse(input));
    } catch {
      return {};
    }
  }
  return typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
}

function readOutput(output: LanguageModelV4ToolResultOutput): { text: string; json: unknown } {
  switch (output.type) {
    case "text":
    case "error-text":
      return { text: output.value, json: undefined };
    case "json":
    case "error-json":
      return { text: JSON.stringify(output.value), json: output.value };
    default:
      return { text: JSON.stringify(output), json: undefined };
  }
}
