/**
 * The stdio transport of `ctxwin mcp`, in place of the MCP SDK's `StdioServerTransport`: the
 * same newline-delimited JSON-RPC, but every line gets an answer or goes on to the server. A line
 * that is not JSON, not a valid request, or has bad params is answered with a JSON-RPC error; a
 * line over `maxLineBytes` is dropped unread and answered likewise; the server keeps serving.
 * (The SDK's reader closes the whole connection on a line over 10 MiB, and drops the others
 * without an answer.) Stdin ending closes the transport; stdin failing closes it with `failure`.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { errorClass } from "../../core/errors.js";
import { readIncomingLine } from "./incoming-line.js";
import { createLineSplitter, type LineSplitter, type OversizedLine } from "./line-splitter.js";

/** The longest line (one JSON-RPC message) the server reads: 10 MiB, the MCP SDK's own limit. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** The client's side of the connection failed (reading stdin); the server stopped serving. */
export class McpTransportError extends errorClass("CtxwinMcpTransportError") {}

export interface StdioLineTransportOptions {
  input?: Readable;
  output?: Writable;
  maxLineBytes?: number;
  /** Receives one line for people per refused or ignored line (`ctxwin mcp` writes it to stderr). */
  report?: (line: string) => void;
}

/**
 * @example
 * const transport = new StdioLineTransport({ report: (line) => process.stderr.write(`${line}\n`) });
 * await server.connect(transport);
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the transport closed, when it was not the end of stdin. */
  failure: McpTransportError | undefined;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxLineBytes: number;
  readonly #report: (line: string) => void;
  readonly #splitter: LineSplitter;
  #started = false;
  #closed = false;

  constructor({
    input = process.stdin,
    output = process.stdout,
    maxLineBytes = MAX_LINE_BYTES,
    report = () => undefined,
  }: StdioLineTransportOptions = {}) {
    this.#input = input;
    this.#output = output;
    this.#maxLineBytes = maxLineBytes;
    this.#report = report;
    this.#splitter = createLineSplitter({
      maxLineBytes,
      onLine: (line) => this.#receive(line),
      onOversizedLine: (line) => this.#refuseOversized(line),
    });
  }

  start(): Promise<void> {
    if (this.#started) return Promise.reject(new Error("StdioLineTransport already started"));
    this.#started = true;
    this.#input.on("data", this.#onData);
    this.#input.on("error", this.#onError);
    this.#input.on("end", this.#onEnd);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#output.once("drain", resolve);
    });
  }

  close(): Promise<void> {
    this.#stop();
    return Promise.resolve();
  }

  #stop(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off("data", this.#onData);
    this.#input.off("error", this.#onError);
    this.#input.off("end", this.#onEnd);
    if (this.#input.listenerCount("data") === 0) this.#input.pause();
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string) =>
    this.#splitter.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);

  readonly #onError = (error: Error) => {
    this.failure = new McpTransportError(`reading the MCP client's messages from stdin failed: ${error.message}`, {
      cause: error,
    });
    this.onerror?.(this.failure);
    this.#stop();
  };

  readonly #onEnd = () => this.#stop();

  #receive(line: string): void {
    const incoming = readIncomingLine(line);
    if (incoming.kind === "message") {
      this.onmessage?.(incoming.message);
    } else if (incoming.kind === "refused") {
      this.#refuse(incoming.id, incoming.code, incoming.message);
    } else if (incoming.note !== undefined) {
      this.#report(incoming.note);
    }
  }

  #refuseOversized({ bytes, id }: OversizedLine): void {
    this.#report(`refused a line of ${bytes} bytes (the limit is ${this.#maxLineBytes} bytes per message)`);
    const limit = this.#maxLineBytes;
    const message = `Invalid Request: the message is ${bytes} bytes, over the limit of ${limit} bytes per line; it was not read`;
    this.#write({ jsonrpc: "2.0", id: id ?? null, error: { code: ErrorCode.InvalidRequest, message } });
  }

  #refuse(id: RequestId | null, code: number, message: string): void {
    this.#report(`refused a line: ${message}`);
    this.#write({ jsonrpc: "2.0", id, error: { code, message } });
  }

  /** An answer of the transport's own; `id: null` is JSON-RPC's id of a request whose id cannot be read. */
  #write(answer: { jsonrpc: "2.0"; id: RequestId | null; error: { code: number; message: string } }): void {
    this.#output.write(`${JSON.stringify(answer)}\n`);
  }
}
