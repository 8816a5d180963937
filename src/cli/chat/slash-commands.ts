/**
 * The slash commands of `ctxwin chat`: `/usage`, `/windows`, `/search <text>`, `/clear --soft`,
 * `/compact`, `/notes`, `/fork`, `/help`, `/exit`. Windows and search use the same queries as
 * `ctxwin history` (the tool's rules and privacy floor); the notes file is read from disk.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { AgentSession } from "../../session/create-agent-session.js";
import type { HistoryStore } from "../../store/port.js";
import { CONTEXT_NOTES_PATH } from "../../core/hot-memories/limits.js";
import { resolveMemoryLayout } from "../../tools/memory/layout.js";
import { formatHits, formatWindows } from "../history/format-human.js";
import { HistoryCommandError } from "../history/history-errors.js";
import { listWindowEntries, openScope, searchEntries } from "../history/history-queries.js";
import { formatTokens, renderBudgetBar } from "../terminal/budget-bar.js";
import type { ChatOutput } from "./chat-output.js";
import { describeFailure } from "./describe-failure.js";
import { compactionText } from "./turn-printer.js";
import { forkChat } from "./fork-command.js";

/** Most hits `/search` prints. */
const SEARCH_LIMIT = 20;

export interface SlashCommand {
  name: string;
  /** Everything after the name, trimmed. */
  argument: string;
}

export interface SlashContext {
  session: AgentSession;
  store: HistoryStore;
  /** Root of the memory tree (`.ctxwin/memory`). */
  memoryRoot: string;
  output: ChatOutput;
}

export const SLASH_HELP = [
  "/usage          tokens in the context window and when it rolls over",
  "/windows        the context windows of this session",
  "/search <text>  find text in this session's history (after the last /clear --soft)",
  "/notes          the agent's notes file, pinned into every request",
  "/compact        summarize the window into a new one (the classic approach)",
  "/clear --soft   start a fresh window; the agent can no longer see what came before",
  "/fork [<item>]  a new session sharing this one up to an item (default: the last); nothing is copied",
  "/help           this list",
  "/exit           end the chat (Ctrl-D and Ctrl-C at the prompt too)",
  "A line starting with // is sent as a message starting with /.",
].join("\n");

/**
 * A slash command, or `undefined` for a message (`//text` is the message `/text`).
 *
 * @example parseSlashCommand("/search retry policy") // { name: "search", argument: "retry policy" }
 */
export function parseSlashCommand(line: string): SlashCommand | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith("/") || trimmed.startsWith("//")) return undefined;
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(trimmed);
  return { name: (match?.[1] ?? "").toLowerCase(), argument: (match?.[2] ?? "").trim() };
}

/**
 * Runs one command; resolves to `"exit"` when the chat should end.
 *
 * @example if ((await runSlashCommand(command, context)) === "exit") close();
 */
export async function runSlashCommand(command: SlashCommand, context: SlashContext): Promise<"exit" | "continue"> {
  if (command.name === "exit" || command.name === "quit") return "exit";
  const action = SLASH_ACTIONS.get(command.name);
  if (command.name === "help") context.output.line(SLASH_HELP);
  else if (action !== undefined) await action(context, command.argument);
  else
    context.output.problem(
      `unknown command /${command.name}: /help lists the commands (start a message with // to send a leading /).`,
    );
  return "continue";
}

/** What each command but /exit, /quit and /help does, given the text after its name. */
const SLASH_ACTIONS = new Map<string, (context: SlashContext, argument: string) => Promise<void>>([
  ["usage", showUsage],
  ["windows", showWindows],
  ["search", showSearch],
  ["notes", showNotes],
  ["compact", compact],
  ["clear", clear],
  ["fork", forkChat],
]);

async function showUsage({ session, output }: SlashContext): Promise<void> {
  const usage = await session.usage();
  output.line(renderBudgetBar({ usage, color: output.color }));
  const facts = [`window ${usage.windowId}`, `${formatTokens(usage.contextTokens)} tokens in context`];
  if (usage.contextLimit !== undefined) facts.push(`limit ${formatTokens(usage.contextLimit)}`);
  if (usage.threshold !== undefined) facts.push(`rolls over at ${formatTokens(usage.threshold)}`);
  if (usage.hardCeiling !== undefined) facts.push(`hard ceiling ${formatTokens(usage.hardCeiling)}`);
  output.line(facts.join(" · "));
}

async function showWindows({ session, store, output }: SlashContext): Promise<void> {
  const scope = await scopeOrNothing(store, session.sessionId);
  const entries = scope === undefined ? [] : await listWindowEntries(scope);
  if (entries.length === 0) return output.line("No windows yet.");
  // Numbered in order, so that "window 3" means the same to the person as the divider lines' ids.
  output.line(entries.map((entry, index) => `${index + 1}. ${formatWindows([entry])}`).join("\n"));
}

async function showSearch({ session, store, output }: SlashContext, text: string): Promise<void> {
  if (text.length === 0) return output.problem("/search needs text to look for, e.g. /search retry policy");
  const scope = await scopeOrNothing(store, session.sessionId);
  if (scope === undefined) return output.line("No matches.");
  try {
    output.line(formatHits(await searchEntries(scope, { query: text, mode: "literal", limit: SEARCH_LIMIT })));
  } catch (error) {
    if (!HistoryCommandError.isInstance(error)) throw error;
    output.problem(error.message);
  }
}

async function showNotes({ session, memoryRoot, output }: SlashContext): Promise<void> {
  const layout = resolveMemoryLayout({ root: memoryRoot, sessionId: session.sessionId });
  const file = path.join(layout.scopeDirectories.workspace, path.posix.basename(CONTEXT_NOTES_PATH));
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return output.line(
      `No notes yet: the agent writes ${CONTEXT_NOTES_PATH} when its window fills up (on disk: ${file}).`,
    );
  }
  output.note(`── ${CONTEXT_NOTES_PATH} (${file})`);
  output.line(text.trim().length === 0 ? "(empty)" : text.replace(/\s+$/, ""));
}

async function compact({ session, output }: SlashContext): Promise<void> {
  output.note("compacting: the model summarizes this window…");
  const result = await session.compact();
  if (result.status === "completed") output.divider(compactionText(result));
  else if (result.status === "skipped") output.line(`Nothing to compact: ${result.reason}`);
  else output.problem(`compaction failed: ${describeFailure({ error: result.error })}`);
}

async function clear({ session, output }: SlashContext, argument: string): Promise<void> {
  if (argument !== "--soft") {
    return output.problem(
      "/clear needs --soft: `/clear --soft` starts a fresh window and keeps the transcript " +
        "(hidden from the agent); `ctxwin history` still shows it with --include-cleared.",
    );
  }
  const { windowId } = await session.clear({ soft: true });
  output.divider(`new context window ${windowId} · cleared (earlier history is hidden from the agent)`);
}

/** The history scope of the session, or `undefined` while nothing of it is stored. */
async function scopeOrNothing(store: HistoryStore, sessionId: string) {
  if ((await store.session(sessionId)) === undefined) return undefined;
  return openScope({ store, sessionId });
}
