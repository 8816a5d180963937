/**
 * The strict input schemas of the workspace tools (what the model sees, as JSON Schema, and what
 * `execute` validates) and, per field, what it must be, phrased for the error the model reads.
 * Optional fields are nullish: strict-mode providers send `null` for fields they leave out.
 * Integer fields also take a canonical decimal string such as "5" (ADR 0054).
 */
import { z } from "zod";
import { integerInput } from "../../core/integer-input.js";
import { MAX_PATH_CHARS, MAX_QUERY_CHARS } from "./limits.js";

const pathField = z.string().max(MAX_PATH_CHARS);

/**
 * The input schemas for one set of limits (the search `limit` maximum depends on them).
 *
 * @example
 * workspaceInputSchemas({ maxSearchMatches: 50 }).read_file.parse({ path: "README.md", offset: 1 })
 */
export function workspaceInputSchemas({ maxSearchMatches }: { maxSearchMatches: number }) {
  return {
    read_file: z.object({
      path: pathField.describe('File to read, relative to the workspace root, e.g. "src/index.ts".'),
      offset: integerInput(z.number().int().min(1))
        .nullish()
        .describe("1-based line to start at (default 1). Use the offset a truncated result gives to continue."),
      limit: integerInput(z.number().int().min(1))
        .nullish()
        .describe("Most lines to return (default: as many as fit in the result)."),
    }),
    list_files: z.object({
      path: pathField.nullish().describe('Folder to list, relative to the workspace root (default ".", the root).'),
      recursive: z
        .boolean()
        .nullish()
        .describe(
          "true (default): every file below the folder; false: only its direct entries, sub-folders shown as name/.",
        ),
    }),
    search_text: z.object({
      query: z
        .string()
        .min(1)
        .max(MAX_QUERY_CHARS)
        .describe("Text to find: literal (no regular expressions), case-insensitive, within one line."),
      path: pathField
        .nullish()
        .describe('Folder or file to search, relative to the workspace root (default ".", everything).'),
      limit: integerInput(z.number().int().min(1).max(maxSearchMatches))
        .nullish()
        .describe(`Most matching lines to return (default and maximum ${maxSearchMatches}).`),
    }),
    write_file: z.object({
      path: pathField.describe(
        "File to create or replace, relative to the workspace root; missing folders are created.",
      ),
      content: z.string().describe("The whole new content of the file."),
    }),
    edit_file: z.object({
      path: pathField.describe("File to edit, relative to the workspace root."),
      old_text: z
        .string()
        .min(1)
        .describe("Exact text to replace (whitespace and line breaks matter); it must occur exactly once in the file."),
      new_text: z.string().describe("Replacement text (empty string to delete old_text)."),
    }),
  };
}

export type WorkspaceInputSchemas = ReturnType<typeof workspaceInputSchemas>;

/**
 * What each field must be, for the error result naming a wrong field.
 *
 * @example
 * workspaceFieldExpectations({ maxSearchMatches: 50 }).offset // "an integer ≥ 1 (a 1-based line number)"
 */
export function workspaceFieldExpectations({ maxSearchMatches }: { maxSearchMatches: number }): Record<string, string> {
  return {
    path: `a path string relative to the workspace root (at most ${MAX_PATH_CHARS} characters), e.g. "src/index.ts"`,
    offset: "an integer ≥ 1 (a 1-based line number)",
    limit: "an integer ≥ 1",
    recursive: "true or false",
    query: `a non-empty string of at most ${MAX_QUERY_CHARS} characters`,
    content: "a string (the whole new file)",
    old_text: "a non-empty string copied exactly from the file",
    new_text: "a string (empty to delete old_text)",
    search_limit: `an integer from 1 to ${maxSearchMatches}`,
  };
}
