/** The memory tool's input schema, apart from the tool: the MCP server lists it before it loads the tool. */
import { z } from "zod";
import { integerInput } from "../../core/integer-input.js";
import { MEMORY_COMMANDS } from "./results.js";

/** The name under which the tool is usually registered. */
export const MEMORY_TOOL_NAME = "memory";

/**
 * Input of the memory tool: Anthropic's field names, plus `overwrite` for `create`. The line
 * numbers also take a canonical decimal string such as "5" (ADR 0054); the JSON Schema still
 * says `number`.
 *
 * @example
 * memoryInputSchema.parse({ command: "view", path: "/memories" })
 */
export const memoryInputSchema = z.object({
  command: z.enum(MEMORY_COMMANDS).describe("view | create | str_replace | insert | delete | rename"),
  path: z
    .string()
    .nullish()
    .describe("Path under /memories, e.g. /memories/project/notes.md (all commands except rename)."),
  view_range: z
    .array(integerInput(z.number()))
    .nullish()
    .describe("view: [start, end] 1-based lines of a file; end -1 means the end of the file."),
  file_text: z.string().nullish().describe("create: the whole content of the file."),
  overwrite: z
    .boolean()
    .nullish()
    .describe("create: true to replace an existing file; otherwise creating an existing file fails."),
  old_str: z.string().nullish().describe("str_replace: exact text that appears exactly once in the file."),
  new_str: z.string().nullish().describe("str_replace: the replacement text (empty string to delete)."),
  insert_line: integerInput(z.number()).nullish().describe("insert: line after which to insert; 0 inserts at the top."),
  insert_text: z.string().nullish().describe("insert: the text to insert."),
  old_path: z.string().nullish().describe("rename: existing path."),
  new_path: z.string().nullish().describe("rename: new path; must not exist yet."),
});

export type MemoryToolInput = z.infer<typeof memoryInputSchema>;
