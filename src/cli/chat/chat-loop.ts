/**
 * The read-eval loop of `ctxwin chat` on `node:readline`. Lines are queued as they arrive and run
 * one at a time, so it works the same on a terminal (type ahead while a turn runs) and with piped
 * stdin (each line a message; end of input ends the chat after the last turn). Ctrl-C during a turn
 * aborts that turn through the send's signal; at an idle prompt it ends the chat; a second Ctrl-C
 * while a turn or command does not stop quits at once.
 */
import readline from "node:readline";
import type { AgentSession } from "../../session/create-agent-session.js";
import type { SendResult } from "../../session/session-types.js";
import type { HistoryStore } from "../../store/port.js";
import { renderBudgetBar } from "../terminal/budget-bar.js";
import type { ChatOutput } from "./chat-output.js";
import { parseSlashCommand, runSlashCommand } from "./slash-commands.js";

/** Longest echo of a piped line (the whole line is still sent). */
const MAX_ECHO_CHARS = 160;

export type ChatEnd = "end-of-input" | "exit" | "interrupt";

/** The process-wide signal source (`process` by default); tests of the loop may pass their own. */
export interface InterruptSource {
  on(event: "SIGINT", listener: () => void): unknown;
  off(event: "SIGINT", listener: () => void): unknown;
}

export interface ChatLoopOptions {
  session: AgentSession;
  store: HistoryStore;
  memoryRoot: string;
  output: ChatOutput;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The terminal readline echoes to and prompts on (only used when `input` is a terminal). */
  terminal: NodeJS.WritableStream;
  /** One line for a failed turn. */
  describeFailure: (error: unknown) => string;
  interrupts?: InterruptSource;
  /** Called on a second Ctrl-C while something is still running (default: exit code 130). */
  forceQuit?: () => void;
}

/**
 * Runs until `/exit`, end of input or Ctrl-C at the prompt; resolves with why it ended.
 *
 * @example
 * const end = await runChatLoop({ session, store, memoryRoot, output, input: process.stdin, terminal: process.stdout, describeFailure });
 */
export function runChatLoop({
  session,
  store,
  memoryRoot,
  output,
  input,
  terminal,
  describeFailure,
  interrupts = process,
  forceQuit = () => process.exit(130),
}: ChatLoopOptions): Promise<ChatEnd> {
  const interactive = input.isTTY === true;
  const lines = readline.createInterface({
    input,
    ...(interactive ? { output: terminal } : {}),
    terminal: interactive,
    prompt: "> ",
  });
  const queue: string[] = [];
  let inputEnded = false;
  let busy = false;
  let done = false;
  let turn: AbortController | undefined;
  let interruptedWhileBusy = false;

  return new Promise<ChatEnd>((resolve, reject) => {
    const finish = (end: ChatEnd) => {
      if (done) return;
      done = true;
      interrupts.off("SIGINT", onInterrupt);
      lines.close();
      output.endLine();
      // On a terminal the prompt is showing: end its line (after /exit the line is already ended).
      if (interactive && end !== "exit") terminal.write("\n");
      resolve(end);
    };
    const prompt = () => {
      if (interactive && !done && !busy && queue.length === 0) lines.prompt();
    };

    const onInterrupt = () => {
      if (turn !== undefined && !turn.signal.aborted) return turn.abort();
      if (!busy) return finish("interrupt");
      if (interruptedWhileBusy) return forceQuit();
      interruptedWhileBusy = true;
      output.note("(still working: press Ctrl-C again to quit now)");
    };

    const pump = async (): Promise<void> => {
      if (busy || done) return;
      busy = true;
      try {
        while (!done && queue.length > 0) {
          const line = queue.shift() as string;
          interruptedWhileBusy = false;
          if ((await handleLine(line)) === "exit") return finish("exit");
        }
      } finally {
        busy = false;
      }
      if (inputEnded) return finish("end-of-input");
      prompt();
    };
    const schedule = () =>
      pump().catch((error: unknown) => {
        done = true;
        interrupts.off("SIGINT", onInterrupt);
        lines.close();
        reject(error);
      });

    const handleLine = async (line: string): Promise<"exit" | "continue"> => {
      if (line.trim().length === 0) return "continue";
      if (!interactive) output.line(`> ${echoOf(line)}`);
      const command = parseSlashCommand(line);
      if (command !== undefined) {
        try {
          return await runSlashCommand(command, { session, store, memoryRoot, output });
        } catch (error) {
          output.problem(`/${command.name} failed: ${describeFailure(error)}`);
          return "continue";
        }
      }
      await sendMessage(line.trim().startsWith("//") ? line.trim().slice(1) : line);
      return "continue";
    };

    const sendMessage = async (text: string): Promise<void> => {
      const controller = new AbortController();
      turn = controller;
      let result: SendResult;
      try {
        result = await session.send(text, { signal: controller.signal });
      } catch (error) {
        output.problem(describeFailure(error));
        return;
      } finally {
        turn = undefined;
      }
      output.endLine();
      if (result.status === "interrupted") output.note("(interrupted)");
      else if (result.status === "failed")
        output.problem(describeFailure(result.error ?? new Error("the turn failed")));
      else if (result.status === "blocked")
        output.problem(`blocked: ${result.reason ?? "the message does not fit the context window"}`);
      output.line(renderBudgetBar({ usage: await session.usage(), color: output.color }));
    };

    interrupts.on("SIGINT", onInterrupt);
    lines.on("SIGINT", onInterrupt);
    lines.on("line", (line) => {
      queue.push(line);
      void schedule();
    });
    lines.on("close", () => {
      inputEnded = true;
      void schedule();
    });
    prompt();
  });
}

/** A piped line as echoed before its answer: long lines are cut, the message itself is not. */
function echoOf(line: string): string {
  return line.length > MAX_ECHO_CHARS ? `${line.slice(0, MAX_ECHO_CHARS)}… (${line.length} characters)` : line;
}
