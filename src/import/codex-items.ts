/**
 * One Codex `response_item` as a row, or as the output of an earlier call: messages (user,
 * assistant, and the injected environment and instruction messages, kept hidden), reasoning
 * summaries, function, custom and local shell calls, and their outputs.
 */
import type { RowPart } from "../core/row.js";
import type { Json, SourceRow } from "./source-format.js";
import { cutInput, cutText, mediaPart, toolPart } from "./transcript-rows.js";

/** Messages Codex injects itself (environment, instructions): kept hidden. */
const INJECTED_PREFIXES = ["<environment_context>", "<user_instructions>", "# AGENTS.md instructions"];

export type ItemResult =
  { row: SourceRow; callId?: string } | { callId: string; output: string; isError: boolean } | "unknown" | "malformed";

export function itemRow(payload: Json, id: string, createdAt: string | undefined): ItemResult {
  const time = createdAt === undefined ? {} : { createdAt };
  switch (payload["type"]) {
    case "message": {
      const role = payload["role"];
      if (!Array.isArray(payload["content"]) || typeof role !== "string") return "malformed";
      const parts = (payload["content"] as Json[]).flatMap((block): RowPart[] => {
        if (
          (block?.["type"] === "input_text" || block?.["type"] === "output_text") &&
          typeof block["text"] === "string"
        )
          return [{ type: "text", text: cutText(block["text"]) }];
        if (block?.["type"] === "input_image")
          return [
            mediaPart({
              mediaType: mediaTypeOf(block["image_url"]) ?? "image/*",
              url: typeof block["image_url"] === "string" ? block["image_url"] : undefined,
            }),
          ];
        return [];
      });
      if (parts.length === 0) return "unknown";
      const text = parts
        .map((part) => (part as { text?: string }).text ?? "")
        .join("\n")
        .trimStart();
      const injected =
        role !== "assistant" && (role !== "user" || INJECTED_PREFIXES.some((prefix) => text.startsWith(prefix)));
      const rowRole = role === "assistant" ? "assistant" : role === "user" ? "user" : "system";
      return { row: { id, role: rowRole, parts, ...time, ...(injected ? { synthetic: true, uiVisible: false } : {}) } };
    }
    case "reasoning": {
      const summary = Array.isArray(payload["summary"]) ? (payload["summary"] as Json[]) : [];
      const text = summary
        .map((block) => (typeof block?.["text"] === "string" ? block["text"] : ""))
        .filter((line) => line !== "")
        .join("\n\n");
      if (text === "") return "unknown";
      return { row: { id, role: "assistant", parts: [{ type: "reasoning", text: cutText(text) }], ...time } };
    }
    case "function_call":
    case "custom_tool_call":
    case "local_shell_call": {
      const callId = payload["call_id"] ?? payload["id"];
      if (typeof callId !== "string") return "malformed";
      const name = typeof payload["name"] === "string" && payload["name"] !== "" ? payload["name"] : "tool";
      // An MCP tool is named by its server's namespace too (`mcp__ctxwin` + `session_history`), as Claude Code names it.
      const namespace =
        typeof payload["namespace"] === "string" && payload["namespace"] !== "" ? `${payload["namespace"]}__` : "";
      const toolName = payload["type"] === "local_shell_call" ? "local_shell" : `${namespace}${name}`;
      const input =
        payload["type"] === "function_call"
          ? parseArguments(payload["arguments"])
          : payload["type"] === "custom_tool_call"
            ? payload["input"]
            : payload["action"];
      return {
        row: {
          id,
          role: "assistant",
          parts: [toolPart({ toolName, toolCallId: callId, input: cutInput(input ?? {}) })],
          ...time,
        },
        callId,
      };
    }
    case "function_call_output":
    case "custom_tool_call_output": {
      const callId = payload["call_id"];
      if (typeof callId !== "string") return "malformed";
      const output = payload["output"];
      if (typeof output === "string") return { callId, output, isError: false };
      if (typeof output === "object" && output !== null) {
        const content = (output as Json)["content"];
        return {
          callId,
          output: typeof content === "string" ? content : JSON.stringify(content ?? output),
          isError: (output as Json)["success"] === false,
        };
      }
      return "malformed";
    }
    default:
      return "unknown";
  }
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    // Arguments that are not JSON are kept as the model wrote them.
    return { arguments: value };
  }
}

function mediaTypeOf(url: unknown): string | undefined {
  return typeof url === "string" ? /^data:([^;,]+)/.exec(url)?.[1] : undefined;
}
