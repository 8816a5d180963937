import { describe, expect, it } from "vitest";
import { valueShapeProblem } from "./value-shape.js";

const nested = (depth: number): unknown => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
const limits = { maxDepth: 10, maxContainers: 1_000 };

describe("valueShapeProblem", () => {
  it("accepts primitives and values up to maxDepth levels, the value itself being level 1", () => {
    for (const value of [undefined, null, 7, "text", 10n]) expect(valueShapeProblem(value, limits)).toBeUndefined();
    expect(valueShapeProblem(nested(10), limits)).toBeUndefined();
    expect(valueShapeProblem({ a: { b: nested(8) } }, limits)).toBeUndefined();
  });

  it("names the outermost two levels of the path to a value nested too deeply", () => {
    expect(valueShapeProblem(nested(11), limits)).toEqual({ kind: "too-deep", path: "0.0" });
    expect(valueShapeProblem({ parts: [{ type: "x" }, { input: nested(20) }] }, limits)).toEqual({
      kind: "too-deep",
      path: "parts.1",
    });
  });

  it("walks a value nested far deeper than the stack allows", () => {
    expect(valueShapeProblem(nested(100_000), limits)).toEqual({ kind: "too-deep", path: "0.0" });
  });

  it("tells a value that contains itself from one that is only deep", () => {
    const loop: Record<string, unknown> = { name: "loop" };
    loop["self"] = loop;
    expect(valueShapeProblem({ metadata: loop }, limits)).toEqual({ kind: "contains-itself", path: "metadata.self" });
  });

  it("counts a repeated array each time, as JSON writes it, and stops at maxContainers", () => {
    // 2^40 arrays as JSON: writing it out would never finish.
    let doubling: unknown[] = [];
    for (let level = 0; level < 40; level += 1) doubling = [doubling, doubling];
    expect(valueShapeProblem(doubling, { maxDepth: 100, maxContainers: 1_000 })).toEqual({
      kind: "too-many",
      path: "",
    });
    const shared = [1];
    expect(valueShapeProblem([shared, shared, shared], { maxDepth: 5, maxContainers: 4 })).toBeUndefined();
    expect(valueShapeProblem([shared, shared, shared, shared], { maxDepth: 5, maxContainers: 4 })).toEqual({
      kind: "too-many",
      path: "",
    });
  });
});
