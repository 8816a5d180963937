/**
 * Counts the tokens of every call an item's session makes to the model — answers, notes flushes,
 * compaction summaries alike — at the model boundary, from the usage the provider reports.
 */
import type { LanguageModelV4, LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";

export interface UsageMeter {
  model: LanguageModelV4;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly calls: number;
}

/**
 * @example
 * const meter = meterUsage(model); await session.send("hi"); console.log(meter.inputTokens);
 */
export function meterUsage(model: LanguageModelV4): UsageMeter {
  let inputTokens = 0;
  let outputTokens = 0;
  let calls = 0;
  const add = (usage: LanguageModelV4Usage) => {
    calls += 1;
    inputTokens += usage.inputTokens.total ?? 0;
    outputTokens += usage.outputTokens.total ?? 0;
  };
  const wrapped = wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v4",
      wrapGenerate: async ({ doGenerate }) => {
        const result = await doGenerate();
        add(result.usage);
        return result;
      },
      wrapStream: async ({ doStream }) => {
        const result = await doStream();
        const counting = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (part.type === "finish") add(part.usage);
            controller.enqueue(part);
          },
        });
        return { ...result, stream: result.stream.pipeThrough(counting) };
      },
    },
  });
  return {
    model: wrapped,
    get inputTokens() {
      return inputTokens;
    },
    get outputTokens() {
      return outputTokens;
    },
    get calls() {
      return calls;
    },
  };
}
