import { describe, expect, it } from "vitest";
import { bodyMayMatchFilter } from "./row-codec.js";

describe("bodyMayMatchFilter", () => {
  const body = (row: object) => JSON.stringify({ v: 1, id: "r", createdAt: "2026-01-01T00:00:00.000Z", ...row });
  const call = body({
    role: "assistant",
    parts: [
      {
        type: "dynamic-tool",
        toolName: "Read_File",
        toolCallId: "c",
        state: "input-available",
        input: { role: "user" },
      },
    ],
  });
  const text = body({ role: "user", parts: [{ type: "text", text: 'mentions read_file and "role":"assistant"' }] });

  it("keeps exactly the rows the filter keeps, for rows ctxwin wrote", () => {
    expect(bodyMayMatchFilter(call, { toolName: "read_file" })).toBe(true);
    expect(bodyMayMatchFilter(call, { role: "assistant", toolName: "READ_FILE" })).toBe(true);
    // The tool input says role "user" and the text names the tool: neither is the row's role or a call.
    expect(bodyMayMatchFilter(call, { role: "user" })).toBe(false);
    expect(bodyMayMatchFilter(text, { toolName: "read_file" })).toBe(false);
    expect(bodyMayMatchFilter(text, { role: "assistant" })).toBe(false);
    expect(bodyMayMatchFilter(text, { role: "user" })).toBe(true);
    expect(bodyMayMatchFilter(call, { toolName: "grep" })).toBe(false);
  });

  it("judges what the text shows and leaves the rest to the full decode", () => {
    expect(bodyMayMatchFilter("{not json", { role: "user" })).toBe(false);
    expect(bodyMayMatchFilter('{"role" : "user", "parts": 7}', { role: "user" })).toBe(true);
    expect(bodyMayMatchFilter("[]", {})).toBe(true);
    expect(bodyMayMatchFilter(body({ role: "user", parts: [] }), { toolName: 'say "hi"' })).toBe(false);
  });
});
