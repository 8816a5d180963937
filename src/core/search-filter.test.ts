import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "./errors.js";
import {
  checkSearchFilter,
  filterTermsOf,
  filterWalkTerm,
  hasSearchFilter,
  rowMatchesFilter,
} from "./search-filter.js";

describe("rowMatchesFilter", () => {
  const call = {
    role: "assistant",
    parts: [
      { type: "text", text: "looking" },
      { type: "tool-Read_File", toolCallId: "c1" },
    ],
  };
  const dynamic = { role: "assistant", parts: [{ type: "dynamic-tool", toolName: "Bash", toolCallId: "c2" }] };
  const user = { role: "user", parts: [{ type: "text", text: "tool-read_file is not a tool part" }] };

  it("matches roles exactly and tool names of static and dynamic parts case-insensitively", () => {
    expect(rowMatchesFilter(call, { role: "assistant", toolName: "read_file" })).toBe(true);
    expect(rowMatchesFilter(dynamic, { toolName: "BASH" })).toBe(true);
    expect(rowMatchesFilter(dynamic, { toolName: "read_file" })).toBe(false);
    expect(rowMatchesFilter(user, { toolName: "read_file" })).toBe(false);
    expect(rowMatchesFilter(user, { role: "assistant" })).toBe(false);
    expect(rowMatchesFilter(user, {})).toBe(true);
    expect([hasSearchFilter({}), hasSearchFilter({ role: "user" }), hasSearchFilter({ toolName: "x" })]).toEqual([
      false,
      true,
      true,
    ]);
  });
});

describe("checkSearchFilter", () => {
  it("defaults the order by mode and trims the tool name", () => {
    expect(checkSearchFilter({ mode: "ranked" })).toEqual({ order: "relevance" });
    expect(checkSearchFilter({ mode: "literal", toolName: " grep " })).toEqual({ toolName: "grep", order: "newest" });
  });

  it("refuses what no search can honour, naming the option", () => {
    const cases: [Parameters<typeof checkSearchFilter>[0], string][] = [
      [{ mode: "ranked", role: "tool" }, "role must be one of"],
      [{ mode: "ranked", toolName: "" }, "toolName must be"],
      [{ mode: "ranked", order: "oldest" }, "order must be"],
      [{ mode: "literal", order: "relevance" }, "needs a ranked search"],
    ];
    for (const [options, message] of cases) {
      expect(() => checkSearchFilter(options)).toThrow(message);
      try {
        checkSearchFilter(options);
      } catch (error) {
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
      }
    }
  });
});

describe("filterTermsOf and filterWalkTerm", () => {
  const rows = [
    {
      role: "assistant",
      parts: [{ type: "text", text: "looking" }, { type: "tool-Read_File" }, { type: "tool-read_file" }],
    },
    { role: "assistant", parts: [{ type: "dynamic-tool", toolName: "Bash" }, { type: "dynamic-tool" }] },
    { role: "user", parts: [{ type: "text", text: "tool-read_file is not a tool part" }] },
    { role: "system", parts: [] },
  ];
  const filters = [
    { role: "user" as const },
    { role: "assistant" as const },
    { toolName: "READ_FILE" },
    { toolName: "bash" },
    { toolName: "tool" },
    { role: "user" as const, toolName: "bash" },
  ];

  it("lists the role and each called tool once, in lower case", () => {
    expect(rows.map(filterTermsOf)).toEqual([
      ["role:assistant", "tool:read_file"],
      ["role:assistant", "tool:bash", "tool:tool"],
      ["role:user"],
      ["role:system"],
    ]);
    expect([
      filterWalkTerm({}),
      filterWalkTerm({ role: "user", toolName: "Bash" }),
      filterWalkTerm({ role: "system" }),
    ]).toEqual([undefined, "tool:bash", "role:system"]);
  });

  it("every row that passes a filter holds the filter's walk term", () => {
    for (const filter of filters) {
      for (const row of rows) {
        if (rowMatchesFilter(row, filter)) expect(filterTermsOf(row)).toContain(filterWalkTerm(filter));
      }
    }
  });
});
