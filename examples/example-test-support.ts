/**
 * Shared by the examples' tests (not an example): a temporary project folder to run in (the
 * examples open `./.ctxwin/ctxwin.db` and read `.` as a user's code would), and the client side of
 * a `useChat` exchange: an SSE response read back into chunks and the assistant message.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { openStore, type CtxwinUIMessage, type StoredRow } from "ctxwin";
import { readAllRows } from "../src/session/test-support/session-invariants.js";

/** Makes a folder with `files` the working directory; `leave()` restores the previous one and deletes it. */
export function enterProjectFolder(files: Record<string, string>): { folder: string; leave: () => void } {
  const previous = process.cwd();
  const folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-example-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
  process.chdir(folder);
  return {
    folder,
    leave: () => {
      process.chdir(previous);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Every stored row of a session in the folder's default store. */
export async function storedRows(folder: string, sessionId: string): Promise<StoredRow[]> {
  const store = openStore({ directory: folder, readOnly: true });
  try {
    return await readAllRows(store, sessionId);
  } finally {
    await store.close();
  }
}

/** The chunks of a UI message stream response (its SSE body). */
export async function chunksOf(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice("data: ".length)) as UIMessageChunk);
}

/** The assistant message a `useChat` client builds from the chunks. */
export async function messageOf(chunks: UIMessageChunk[]): Promise<CtxwinUIMessage> {
  let last: CtxwinUIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const message of readUIMessageStream<CtxwinUIMessage>({ stream: stream as never })) last = message;
  if (last === undefined) throw new Error("The stream held no message.");
  return last;
}

export const userMessage = (id: string, text: string): UIMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text }],
});

/** The text parts of a message, joined. */
export const textOf = (message: UIMessage): string =>
  message.parts
    .filter((part): part is { type: "text"; text: string } => part.type === "text")
    .map((part) => part.text)
    .join("");
