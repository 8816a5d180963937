import fs from "node:fs";
import path from "node:path";
import { asSchema, type ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { workspaceInputSchemas } from "./input-schemas.js";
import { MAX_READ_FILE_BYTES } from "./limits.js";
import { callToolWithPermissions, UNPRIVILEGED_SKIP_REASON } from "./test-support/permission-call.js";
import { callTool, makeWorkspace } from "./test-support/workspace-fixture.js";
import { WORKSPACE_READ_TOOL_NAMES, WORKSPACE_WRITE_TOOL_NAMES, workspaceTools } from "./workspace-tools.js";

describe("workspace tool input", () => {
  it("shows the model the strict schemas: typed fields, described, optional fields nullable", async () => {
    const { root } = makeWorkspace();
    const tools: ToolSet = workspaceTools({ root, allowWrite: true, limits: { maxSearchMatches: 30 } });
    const schemas = workspaceInputSchemas({ maxSearchMatches: 30 });
    for (const name of [...WORKSPACE_READ_TOOL_NAMES, ...WORKSPACE_WRITE_TOOL_NAMES]) {
      const advertised = (await asSchema(tools[name]!.inputSchema).jsonSchema) as {
        properties: Record<string, { description?: string }>;
        required?: string[];
      };
      const strict: z.ZodType = schemas[name];
      expect(advertised, name).toEqual(await asSchema(strict).jsonSchema);
      for (const [field, property] of Object.entries(advertised.properties))
        expect(property.description, `${name}.${field}`).toBeTruthy();
      expect(tools[name]!.description, name).toBeTruthy();
    }
    const search = (await asSchema(tools["search_text"]!.inputSchema).jsonSchema) as {
      properties: Record<string, { anyOf?: unknown[] }>;
      required: string[];
    };
    expect(search.required).toEqual(["query"]);
    expect(search.properties["limit"]!.anyOf).toContainEqual({ type: "integer", minimum: 1, maximum: 30 });
    expect(search.properties["limit"]!.anyOf).toContainEqual({ type: "null" });
  });

  it("lets every value through the SDK and answers wrong types with an error result, never an exception", async () => {
    const { root } = makeWorkspace({ "a.txt": "a" });
    const tools = workspaceTools({ root, allowWrite: true });
    const inputs: unknown[] = [
      null,
      [],
      "a.txt",
      42,
      { path: { nested: true } },
      { path: ["a"] },
      { path: "a.txt", offset: 1.5 },
      { recursive: "yes" },
      { query: 7 },
      { path: "a.txt", content: 5 },
    ];
    for (const name of [...WORKSPACE_READ_TOOL_NAMES, ...WORKSPACE_WRITE_TOOL_NAMES]) {
      for (const input of inputs) {
        const result = await callTool(tools, name, input);
        expect(typeof result).toBe("string");
        expect(result.length).toBeLessThan(600);
      }
    }
    expect(await callTool(tools, "list_files", { recursive: "yes" })).toBe(
      'Error: Invalid input: recursive must be true or false; got "yes".',
    );
    expect(await callTool(tools, "write_file", { path: "a.txt", content: "x".repeat(100) + 5 })).toMatch(
      /^Replaced a\.txt/,
    );
    expect(await callTool(tools, "write_file", { path: "a.txt" })).toBe(
      "Error: Invalid input: content must be a string (the whole new file); it is missing.",
    );
    expect(await callTool(tools, "read_file", { path: "a.txt", unknown_field: 1 })).toBe(
      "File: a.txt · lines 1–1 of 1\n" + "x".repeat(100) + "5",
    );
  });

  it("reads a canonical decimal string as an integer (MCP Inspector sends every argument as text), refuses other text", async () => {
    const { root } = makeWorkspace({ "a.txt": "one hit\ntwo hit\nthree hit\n" });
    const tools = workspaceTools({ root, limits: { maxSearchMatches: 10 } });
    expect(await callTool(tools, "read_file", { path: "a.txt", offset: "2", limit: "1" })).toMatch(
      /^File: a\.txt · lines 2–2 of 3\ntwo hit/,
    );
    expect((await callTool(tools, "search_text", { query: "hit", limit: "1" })).split("\n")[0]).toBe(
      "a.txt:1: one hit",
    );
    for (const text of ["1.0", "1e0", "", " 1", "+1", "01", "-1", "0"]) {
      expect(await callTool(tools, "read_file", { path: "a.txt", limit: text })).toBe(
        `Error: Invalid input: limit must be an integer ≥ 1; got ${JSON.stringify(text)}.`,
      );
    }
    expect(await callTool(tools, "search_text", { query: "hit", limit: "11" })).toBe(
      'Error: Invalid input: limit must be an integer from 1 to 10; got "11".',
    );
    const schema = (await asSchema(tools["read_file"]!.inputSchema).jsonSchema) as {
      properties: Record<string, { anyOf?: unknown[] }>;
    };
    expect(schema.properties["offset"]!.anyOf).toEqual([
      { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
      { type: "null" },
    ]);
  });

  it("refuses files too large to read without reading them, and reads a large file's middle", async () => {
    const { root } = makeWorkspace();
    fs.closeSync(fs.openSync(path.join(root, "huge.log"), "w"));
    fs.truncateSync(path.join(root, "huge.log"), MAX_READ_FILE_BYTES + 1024 * 1024);
    const lines = Array.from({ length: 200_000 }, (_, index) => `line ${index + 1}`);
    fs.writeFileSync(path.join(root, "large.log"), `${lines.join("\n")}\n`);
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "read_file", { path: "huge.log" })).toBe(
      "Error: huge.log is 51.0 MB, over the 50.0 MB limit; it is not read. Use search_text with this path to find lines in it.",
    );
    expect(await callTool(tools, "read_file", { path: "large.log", offset: 150_000, limit: 2 })).toBe(
      "File: large.log · lines 150000–150001 of 200000\nline 150000\nline 150001",
    );
  });

  // Permissions do not stop root: as root (CI) the calls run in a child process as `nobody`.
  it.skipIf(UNPRIVILEGED_SKIP_REASON !== undefined)(
    `answers an unreadable file with an error result${UNPRIVILEGED_SKIP_REASON === undefined ? "" : ` (skipped: ${UNPRIVILEGED_SKIP_REASON})`}`,
    async () => {
      const { base, root } = makeWorkspace({ "locked.txt": "secret" });
      fs.chmodSync(path.join(root, "locked.txt"), 0o000);
      const call = (name: string, input: unknown) => callToolWithPermissions({ base, root, name, input });
      expect(await call("read_file", { path: "locked.txt" })).toBe(
        "Error: permission denied (locked.txt); this file or folder cannot be used.",
      );
      expect(await call("search_text", { query: "secret" })).toBe(
        'No matches for "secret" in . (0 file(s) searched; skipped 1 unreadable).',
      );
    },
  );
});
