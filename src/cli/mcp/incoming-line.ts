/**
 * What `ctxwin mcp` does with one line from its client: a valid message goes on to the MCP SDK;
 * anything else is refused with the JSON-RPC error the line deserves (parse error, invalid
 * request, invalid params), with the request's id when it can be read, `null` otherwise, and a
 * one-line message. The SDK alone would drop such lines unanswered, or answer a bad `tools/call`
 * with an internal error whose message is a validation dump.
 */
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { jsonNestsDeeperThan } from "../../core/json-nesting.js";
import { MAX_ROW_NESTING } from "../../core/row.js";
import { createTopLevelIdScanner } from "./top-level-id.js";

export type IncomingLine =
  | { kind: "message"; message: JSONRPCMessage }
  /** Answer with this error. */
  | { kind: "refused"; id: RequestId | null; code: number; message: string }
  /** Nothing to answer (a blank line, or a broken notification or response); `note` says why, for people. */
  | { kind: "ignored"; note: string | undefined };

/** The requests this server answers, with the SDK's schema of their params. */
interface ParamsSchema {
  safeParse: (value: unknown) => { success: boolean; error?: { issues: Issue[] } };
}

const REQUEST_SCHEMAS = new Map<string, ParamsSchema>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
  ["tools/call", CallToolRequestSchema],
]);

interface Issue {
  path: PropertyKey[];
  message: string;
}

/** One issue as one line: `params.arguments: expected object, received string`. */
function describeIssues(issues: readonly Issue[]): string {
  const [first] = issues;
  if (first === undefined) return "the message does not match the MCP schema";
  const where = first.path.length === 0 ? "" : `${first.path.map(String).join(".")}: `;
  const what = first.message
    .replace(/^Invalid input: /, "")
    .replace(/\brecord\b/, "object")
    .replace(/, received undefined$/, " (missing)")
    .replace(/\s+/g, " ");
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : "";
  return `${where}${what}${more}`;
}

const isRequestId = (value: unknown): value is RequestId => typeof value === "string" || Number.isSafeInteger(value);

const refused = (id: RequestId | null, code: number, message: string): IncomingLine => ({
  kind: "refused",
  id,
  code,
  message,
});

/** A JSON object that is not a valid JSON-RPC message: what is wrong with it, and whether to answer. */
function refuseInvalid(value: Record<string, unknown>): IncomingLine {
  const method = value["method"];
  const isResponse = method === undefined && ("result" in value || "error" in value);
  const isNotification = typeof method === "string" && !("id" in value);
  if (isResponse || isNotification) {
    // JSON-RPC answers neither a notification nor a response, even a broken one.
    const issues = JSONRPCMessageSchema.safeParse(value).error?.issues ?? [];
    return {
      kind: "ignored",
      note: `ignored an invalid ${isResponse ? "response" : "notification"}: ${describeIssues(issues)}`,
    };
  }
  const id = isRequestId(value["id"]) ? value["id"] : null;
  if (value["jsonrpc"] !== "2.0")
    return refused(id, ErrorCode.InvalidRequest, 'Invalid Request: "jsonrpc" must be "2.0"');
  if (id === null) return refused(id, ErrorCode.InvalidRequest, 'Invalid Request: "id" must be a string or an integer');
  if (typeof method !== "string")
    return refused(id, ErrorCode.InvalidRequest, 'Invalid Request: "method" must be a string');
  const issues = JSONRPCRequestSchema.safeParse(value).error?.issues ?? [];
  if (issues.length > 0 && issues.every((issue) => issue.path[0] === "params")) {
    return refused(id, ErrorCode.InvalidParams, `Invalid params for ${method}: ${describeIssues(issues)}`);
  }
  return refused(id, ErrorCode.InvalidRequest, `Invalid Request: ${describeIssues(issues)}`);
}

/**
 * @example
 * readIncomingLine("not json"); // { kind: "refused", id: null, code: -32700, message: "Parse error: ..." }
 */
export function readIncomingLine(line: string): IncomingLine {
  if (line.trim() === "") return { kind: "ignored", note: undefined };
  // Checked on the text: nothing walks a value nested deeper (a walk would overflow the stack).
  if (jsonNestsDeeperThan(line, MAX_ROW_NESTING)) {
    const scanner = createTopLevelIdScanner();
    scanner.feed(Buffer.from(line, "utf8"));
    const deep =
      `Invalid Request: the message nests arrays and objects more than ${MAX_ROW_NESTING} levels deep; ` +
      `the limit is ${MAX_ROW_NESTING}, as for stored rows (tool arguments included)`;
    return refused(scanner.id() ?? null, ErrorCode.InvalidRequest, deep);
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return refused(
      null,
      ErrorCode.ParseError,
      "Parse error: the line is not valid JSON; send one JSON-RPC message per line",
    );
  }
  if (Array.isArray(value)) {
    const batches = "Invalid Request: JSON-RPC batches (arrays) are not supported by MCP; send one message per line";
    return refused(null, ErrorCode.InvalidRequest, batches);
  }
  if (typeof value !== "object" || value === null) {
    return refused(null, ErrorCode.InvalidRequest, "Invalid Request: a message must be a JSON object");
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) return refuseInvalid(value as Record<string, unknown>);
  const message = parsed.data;
  if (isJSONRPCRequest(message)) {
    const issues = REQUEST_SCHEMAS.get(message.method)?.safeParse(message).error?.issues ?? [];
    if (issues.length > 0) {
      return refused(
        message.id,
        ErrorCode.InvalidParams,
        `Invalid params for ${message.method}: ${describeIssues(issues)}`,
      );
    }
  }
  return { kind: "message", message };
}
