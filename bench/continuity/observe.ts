/**
 * What the benchmark's scripted agent sees in one request: the system prompt (with the pinned
 * notes), the user texts in order, and each tool call with its result. Nothing else: the agent
 * decides from this alone, as a real model would.
 */
import type { LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from "@ai-sdk/provider";

export interface ObservedToolStep {
  toolName: string;
  input: Record<string, unknown>;
  /** The result as the request carries it: text, or a JSON value. */
  output: unknown;
}

export interface ObservedRequest {
  system: string;
  userTexts: string[];
  /** The last user text: what the agent answers now. */
  lastUserText: string;
  steps: ObservedToolStep[];
  /** Tool steps after the last user text. */
  stepsSinceUser: ObservedToolStep[];
}

export function observeRequest(prompt: LanguageModelV4Prompt): ObservedRequest {
  const system: string[] = [];
  const userTexts: string[] = [];
  const steps: ObservedToolStep[] = [];
  const byCallId = new Map<string, ObservedToolStep>();
  let stepsBeforeLastUser = 0;
  for (const message of prompt) {
    if (message.role === "system") {
      system.push(message.content);
      continue;
    }
    if (message.role === "user") {
      const text = message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
      if (text !== "") {
        userTexts.push(text);
        stepsBeforeLastUser = steps.length;
      }
      continue;
    }
    for (const part of message.content) {
      if (part.type === "tool-call") {
        const step: ObservedToolStep = { toolName: part.toolName, input: asRecord(part.input), output: undefined };
        steps.push(step);
        byCallId.set(part.toolCallId, step);
      } else if (part.type === "tool-result") {
        const step = byCallId.get(part.toolCallId);
        if (step !== undefined) step.output = outputValue(part.output);
      }
    }
  }
  return {
    system: system.join("\n"),
    userTexts,
    lastUserText: userTexts.at(-1) ?? "",
    steps,
    stepsSinceUser: steps.slice(stepsBeforeLastUser),
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

function outputValue(output: LanguageModelV4ToolResultOutput): unknown {
  switch (output.type) {
    case "text":
    case "error-text":
    case "json":
    case "error-json":
      return output.value;
    default:
      return undefined;
  }
}
