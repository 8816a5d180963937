import { describe, expect, it } from "vitest";
import { jsonNestsDeeperThan } from "./json-nesting.js";

describe("jsonNestsDeeperThan", () => {
  it("counts levels of arrays and objects, the outermost being level 1", () => {
    expect(jsonNestsDeeperThan('{"a":[[1]]}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":[[1]]}', 2)).toBe(true);
    expect(jsonNestsDeeperThan("[[],[],[]]", 2)).toBe(false);
    expect(jsonNestsDeeperThan("42", 0)).toBe(false);
  });

  it("ignores brackets inside strings, escaped quotes included", () => {
    expect(jsonNestsDeeperThan(JSON.stringify({ text: "[[[[{{{{", quoted: '"[[[\\"[[' }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify(["\\", [[]]]), 2)).toBe(true);
  });

  it("reads 100,000 levels without a stack overflow", () => {
    const deep = `{"providerMetadata":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(jsonNestsDeeperThan(deep, 512)).toBe(true);
    expect(jsonNestsDeeperThan(`${"[".repeat(512)}${"]".repeat(512)}`, 512)).toBe(false);
  });
});
