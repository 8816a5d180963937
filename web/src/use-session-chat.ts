/**
 * The session's chat on the AI SDK's `useChat` (ADR 0057): `DefaultChatTransport` posts to
 * `POST /api/sessions/:id/chat` and reads the answer's UI message stream, so tool calls, text and
 * ctxwin's data parts (rollovers, warnings, usage) arrive as they stream. The page sends only the
 * new message: the server builds every request from its own window, and the stored rows are the
 * transcript. Once an answer ends, its rows are fetched and the live copy is dropped.
 */
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { useMemo, useRef } from "react";
import type { ApiClient } from "./api/client";
import type { ChatDataTypes, ChatMessage } from "./api/chat-types";

export interface SessionChat {
  /** The message being answered and its answer so far; empty between turns. */
  messages: ChatMessage[];
  /** An answer is being asked for or streamed. */
  running: boolean;
  /** Sends one message; resolves when its answer has ended, with the error's text when it failed. */
  send(text: string): Promise<string | undefined>;
}

/**
 * @example
 * const chat = useSessionChat({ api, sessionId, onSettled: transcript.catchUp, onData: (part) => console.log(part.type) });
 * const error = await chat.send("Where is the retry policy configured?");
 */
export function useSessionChat({
  api,
  sessionId,
  onSettled,
  onData,
}: {
  api: ApiClient;
  sessionId: string;
  /** Called when an answer ended (its rows are stored), before the live copy is dropped. */
  onSettled: () => Promise<void>;
  onData: (
    part: { [Name in keyof ChatDataTypes]: { type: `data-${Name}`; data: ChatDataTypes[Name] } }[keyof ChatDataTypes],
  ) => void;
}): SessionChat {
  const failure = useRef<string | undefined>(undefined);
  const handlers = useRef({ onData });
  handlers.current = { onData };
  const transport = useMemo(() => {
    const endpoint = api.chatEndpoint(sessionId);
    return new DefaultChatTransport<ChatMessage>({
      api: endpoint.url,
      credentials: "omit",
      // Only the new message: the server keeps the conversation (it would accept the whole list and check it).
      prepareSendMessagesRequest: ({ id, messages }) => ({
        headers: endpoint.headers,
        body: { id, messages: messages.slice(-1), trigger: "submit-message" },
      }),
    });
  }, [api, sessionId]);
  const chat = useChat<ChatMessage>({
    id: sessionId,
    transport,
    onError: (error) => {
      failure.current = chatErrorText(error);
    },
    onData: (part) => handlers.current.onData(part as never),
  });
  const running = chat.status === "submitted" || chat.status === "streaming";
  return {
    messages: chat.messages,
    running,
    async send(text) {
      failure.current = undefined;
      try {
        await chat.sendMessage({ text });
        await onSettled();
      } finally {
        chat.setMessages([]);
        chat.clearError();
      }
      return failure.current;
    },
  };
}

/** The server answers a refused request with `{ error: { message } }`; the transport passes the body on as the error's text. */
export function chatErrorText(error: Error): string {
  try {
    const parsed = JSON.parse(error.message) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === "string") return parsed.error.message;
  } catch {
    // Not the server's JSON: the transport's own message (a network failure).
  }
  return error.message;
}
