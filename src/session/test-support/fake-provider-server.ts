/**
 * What the local fakes of provider APIs share: a server on 127.0.0.1 (a random port) that reads
 * each request's body before it answers, and the script that says what each answer is.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Answers in order (the last one repeats), or an answer computed from each request body. */
export type ProviderScript<Body, Answer> = readonly Answer[] | ((body: Body, index: number) => Answer);

export interface LocalServer {
  /** `http://127.0.0.1:<port>` followed by the `apiPath` given. */
  baseURL: string;
  close(): Promise<void>;
}

/**
 * The answer to the `index`th request (from 0).
 *
 * @example scriptedAnswer([{ text: "a" }, { text: "b" }], body, 5) // { text: "b" }
 */
export function scriptedAnswer<Body, Answer>(script: ProviderScript<Body, Answer>, body: Body, index: number): Answer {
  const answer = typeof script === "function" ? script(body, index) : script[Math.min(index, script.length - 1)];
  if (answer === undefined) throw new Error("empty script");
  return answer;
}

/** `text` in the pieces of at most 8 characters the fakes stream it in. */
export const streamedPieces = (text: string): string[] => text.match(/.{1,8}/gs) ?? [];

/**
 * Starts `handle` on 127.0.0.1 with a random port; it gets each request with its whole body as
 * text. A handler that throws ends the connection, as a server crash would.
 *
 * @example
 * const { baseURL, close } = await listenLocally("/v1", (request, body, response) => response.end(body));
 */
export async function listenLocally(
  apiPath: string,
  handle: (request: IncomingMessage, body: string, response: ServerResponse) => void | Promise<void>,
): Promise<LocalServer> {
  const server = createServer((request, response) => {
    const answer = async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      await handle(request, Buffer.concat(chunks).toString("utf8"), response);
    };
    void answer().catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${apiPath}`,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error === undefined ? resolve() : reject(error))),
      ),
  };
}

/**
 * A fake under `/v1` that parses each request body as JSON, records it in `requests`, and answers it with `respond`
 * given the script's answer and the request's number (from 1).
 *
 * @example const server = await startRecordingServer(script, respond); // server.requests: every body received
 */
export async function startRecordingServer<Body, Answer>(
  script: ProviderScript<Body, Answer>,
  respond: (response: ServerResponse, body: Body, number: number, answer: Answer) => void,
): Promise<LocalServer & { requests: Body[] }> {
  const requests: Body[] = [];
  const server = await listenLocally("/v1", (_request, text, response) => {
    const body = JSON.parse(text) as Body;
    requests.push(body);
    respond(response, body, requests.length, scriptedAnswer(script, body, requests.length - 1));
  });
  return { ...server, requests };
}

/** A port nothing listens on: bound, then closed. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
