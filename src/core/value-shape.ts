/**
 * The shape of a value, checked without recursion before anything serializes it:
 * `JSON.stringify`, rendering and token counting recurse once per level, so a tool input nested a
 * few thousand levels deep (one line of JSON brackets) overflows the stack in each of them; and a
 * value that holds the same array many times over can take exponential time to write out.
 * `append` refuses such rows with a typed error (ADR 0048).
 */

/** Why a value cannot be stored as it is. */
export interface ShapeProblem {
  /** `too-deep`: more levels than allowed; `contains-itself`: a cycle; `too-many`: more arrays and objects than allowed. */
  kind: "too-deep" | "contains-itself" | "too-many";
  /** Dotted path of the outermost field that holds it, e.g. `parts.0` ('' for the value itself). */
  path: string;
}

interface Visit {
  value: object;
  depth: number;
  parent: Visit | undefined;
  path: string;
}

/** Levels of a path named in a problem: `parts.0` says which part without a path of 500 keys. */
const NAMED_LEVELS = 2;

/**
 * The first shape problem of `value`: arrays and objects nested more than `maxDepth` levels (the
 * value itself is level 1), a value that contains itself, or more than `maxContainers` arrays and
 * objects in all (a repeated one counted each time, as JSON writes it); `undefined` when none.
 *
 * @example valueShapeProblem({ a: [[1]] }, { maxDepth: 2, maxContainers: 100 }) // { kind: "too-deep", path: "a" }
 */
export function valueShapeProblem(
  value: unknown,
  { maxDepth, maxContainers }: { maxDepth: number; maxContainers: number },
): ShapeProblem | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const pending: Visit[] = [{ value, depth: 1, parent: undefined, path: "" }];
  let containers = 0;
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    if ((containers += 1) > maxContainers) return { kind: "too-many", path: "" };
    if (visit.depth > maxDepth)
      return { kind: containsItself(visit) ? "contains-itself" : "too-deep", path: visit.path };
    const record = visit.value as Record<string, unknown>;
    const keys = Array.isArray(record) ? record.keys() : Object.keys(record);
    for (const key of keys) {
      const child = record[key];
      if (typeof child !== "object" || child === null) continue;
      const path = visit.depth > NAMED_LEVELS ? visit.path : visit.path === "" ? String(key) : `${visit.path}.${key}`;
      pending.push({ value: child, depth: visit.depth + 1, parent: visit, path });
    }
  }
  return undefined;
}

function containsItself(visit: Visit): boolean {
  for (let ancestor = visit.parent; ancestor !== undefined; ancestor = ancestor.parent)
    if (ancestor.value === visit.value) return true;
  return false;
}
