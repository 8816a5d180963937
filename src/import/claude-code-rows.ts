/**
 * The rows of one Claude Code session from its lines in transcript order (claude-code-format.ts
 * reads the lines). A tool call and its result become one row; a `compact_boundary` with the
 * summary after it becomes a `compaction` boundary; a slash command is kept as the command and its
 * output as a synthetic row; replies Claude Code wrote itself are synthetic (an API error visible,
 * "No response requested." hidden); a file the user attached is a synthetic row with its text; the
 * usage of each API message is the step metadata of its first row.
 */
import path from "node:path";
import type { RowPart } from "../core/row.js";
import { CallPairing, rawLineKeeper } from "./call-pairing.js";
import {
  HOOK_ATTACHMENTS,
  LISTING_ATTACHMENTS,
  commandLineOf,
  fileAttachmentText,
  partsOf,
  stepUsageOf,
  syntheticReplyOf,
  textOf,
} from "./claude-code-content.js";
import type { BuiltRow, Json, LineNote, RowsInput, SessionRows, SourceRow } from "./source-format.js";
import {
  compactionRow,
  cutText,
  type HeaderState,
  isoTime,
  metadataRow,
  sessionHeaderRow,
  titleOf,
} from "./transcript-rows.js";

interface PendingCompaction {
  id: string;
  createdAt: string | undefined;
  file: string;
  line: number;
}

/**
 * @example const { rows } = claudeCodeRows({ sessionId: "claude-code:abc", lines, settled: true });
 */
