/**
 * The model behind `ctxwin eval --model demo`: an AI SDK `LanguageModelV4` that answers every
 * request with the step `decideEvalStep` picks, and reports as usage the request's characters / 3.
 * Offline and deterministic, so a run shows the whole pipeline without a key.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolCall,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { decideEvalStep, type EvalStep } from "./eval-policy.js";
import { observePrompt } from "./observe-prompt.js";

export const EVAL_DEMO_PROVIDER = "ctxwin-demo";
export const EVAL_DEMO_MODEL_ID = "scripted-eval";

function usageOf(inputTokens: number, outputTokens: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
  };
}

function contentOf(
  step: EvalStep,
  id: string,
): LanguageModelV4Content & ({ type: "text"; text: string } | LanguageModelV4ToolCall) {
  return step.kind === "text"
    ? { type: "text", text: step.text }
    : { type: "tool-call", toolCallId: id, toolName: step.toolName, input: JSON.stringify(step.input) };
}

/**
 * @example const session = createAgentSession({ store, sessionId: "eval", model: createScriptedEvalModel() });
 */
export function createScriptedEvalModel(): LanguageModelV4 {
  let calls = 0;
  const answer = (options: LanguageModelV4CallOptions) => {
    calls += 1;
    const toolNames = (options.tools ?? []).map((tool) => tool.name);
    const step = decideEvalStep(observePrompt(options.prompt), toolNames);
    const outputText = step.kind === "text" ? step.text : JSON.stringify(step.input);
    const usage = usageOf(Math.ceil(JSON.stringify(options.prompt).length / 3), Math.ceil(outputText.length / 3));
    return {
      content: contentOf(step, `eval-${calls}`),
      finishReason: { unified: step.kind === "text" ? ("stop" as const) : ("tool-calls" as const), raw: undefined },
      usage,
      id: `eval-${calls}`,
    };
  };
  return {
    specificationVersion: "v4",
    provider: EVAL_DEMO_PROVIDER,
    modelId: EVAL_DEMO_MODEL_ID,
    supportedUrls: {},
    async doGenerate(options) {
      const { content, finishReason, usage } = answer(options);
      return { content: [content], finishReason, usage, warnings: [] };
    },
    async doStream(options) {
      const { content, finishReason, usage, id } = answer(options);
      const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (content.type === "text")
        parts.push(
          { type: "text-start", id },
          { type: "text-delta", id, delta: content.text },
          { type: "text-end", id },
        );
      else parts.push(content);
      parts.push({ type: "finish", finishReason, usage });
      return {
        stream: new ReadableStream({
          start: (controller) => {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
