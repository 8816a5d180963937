/**
 * The two faces the demo runs on (issue 29): the session API (`createAgentSession`'s `send`), and
 * the AI SDK `Agent` (`createContextAgent`) driven as a `useChat` client drives a route: the whole
 * chat goes with each call through `createAgentUIStream`, and the answer is read back from the UI
 * message stream, as the page would read it. Both faces run one engine; the report is the same.
 */
import { createAgentUIStream, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import {
  createWorkspaceAgent,
  createWorkspaceContextAgent,
  type WorkspaceAgentOptions,
} from "../../agent/workspace-agent.js";
import type { AgentSession } from "../../session/create-agent-session.js";
import type { SendResult } from "../../session/session-types.js";

export type DemoFace = "session" | "agent";

/** What the demo needs of its agent: the session's events and figures, and one send per message. */
export interface DemoAgent {
  on: AgentSession["on"];
  usage: AgentSession["usage"];
  send(text: string): Promise<Pick<SendResult, "status" | "text" | "reason" | "error">>;
}

/**
 * @example const agent = demoAgent("agent", { store, sessionId, model, workspaceRoot, memoryRoot });
 */
export function demoAgent(face: DemoFace, options: WorkspaceAgentOptions): DemoAgent {
  if (face === "session") {
    const session = createWorkspaceAgent(options);
    return { on: session.on, usage: session.usage, send: (text) => session.send(text) };
  }
  const agent = createWorkspaceContextAgent(options);
  const chat: UIMessage[] = [];
  return {
    on: agent.session.on,
    usage: agent.session.usage,
    async send(text) {
      chat.push({ id: `user-${chat.length + 1}`, role: "user", parts: [{ type: "text", text }] });
      const chunks: UIMessageChunk[] = [];
      for await (const chunk of await createAgentUIStream({ agent, uiMessages: chat }))
        chunks.push(chunk as UIMessageChunk);
      const answer = await messageOf(chunks);
      chat.push(answer);
      return resultOf(chunks, answer);
    },
  };
}

/** The assistant message a `useChat` client builds from the chunks. */
async function messageOf(chunks: readonly UIMessageChunk[]): Promise<UIMessage> {
  let message: UIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) if (chunk.type !== "error") controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const next of readUIMessageStream({ stream })) message = next;
  return message ?? { id: "empty", role: "assistant", parts: [] };
}

/** How the send ended, as a page sees it: a blocked part, an error or abort chunk, or a finish. */
function resultOf(
  chunks: readonly UIMessageChunk[],
  answer: UIMessage,
): Pick<SendResult, "status" | "text" | "reason" | "error"> {
  const texts = answer.parts.filter(
    (part): part is { type: "text"; text: string } => part.type === "text" && part.text.length > 0,
  );
  const text = texts.at(-1)?.text ?? "";
  const blocked = answer.parts.find((part) => part.type === "data-ctxwin-blocked") as
    { data: { reason: string } } | undefined;
  if (blocked !== undefined) return { status: "blocked", text, reason: blocked.data.reason };
  const error = chunks.find((chunk) => chunk.type === "error");
  if (error !== undefined) return { status: "failed", text, error: new Error(error.errorText) };
  if (chunks.some((chunk) => chunk.type === "abort")) return { status: "interrupted", text };
  return { status: "completed", text };
}