export function claudeCodeRows({ sessionId, lines, settled }: RowsInput): SessionRows {
  const queue = new CallPairing();
  const rows: BuiltRow[] = [];
  const notes: LineNote[] = [];
  const messagesWithUsage = new Set<string>();
  let header: HeaderState | undefined;
  let pendingCompaction: PendingCompaction | undefined;
  // A sub-agent's session (`claude-code:<parent>/agent-<id>`) is its parent's child (ADR 0067).
  const parentSessionId = /^(claude-code:[^/]+)\/agent-[^/]+$/.exec(sessionId)?.[1];

  const flushCompaction = (summary: string | undefined, { untilSettled = false } = {}) => {
    if (pendingCompaction === undefined) return;
    const { file, line } = pendingCompaction;
    queue.push(compactionRow({ ...pendingCompaction, summary, source: "Claude Code" }), { file, line }, [], {
      untilSettled,
    });
    pendingCompaction = undefined;
  };

  const keepRaw = rawLineKeeper("claude-code", queue, notes);
  /** The header goes first once its title is known and an assistant line has shown the model (or the source is settled). */
  const writeHeader = (settledNow: boolean) => {
    if (header === undefined || header.written || header.title === undefined || !(header.replied || settledNow)) return;
    header.written = true;
    queue.unshift(sessionHeaderRow({ sessionId, source: "claude-code", header }), header);
  };

  for (const { key: uuid, value, file, line } of lines) {
    const type = value["type"] as string;
    const at = { file, line };
    const createdAt = isoTime(value["timestamp"]);
    header ??= headerOf(sessionId, value, at);
    noteFacts(header, value);

    if (type !== "user" && type !== "assistant" && type !== "system" && type !== "attachment") {
      keepRaw(uuid, value, type, at, createdAt);
    } else if (type === "system") {
      if (value["subtype"] === "compact_boundary") {
        flushCompaction(undefined);
        pendingCompaction = { id: uuid, createdAt, ...at };
      }
      // A local command's output (`/compact` with too little to compact) is the command's output row.
      else if (value["subtype"] === "local_command" && typeof value["content"] === "string") {
        const command = commandLineOf(value["content"]);
        const text = command?.kind === "output" ? command.text : value["content"];
        const row: SourceRow = {
          id: uuid,
          role: "user",
          parts: [{ type: "text", text: cutText(text) }],
          synthetic: true,
          uiVisible: true,
          metadata: { commandOutput: true },
        };
        queue.push(createdAt === undefined ? row : { ...row, createdAt }, at);
      } else if (value["subtype"] === "turn_duration") {
        const lineType = "system:turn_duration";
        queue.push(metadataRow({ id: uuid, createdAt, source: "claude-code", lineType, value }), at);
      }
      // Other system lines (API errors, notices) are kept as they were written.
      else {
        keepRaw(
          uuid,
          value,
          `system${typeof value["subtype"] === "string" ? `:${value["subtype"]}` : ""}`,
          at,
          createdAt,
        );
      }
    } else {
      contentLine({ uuid, type, value, at, createdAt });
    }
    writeHeader(false);
    if (header.written) rows.push(...queue.drain({ settled: false }));
  }
  if (settled) {
    flushCompaction(undefined);
    if (header !== undefined && header.title === undefined) header.title = "(no user message)";
    writeHeader(true);
  }
  if (header?.written === true) rows.push(...queue.drain({ settled }));
  return {
    rows,
    notes,
    waiting: queue.size + (pendingCompaction === undefined ? 0 : 1),
    ...(parentSessionId === undefined ? {} : { parentSessionId }),
  };

  function contentLine({
    uuid,
    type,
    value,
    at,
    createdAt,
  }: {
    uuid: string;
    type: "user" | "assistant" | "attachment";
    value: Json;
    at: { file: string; line: number };
    createdAt: string | undefined;
  }): void {
    const message = value["message"] as Json | undefined;
    const content = message?.["content"];
    if (type === "user" && value["isCompactSummary"] === true) {
      // A summary whose boundary line is not among the lines read may meet it in another file.
      const alone = pendingCompaction === undefined;
      if (alone) pendingCompaction = { id: uuid, createdAt, ...at };
      flushCompaction(textOf(content), { untilSettled: alone });
      return;
    }
    flushCompaction(undefined);
    const time = createdAt === undefined ? {} : { createdAt };
    const sidechain = value["isSidechain"] === true ? { sidechain: true } : {};

    if (type === "attachment") {
      const attachment = value["attachment"] as Json | undefined;
      const text = attachment === undefined ? undefined : fileAttachmentText(attachment);
      if (text !== undefined) {
        const row: SourceRow = {
          id: uuid,
          role: "user",
          parts: [{ type: "text", text }],
          synthetic: true,
          uiVisible: true,
          metadata: { ...sidechain, attachment: "file" },
          ...time,
        };
        queue.push(row, at);
      } else if (typeof attachment?.["type"] === "string" && HOOK_ATTACHMENTS.has(attachment["type"])) {
        // Hook output (ctxwin's own guidance among it) is what a hook told the CLI, not conversation (ADR 0079).
        const lineType = `attachment:${attachment["type"]}`;
        queue.push(metadataRow({ id: uuid, createdAt, source: "claude-code", lineType, value }), at);
      } else if (typeof attachment?.["type"] !== "string" || !LISTING_ATTACHMENTS.has(attachment["type"])) {
        keepRaw(
          uuid,
          value,
          `attachment${typeof attachment?.["type"] === "string" ? `:${attachment["type"]}` : ""}`,
          at,
          createdAt,
        );
      }
      return;
    }
    if (typeof content !== "string" && !Array.isArray(content)) {
      notes.push({ kind: "malformed", ...at, message: `a '${type}' line needs message.content` });
      return;
    }
    if (type === "assistant") header!.replied = true;
    const command = type === "user" ? commandLineOf(content) : undefined;
    const built = command === undefined ? partsOf(content, queue, { childSession: childSessionOf(value) }) : undefined;
    if (built !== undefined && built.parts.length === 0) {
      // A result paired with its call adds no row (it went into the call's row); blocks of unknown types are kept raw.
      if (built.paired > 0) return;
      if (built.unknownBlocks)
        keepRaw(uuid, value, `${type}:${unknownBlockTypes(content as unknown[])}`, at, createdAt);
      else notes.push({ kind: "malformed", ...at, message: "no content block ctxwin can read" });
      return;
    }
    const parts: RowPart[] =
      command === undefined
        ? built!.parts
        : [
            {
              type: "text",
              text: command.kind === "command" ? `${command.name} ${command.args}`.trim() : command.text,
            },
          ];
    const row: SourceRow = { id: uuid, role: type, parts, ...time };
    const metadata: Record<string, unknown> = { ...sidechain };
    if (command?.kind === "command") metadata["command"] = command.name;
    if (command?.kind === "output") {
      Object.assign(row, { synthetic: true, uiVisible: true });
      metadata["commandOutput"] = true;
    }
    if (type === "user" && value["isMeta"] === true) Object.assign(row, { synthetic: true, uiVisible: false });
    if (type === "assistant") describeReply({ row, value, message, metadata, messagesWithUsage });
    if (Object.keys(metadata).length > 0) row.metadata = metadata;

    const isPrompt = type === "user" && value["isMeta"] !== true && command === undefined && built!.paired === 0;
    // The user's next prompt means a call still without a result will never get one (a sub-agent's
    // prompt, on a sidechain, comes while its Task call runs).
    if (isPrompt && sidechain.sidechain !== true) queue.abandonOpenCalls();
    queue.push(row, at, built?.waiting ?? [], { untilSettled: (built?.orphans ?? 0) > 0 });
    if (header!.title === undefined && isPrompt) {
      const text = parts.find((part) => part.type === "text") as { text: string } | undefined;
      if (text !== undefined) header!.title = titleOf(text.text);
    }
  }
}

