/**
 * What a step's UI message chunks tell the session's listeners (`step-start`, `reasoning-delta`,
 * `tool-call`, `tool-result`) and the running send's sink. The framing of each provider call
 * (`start`, `finish`, `abort`, `message-metadata`) and provider errors are not forwarded: one send
 * may make several calls (continuations, a retried step), and how it ends is the send's to say.
 */
import type { UIMessageChunk } from "ai";
import type { SessionContext } from "./session-context.js";

const callFraming: ReadonlySet<string> = new Set(["start", "finish", "abort", "message-metadata", "error"]);

/**
 * A forwarder for one provider call: it remembers each call's tool name, which output chunks do
 * not repeat.
 *
 * @example const forward = chunkForwarder(context); recorder options: { onChunk: forward }
 */
export function chunkForwarder(context: SessionContext): (chunk: UIMessageChunk, stepIndex: number) => void {
  const toolNames = new Map<string, string>();
  return (chunk, stepIndex) => {
    const { events } = context;
    /** A tool's result: the call it answers, and what it came to. */
    const toolResult = (toolCallId: string, outcome: { output: unknown } | { errorText: string } | { denied: true }) =>
      events.emit("tool-result", { toolCallId, toolName: toolNames.get(toolCallId) ?? "tool", ...outcome, stepIndex });
    switch (chunk.type) {
      case "start-step":
        events.emit("step-start", { stepIndex });
        break;
      case "reasoning-delta":
        events.emit("reasoning-delta", { delta: chunk.delta, stepIndex });
        break;
      case "tool-input-available":
        toolNames.set(chunk.toolCallId, chunk.toolName);
        events.emit("tool-call", {
          toolCallId: chunk.toolCallId,
          toolName: chunk.toolName,
          input: chunk.input,
          stepIndex,
        });
        break;
      case "tool-output-available":
        toolResult(chunk.toolCallId, { output: chunk.output });
        break;
      case "tool-output-error":
        toolResult(chunk.toolCallId, { errorText: chunk.errorText });
        break;
      case "tool-output-denied":
        toolResult(chunk.toolCallId, { denied: true });
        break;
      default:
        break;
    }
    if (!callFraming.has(chunk.type)) context.activeSink?.chunk(chunk);
  };
}
