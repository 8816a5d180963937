/**
 * The `stream` member of AI SDK 7's `StreamTextResult`: what `createAgentUIStream`,
 * `createAgentUIStreamResponse` and `pipeAgentUIStreamToResponse` read from an agent (they turn it
 * into UI message chunks with the SDK's `toUIMessageStream`). A send's UI chunks are turned back
 * into those stream parts one for one. The SDK's converter knows only its own part types, so
 * ctxwin's data parts travel as `custom` parts: `data-ctxwin-rollover` becomes
 * `{ type: "custom", kind: "ctxwin.rollover", providerMetadata: { ctxwin: <the data> } }` (ADR 0077).
 * `result.toUIMessageStream()` (and its Response forms) keep them as data parts.
 */
import type { TextStreamPart, ToolSet, UIMessageChunk } from "ai";
import type { SendChunks } from "../ui-message-stream.js";

/** The `custom` part kind a ctxwin data part travels as (`data-ctxwin-rollover` → `ctxwin.rollover`). */
export function customKindOf(dataType: string): `ctxwin.${string}` {
  return `ctxwin.${dataType.slice("data-ctxwin-".length)}`;
}

/**
 * @example for await (const part of agentStreamOf(chunks)) console.log(part.type);
 */
export function agentStreamOf(chunks: SendChunks): ReadableStream<TextStreamPart<ToolSet>> {
  const toolNames = new Map<string, string>();
  const toolInputs = new Map<string, unknown>();
  return chunks.stream().pipeThrough(
    new TransformStream<UIMessageChunk, TextStreamPart<ToolSet>>({
      transform(chunk, controller) {
        const part = streamPartOf(chunk, { toolNames, toolInputs });
        if (part !== undefined) controller.enqueue(part);
      },
    }),
  );
}

interface ToolMemory {
  toolNames: Map<string, string>;
  toolInputs: Map<string, unknown>;
}

/** One UI chunk as the stream part the SDK's converter turns back into it (undefined: none). */
function streamPartOf(
  chunk: UIMessageChunk,
  { toolNames, toolInputs }: ToolMemory,
): TextStreamPart<ToolSet> | undefined {
  const meta =
    "providerMetadata" in chunk && chunk.providerMetadata !== undefined
      ? { providerMetadata: chunk.providerMetadata }
      : {};
  const tool = (toolCallId: string) => ({
    toolCallId,
    toolName: toolNames.get(toolCallId) ?? "tool",
    input: toolInputs.get(toolCallId),
  });
  switch (chunk.type) {
    case "start":
      return { type: "start" } as TextStreamPart<ToolSet>;
    case "start-step":
      return { type: "start-step", request: {}, warnings: [] } as unknown as TextStreamPart<ToolSet>;
    case "finish-step":
      return { type: "finish-step" } as unknown as TextStreamPart<ToolSet>;
    case "finish":
      return { type: "finish", finishReason: chunk.finishReason ?? "stop" } as unknown as TextStreamPart<ToolSet>;
    case "abort":
      return { type: "abort" } as TextStreamPart<ToolSet>;
    case "error":
      return { type: "error", error: chunk.errorText };
    case "text-start":
    case "text-end":
    case "reasoning-start":
    case "reasoning-end":
      return { type: chunk.type, id: chunk.id, ...meta } as TextStreamPart<ToolSet>;
    case "text-delta":
    case "reasoning-delta":
      return { type: chunk.type, id: chunk.id, text: chunk.delta, ...meta } as TextStreamPart<ToolSet>;
    case "tool-input-start":
      toolNames.set(chunk.toolCallId, chunk.toolName);
      return {
        type: "tool-input-start",
        id: chunk.toolCallId,
        toolName: chunk.toolName,
        ...meta,
      } as TextStreamPart<ToolSet>;
    case "tool-input-delta":
      return { type: "tool-input-delta", id: chunk.toolCallId, delta: chunk.inputTextDelta } as TextStreamPart<ToolSet>;
    case "tool-input-available":
      toolNames.set(chunk.toolCallId, chunk.toolName);
      toolInputs.set(chunk.toolCallId, chunk.input);
      return {
        type: "tool-call",
        toolCallId: chunk.toolCallId,
        toolName: chunk.toolName,
        input: chunk.input,
        ...meta,
      } as TextStreamPart<ToolSet>;
    case "tool-input-error":
      toolNames.set(chunk.toolCallId, chunk.toolName);
      return {
        type: "tool-call",
        toolCallId: chunk.toolCallId,
        toolName: chunk.toolName,
        input: chunk.input,
        invalid: true,
        error: chunk.errorText,
        ...meta,
      } as TextStreamPart<ToolSet>;
    case "tool-output-available":
      return {
        type: "tool-result",
        ...tool(chunk.toolCallId),
        output: chunk.output,
        ...meta,
      } as TextStreamPart<ToolSet>;
    case "tool-output-error":
      return {
        type: "tool-error",
        ...tool(chunk.toolCallId),
        error: chunk.errorText,
        ...meta,
      } as TextStreamPart<ToolSet>;
    case "tool-output-denied":
      return { type: "tool-output-denied", ...tool(chunk.toolCallId) } as TextStreamPart<ToolSet>;
    default:
      break;
  }
  if (chunk.type.startsWith("data-ctxwin-")) {
    const data = (chunk as { data: unknown }).data;
    return {
      type: "custom",
      kind: customKindOf(chunk.type),
      providerMetadata: { ctxwin: data as never },
    } as TextStreamPart<ToolSet>;
  }
  // Other chunks (sources, files, message metadata) are not produced by a send.
  return undefined;
}
