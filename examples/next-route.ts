/**
 * A route handler for `useChat` on ctxwin: Next.js's `app/api/chat/route.ts`, or any framework with
 * fetch-style handlers (it needs nothing from Next). `useChat` posts the whole chat each time
 * (`{ id, messages }`); the agent takes only the new user message and builds the request from the
 * store's window, and the answer streams back as the AI SDK's UI message stream, with ctxwin's
 * `data-ctxwin-*` parts (rollovers, warnings, usage) beside the tool parts.
 *
 * Refusals are answers, not crashes, and nothing is written for them:
 * - 400 with `{ error }`: a body that is not `{ id, messages }`, a chat whose copy differs from the
 *   stored one (an edited or invented message, a tool result for a call that never happened),
 *   part types the AI SDK does not know, a new message over ctxwin's size limit (1,000,000
 *   characters by default), a tool approval (not supported).
 * - 409 with `{ error }`: another request of the same chat is still running in this process.
 *
 * In a Next.js app: `export { POST } from "./next-route";` with your model in place of the demo
 * model (`model: openai("gpt-4.1")`).
 */
import { TypeValidationError, createAgentUIStreamResponse, type LanguageModel } from "ai";
import {
  AgentInputError,
  SessionBusyError,
  createContextAgent,
  openStore,
  workspaceTools,
  type HistoryStore,
} from "ctxwin";
import { createDemoModel } from "ctxwin/demo";

/** What `useChat`'s default transport posts. */
interface ChatRequestBody {
  id: string;
  messages: unknown[];
}

/**
 * A POST handler over one store and model.
 *
 * @example export const POST = createChatRoute({ store: openStore(), model: openai("gpt-4.1") });
 */
export function createChatRoute({
  store,
  model,
}: {
  store: HistoryStore | (() => HistoryStore);
  model: LanguageModel;
}) {
  const tools = workspaceTools({ root: "." });
  let opened: HistoryStore | undefined;
  const storeOf = () => (opened ??= typeof store === "function" ? store() : store);
  return async function POST(request: Request): Promise<Response> {
    const body = await readBody(request);
    if (typeof body === "string") return refusal(400, body);
    const agent = createContextAgent({
      store: storeOf(),
      sessionId: body.id,
      model,
      instructions: "You are a careful coding agent. Read the files before you answer.",
      tools,
      // A second request of a chat while its answer streams: 409 rather than a queued copy that is stale by then.
      whenBusy: "refuse",
    });
    try {
      return await createAgentUIStreamResponse({ agent, uiMessages: body.messages });
    } catch (error) {
      if (AgentInputError.isInstance(error)) return refusal(400, error.message);
      if (TypeValidationError.isInstance(error))
        return refusal(400, `The messages are not valid UI messages: ${error.message}`);
      if (SessionBusyError.isInstance(error)) return refusal(409, error.message);
      throw error;
    }
  };
}

/** The route: SQLite at ./.ctxwin/ctxwin.db (opened on the first request), ctxwin's offline demo model. */
const route = createChatRoute({ store: () => openStore(), model: createDemoModel() });

export async function POST(request: Request): Promise<Response> {
  return route(request);
}

async function readBody(request: Request): Promise<ChatRequestBody | string> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return "The request body is not JSON; useChat sends { id, messages }.";
  }
  const { id, messages } = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof id !== "string" || id.length === 0 || id.length > 200 || /[\u0000-\u001f\u007f]/.test(id)) {
    return "The body needs `id`: the chat's id (1 to 200 characters, no control characters), which is its ctxwin session id.";
  }
  if (!Array.isArray(messages))
    return "The body needs `messages`: the chat's UI messages, ending with the user's new one.";
  return { id, messages };
}

function refusal(status: 400 | 409, error: string): Response {
  return Response.json({ error }, { status });
}
