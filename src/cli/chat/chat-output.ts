/**
 * Where `ctxwin chat` writes and how: the conversation (assistant text, tool lines, dividers, the
 * budget bar, slash command answers) on stdout, notices and errors on stderr, colors only on a
 * terminal without `NO_COLOR`. It remembers whether stdout sits at the start of a line, so that a
 * divider or a tool line never glues onto streamed text.
 */
import { dim, dividerLine, wantsColor } from "../terminal/budget-bar.js";

export interface ChatStreams {
  stdout: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(chunk: string): unknown };
}

export interface ChatOutput {
  readonly color: boolean;
  /** Columns of the terminal (72 when not a terminal). */
  readonly width: number;
  /** Streamed text, written as it comes. */
  text(chunk: string): void;
  /** A whole line on stdout, on a line of its own. */
  line(text: string): void;
  /** A dim secondary line (tool calls, hints). */
  note(text: string): void;
  divider(text: string): void;
  /** A line on stderr, prefixed `ctxwin: `. */
  problem(text: string): void;
  /** Ends a line of streamed text if one is open. */
  endLine(): void;
}

/**
 * @example
 * const output = createChatOutput({ streams: process });
 * output.divider("context window w:12 · rolled over at 71% (on-send)");
 */
export function createChatOutput({
  streams,
  env = process.env,
}: {
  streams: ChatStreams;
  env?: NodeJS.ProcessEnv;
}): ChatOutput {
  const color = wantsColor({ stream: streams.stdout, env });
  const width =
    streams.stdout.isTTY === true && streams.stdout.columns !== undefined
      ? Math.max(40, Math.min(streams.stdout.columns, 120))
      : 72;
  let atLineStart = true;
  const write = (chunk: string) => {
    if (chunk.length === 0) return;
    streams.stdout.write(chunk);
    atLineStart = chunk.endsWith("\n");
  };
  const endLine = () => {
    if (!atLineStart) write("\n");
  };
  return {
    color,
    width,
    text: write,
    line: (text) => {
      endLine();
      write(`${text}\n`);
    },
    note: (text) => {
      endLine();
      write(`${dim({ text, color })}\n`);
    },
    divider: (text) => {
      endLine();
      write(`${dividerLine({ text, width, color })}\n`);
    },
    problem: (text) => {
      endLine();
      streams.stderr.write(`ctxwin: ${text.replace(/\s*\n\s*/g, " ")}\n`);
    },
    endLine,
  };
}
