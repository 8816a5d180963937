/**
 * The built `ctxwin mcp` in a child process, spoken to in raw stdin lines (what no SDK client
 * would send: broken JSON, wrong params, lines of many megabytes) and read back line by line.
 */
import { spawn } from "node:child_process";
import { CTXWIN_BINARY } from "../../test-support/run-ctxwin.js";

/** One JSON-RPC message the server wrote to stdout. */
export type ServerLine = {
  jsonrpc?: string;
  id?: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
};

export interface RawMcpProcess {
  /** Writes one line (a string as is, anything else as JSON) followed by a newline. */
  writeLine: (line: unknown) => void;
  /**
   * Writes `line`, then a `ping`, and returns every message the server wrote before the ping's
   * answer: the server answers lines in order, so those are its answers to `line`.
   */
  answersTo: (line: unknown) => Promise<ServerLine[]>;
  /** Waits for the answer that carries `id`. */
  answerOf: (id: string | number) => Promise<ServerLine>;
  stderr: () => string;
  /** Ends stdin and resolves with the exit code. */
  end: () => Promise<number | null>;
  kill: () => void;
}

/**
 * Starts `ctxwin mcp <args>` and completes the MCP handshake.
 *
 * @example
 * const server = await startRawMcp({ args: ["--db", file], cwd: folder });
 * const [answer] = await server.answersTo("not json");
 */
export async function startRawMcp({ args, cwd }: { args: readonly string[]; cwd: string }): Promise<RawMcpProcess> {
  const child = spawn(process.execPath, [CTXWIN_BINARY, "mcp", ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1" },
  });
  let stderr = "";
  let pendingText = "";
  const received: ServerLine[] = [];
  let waiters: (() => void)[] = [];
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  void exited.then((code) => {
    exitCode = code;
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdout.on("data", (chunk: Buffer) => {
    pendingText += chunk.toString("utf8");
    const lines = pendingText.split("\n");
    pendingText = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") received.push(JSON.parse(line) as ServerLine);
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  });
  // The child may exit while a test still writes: that shows as a missing answer, not as EPIPE.
  child.stdin.on("error", () => undefined);

  const answerOf = async (id: string | number): Promise<ServerLine> => {
    for (;;) {
      const found = received.find((line) => line.id === id && line.jsonrpc === "2.0" && !("method" in line));
      if (found !== undefined) return found;
      if (exitCode !== undefined) {
        throw new Error(
          `ctxwin mcp exited (code ${String(exitCode)}) before answering ${String(id)}; stderr: ${stderr}`,
        );
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const writeLine = (line: unknown) => child.stdin.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`);
  let pings = 0;
  const answersTo = async (line: unknown): Promise<ServerLine[]> => {
    const before = received.length;
    const pingId = `ping-${++pings}`;
    writeLine(line);
    writeLine({ jsonrpc: "2.0", id: pingId, method: "ping" });
    await answerOf(pingId);
    const after = received.slice(before);
    return after.slice(
      0,
      after.findIndex((answer) => answer.id === pingId),
    );
  };

  const clientInfo = { name: "raw-test", version: "0" };
  writeLine({
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo },
  });
  await answerOf("init");
  writeLine({ jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    writeLine,
    answersTo,
    answerOf,
    stderr: () => stderr,
    end: () => {
      child.stdin.end();
      return exited;
    },
    kill: () => child.kill(),
  };
}