/** The child session a line's tool result started (Claude Code names the sub-agent in `toolUseResult.agentId`). */
function childSessionOf(value: Json): string | undefined {
  const result = value["toolUseResult"] as Json | undefined;
  const agentId = typeof result === "object" && result !== null ? result["agentId"] : undefined;
  const sessionId = value["sessionId"];
  return typeof agentId === "string" && agentId !== "" && typeof sessionId === "string" && sessionId !== ""
    ? `claude-code:${sessionId}/agent-${agentId}`
    : undefined;
}

function unknownBlockTypes(content: unknown[]): string {
  const types = content
    .map((block) => (block as Json | null)?.["type"])
    .filter((type): type is string => typeof type === "string");
  return [...new Set(types)].join(",");
}

/** Marks a reply Claude Code wrote itself, and gives the first row of each API message its usage. */
function describeReply({
  row,
  value,
  message,
  metadata,
  messagesWithUsage,
}: {
  row: SourceRow;
  value: Json;
  message: Json | undefined;
  metadata: Record<string, unknown>;
  messagesWithUsage: Set<string>;
}): void {
  const synthetic = syntheticReplyOf(value, message);
  if (synthetic === "api-error") {
    Object.assign(row, { synthetic: true, uiVisible: true });
    metadata["apiError"] = true;
    return;
  }
  if (synthetic === "notice") {
    Object.assign(row, { synthetic: true, uiVisible: false });
    return;
  }
  const messageId = typeof message?.["id"] === "string" ? message["id"] : undefined;
  if (messageId === undefined || messagesWithUsage.has(messageId)) return;
  const usage = stepUsageOf(message);
  if (usage === undefined) return;
  messagesWithUsage.add(messageId);
  Object.assign(metadata, usage);
}

function headerOf(sessionId: string, value: Json, at: { file: string; line: number }): HeaderState {
  const header: HeaderState = {
    sourceSessionId: typeof value["sessionId"] === "string" ? value["sessionId"] : path.basename(at.file, ".jsonl"),
    ...at,
    replied: false,
    written: false,
  };
  const createdAt = isoTime(value["timestamp"]);
  if (createdAt !== undefined) header.createdAt = createdAt;
  const child = /^claude-code:([^/]+)\/agent-([^/]+)$/.exec(sessionId);
  if (child !== null) {
    header.parentSourceSessionId = child[1]!;
    header.agentId = child[2]!;
  }
  return header;
}

/** The session's facts as its early lines state them: the first of each is kept. */
function noteFacts(header: HeaderState, value: Json): void {
  if (header.written) return;
  const text = (key: string) => (typeof value[key] === "string" && value[key] !== "" ? value[key] : undefined);
  header.project ??= text("cwd");
  header.gitBranch ??= text("gitBranch");
  header.cliVersion ??= text("version");
  const model = (value["message"] as Json | undefined)?.["model"];
  if (value["type"] === "assistant" && typeof model === "string" && model !== "" && model !== "<synthetic>")
    header.model ??= model;
}
