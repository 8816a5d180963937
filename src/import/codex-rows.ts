/**
 * The rows of one Codex session from its lines in transcript order (codex-format.ts reads the
 * lines). A call and its output become one row; a `compacted` line becomes a `compaction`
 * boundary whose summary is the compaction's own text: the line's `message` without the hand-over
 * preamble Codex puts before it, which is the compaction's reply (the assistant message Codex
 * writes just before `compacted`). That reply is not repeated as a row of its own. The summary
 * comes from the `compacted` line alone, so a session split over files gets the same boundary
 * whichever file arrives first (issue 34).
 */
import { CallPairing, rawLineKeeper } from "./call-pairing.js";
import { itemRow } from "./codex-items.js";
import type { BuiltRow, Json, LineNote, RowsInput, SessionRows, SourceLine } from "./source-format.js";
import { compactionRow, type HeaderState, isoTime, sessionHeaderRow, titleOf, toolPart } from "./transcript-rows.js";

/**
 * Whether a bookkeeping line tells a reply's fate: an event other than a token count (a finished
 * task, say) shows the reply before it was an ordinary one. Token counts, usage records, turn
 * settings and world state come between a compaction's reply and its `compacted` line.
 */
export function decidesReply(value: Json): boolean {
  return value["type"] === "event_msg" && (value["payload"] as Json | undefined)?.["type"] !== "token_count";
}

/** What the line after an assistant message says it was: the compaction's reply, an ordinary one, or not known yet. */
function replyFate(lines: readonly SourceLine[], index: number): "compaction" | "ordinary" | "unknown" {
  // Turn settings say nothing about the reply before them.
  let next = index + 1;
  while (lines[next]?.value["type"] === "turn_context") next += 1;
  if (lines[next] === undefined) return "unknown";
  return lines[next]!.value["type"] === "compacted" ? "compaction" : "ordinary";
}

/**
 * @example const { rows } = codexRows({ sessionId: "codex:abc", lines, settled: true });
 */
export function codexRows({ sessionId, lines, settled }: RowsInput): SessionRows {
  const queue = new CallPairing();
  const rows: BuiltRow[] = [];
  const notes: LineNote[] = [];
  let header: HeaderState | undefined;
  let compactionReply: string | undefined;

  const keepRaw = rawLineKeeper("codex", queue, notes);
  /** The header goes first once its title is known and the model is (or an assistant item came, or the source is settled). */
  const writeHeader = (settledNow: boolean) => {
    if (
      header === undefined ||
      header.written ||
      header.title === undefined ||
      !(header.model !== undefined || header.replied || settledNow)
    )
      return;
    header.written = true;
    queue.unshift(sessionHeaderRow({ sessionId, source: "codex", header }), header);
  };

  for (const [index, { key: id, value, file, line }] of lines.entries()) {
    const at = { file, line };
    const type = value["type"] as string;
    const payload = value["payload"] as Json;
    const createdAt = isoTime(value["timestamp"]);
    if (header === undefined) {
      const sourceSessionId = sessionId.slice("codex:".length);
      header = { sourceSessionId, ...at, replied: false, written: false };
      const started = type === "session_meta" ? (isoTime(payload["timestamp"]) ?? createdAt) : createdAt;
      if (started !== undefined) header.createdAt = started;
    }
    if (type === "session_meta") {
      if (!header.written) noteSessionFacts(header, payload);
      continue;
    }
    if (type === "turn_context") {
      if (!header.written) {
        header.model ??= textOf(payload["model"]);
        header.project ??= textOf(payload["cwd"]);
      }
      continue;
    }
    // Events are read only to tell a reply's fate (replyFate).
    if (type === "event_msg") continue;
    if (type === "compacted") {
      const summary = compactedSummary(payload["message"]) ?? compactionReply;
      compactionReply = undefined;
      queue.push(compactionRow({ id, createdAt, summary, source: "Codex" }), at);
    } else if (type !== "response_item") keepRaw(id, value, type, at, createdAt);
    else {
      const item = itemRow(payload, id, createdAt);
      if (item === "unknown")
        keepRaw(
          id,
          value,
          `response_item:${typeof payload["type"] === "string" ? payload["type"] : "?"}`,
          at,
          createdAt,
        );
      else if (item === "malformed")
        notes.push({ kind: "malformed", ...at, message: `a '${String(payload["type"])}' item is missing its fields` });
      else if ("output" in item) {
        if (!queue.resolve(item, { childSession: spawnedSession(queue.toolNameOf(item.callId), item.output) })) {
          const orphan = toolPart({
            toolName: "tool",
            toolCallId: item.callId,
            input: {},
            output: item.output,
            isError: item.isError,
          });
          // Its call may be in another file of the session: it waits until the source is settled.
          queue.push(
            { id, role: "assistant", parts: [orphan], ...(createdAt === undefined ? {} : { createdAt }) },
            at,
            [],
            { untilSettled: true },
          );
        }
      } else {
        if (item.row.role === "assistant") header.replied = true;
        const reply =
          item.row.role === "assistant" && payload["type"] === "message" ? replyFate(lines, index) : "ordinary";
        if (reply === "compaction") {
          // The compaction's own reply is its summary: the boundary carries it.
          compactionReply = item.row.parts.map((part) => (part as { text?: string }).text ?? "").join("\n");
          continue;
        }
        const isPrompt = item.row.role === "user" && item.row.uiVisible !== false;
        // The user's next prompt means a call still without an output will never get one.
        if (isPrompt) queue.abandonOpenCalls();
        // A reply whose next line is not written yet may still turn out to be a compaction's.
        queue.push(item.row, at, item.callId === undefined ? [] : [item.callId], { untilSettled: reply === "unknown" });
        if (header.title === undefined && isPrompt) {
          const text = item.row.parts.find((part) => part.type === "text") as { text: string } | undefined;
          if (text !== undefined) header.title = titleOf(text.text);
        }
      }
    }
    writeHeader(false);
    if (header.written) rows.push(...queue.drain({ settled: false }));
  }
  if (settled && header !== undefined) {
    header.title ??= "(no user message)";
    writeHeader(true);
  }
  if (header?.written === true) rows.push(...queue.drain({ settled }));
  const parentSessionId =
    header?.parentSourceSessionId === undefined ? undefined : `codex:${header.parentSourceSessionId}`;
  return { rows, notes, waiting: queue.size, ...(parentSessionId === undefined ? {} : { parentSessionId }) };
}

/**
 * What `session_meta` says of the session: its folder, git branch, CLI version, and for a
 * sub-agent's rollout the thread that spawned it (`source.subagent.thread_spawn.parent_thread_id`).
 */
function noteSessionFacts(header: HeaderState, payload: Json): void {
  header.project ??= textOf(payload["cwd"]);
  header.gitBranch ??= textOf((payload["git"] as Json | undefined)?.["branch"]);
  header.cliVersion ??= textOf(payload["cli_version"]);
  const source = payload["source"] as Json | undefined;
  const spawn =
    typeof source === "object" && source !== null
      ? ((source["subagent"] as Json | undefined)?.["thread_spawn"] as Json | undefined)
      : undefined;
  const parent = typeof spawn === "object" && spawn !== null ? textOf(spawn["parent_thread_id"]) : undefined;
  if (parent !== undefined) {
    header.parentSourceSessionId ??= parent;
    header.agentId ??= header.sourceSessionId;
  }
}

/** The session a `spawn_agent` call started: its output is `{"agent_id": "<thread id>"}`. */
function spawnedSession(toolName: string | undefined, output: string): string | undefined {
  if (toolName === undefined || !/(^|__)spawn_agent$/.test(toolName)) return undefined;
  try {
    const agentId = (JSON.parse(output) as Json | null)?.["agent_id"];
    return typeof agentId === "string" && agentId !== "" ? `codex:${agentId}` : undefined;
  } catch {
    // An output that is not JSON (an error text) started no session.
    return undefined;
  }
}

function textOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The hand-over preamble Codex writes before a compaction's summary in its `compacted` line. */
const HANDOVER_PREAMBLE = /^Another language model started to solve this problem[^\n]*?:\n/;

/**
 * The summary a `compacted` line's `message` holds, without Codex's hand-over preamble.
 *
 * @example compactedSummary("Another language model started to solve this problem … analysis:\nThe queue is X.") // "The queue is X."
 */
export function compactedSummary(message: unknown): string | undefined {
  if (typeof message !== "string" || message.trim() === "") return undefined;
  return message.replace(HANDOVER_PREAMBLE, "");
}
