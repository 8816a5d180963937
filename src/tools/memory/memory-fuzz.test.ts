/**
 * Fuzz test over hostile paths: whatever the model sends, nothing outside the memory root is read,
 * listed or written. A sentinel directory next to the root (reachable through symbolic links planted
 * inside the root) must stay byte-for-byte unchanged, its secret must never appear in a result, no
 * listing may show an entry whose folder lies outside the root, and nothing new may appear beside
 * the root.
 */
import fc from "fast-check";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isInside } from "./host-paths.js";
import { SENTINEL_SECRET, createMemoryFixture, type MemoryFixture } from "./test-support/memory-fixture.js";

function plantLinks(fixture: MemoryFixture): void {
  for (const scope of ["project", "workspaces/s1"]) {
    const directory = path.join(fixture.root, scope);
    fs.mkdirSync(path.join(directory, "sub"), { recursive: true });
    fs.writeFileSync(path.join(directory, "a.md"), "alpha\nbeta\n");
    fs.symlinkSync(fixture.sentinel, path.join(directory, "link-dir"));
    fs.symlinkSync(path.join(fixture.sentinel, "secret.txt"), path.join(directory, "link-file.md"));
    fs.symlinkSync(path.join(fixture.sentinel, "made-through-link.md"), path.join(directory, "dangling.md"));
    fs.symlinkSync("../../sentinel", path.join(directory, "sub", "relative-link"));
  }
}

/** Placeholders replaced by the fixture's real host paths when a command runs. */
const SENTINEL = "<SENTINEL>";
const ROOT = "<ROOT>";

const segment = fc.oneof(
  fc.constantFrom(
    "..",
    ".",
    "",
    "...",
    "link-dir",
    "link-file.md",
    "dangling.md",
    "relative-link",
    "sub",
    "secret.txt",
    "nested",
    "deep.md",
    "sentinel",
    "memory",
    "memories",
    "project",
    "workspace",
    "workspaces",
    "global",
    "s1",
    "a.md",
    "%2e%2e",
    "%2f",
    "..%2f",
    "~",
    "\u0000",
    "\\",
    "..\\..",
    "C:",
    "\uff0e\uff0e",
    " .. ",
    "..\u200b",
    ".ctxwin.lock",
    "hot-index.json",
    "a\nb",
  ),
  fc.string({ maxLength: 12 }),
);
const separator = fc.constantFrom("/", "/", "/", "//", "\\", "/./", "/../");
const scopeRoot = fc.constantFrom("/memories/project", "/memories/workspace");
const link = fc.constantFrom("link-dir", "link-file.md", "dangling.md", "sub/relative-link");
const beyondLink = fc.constantFrom(
  "",
  "/",
  "/secret.txt",
  "/nested",
  "/nested/deep.md",
  "/new.md",
  "/nested/new.md",
  "/..",
  "/../memory/project/a.md",
);

const hostilePath = fc.oneof(
  // Straight at the planted links, and through them.
  {
    weight: 5,
    arbitrary: fc.tuple(scopeRoot, link, beyondLink).map(([scope, name, tail]) => `${scope}/${name}${tail}`),
  },
  // Random mixtures of traversal, separators and names.
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          "/memories",
          "/memories/project",
          "/memories/workspace",
          "/memories/global",
          "",
          "/",
          "memories",
          "C:",
          "\\\\?\\",
          "~/",
          SENTINEL,
          ROOT,
        ),
        fc.array(fc.tuple(separator, segment), { maxLength: 6 }),
      )
      .map(([start, parts]) => start + parts.map(([sep, name]) => sep + name).join("")),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `${SENTINEL}/secret.txt`,
      `${ROOT}/../sentinel/secret.txt`,
      `${ROOT}/project/link-dir/secret.txt`,
    ),
  },
);

const text = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("pwned\n", "alpha", "\u0000", ""));
const command = fc.oneof(
  fc.record({
    command: fc.constant("view"),
    path: hostilePath,
    view_range: fc.option(fc.tuple(fc.integer({ min: -2, max: 5 }), fc.integer({ min: -2, max: 5 }))),
  }),
  fc.record({ command: fc.constant("create"), path: hostilePath, file_text: text, overwrite: fc.option(fc.boolean()) }),
  fc.record({
    command: fc.constant("str_replace"),
    path: hostilePath,
    old_str: fc.constantFrom(SENTINEL_SECRET, "alpha", "beta", ""),
    new_str: text,
  }),
  fc.record({
    command: fc.constant("insert"),
    path: hostilePath,
    insert_line: fc.integer({ min: -1, max: 3 }),
    insert_text: text,
  }),
  fc.record({ command: fc.constant("delete"), path: hostilePath }),
  fc.record({ command: fc.constant("rename"), old_path: hostilePath, new_path: hostilePath }),
);

function withHostPaths(input: Record<string, unknown>, fixture: MemoryFixture): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    resolved[key] =
      typeof value === "string" ? value.replaceAll(SENTINEL, fixture.sentinel).replaceAll(ROOT, fixture.root) : value;
  }
  return resolved;
}

/** Every path a listing shows must sit in a folder whose real location is inside the root. */
function expectListingInside(text: string, fixture: MemoryFixture): void {
  const realRoot = fs.realpathSync(fixture.root);
  for (const line of text.split("\n").slice(1)) {
    const shown = line.split("  (")[0]?.replace(/\/$/, "") ?? "";
    if (!shown.startsWith("/memories/")) continue;
    const [scope, ...segments] = shown.slice("/memories/".length).split("/");
    const scopeDirectory =
      scope === "workspace" ? path.join(fixture.root, "workspaces", "s1") : path.join(fixture.root, scope ?? "");
    const parent = path.dirname(path.join(scopeDirectory, ...segments));
    const realParent = fs.existsSync(parent) ? fs.realpathSync(parent) : parent;
    expect(isInside(realParent, realRoot), `${shown} is listed from ${realParent}`).toBe(true);
  }
}

describe("memory tool under hostile input", () => {
  it("never reads, lists or writes anything outside the root", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 6 }), async (inputs) => {
        const fixture = createMemoryFixture();
        try {
          plantLinks(fixture);
          const sentinelBefore = fixture.sentinelSnapshot();
          const besideRoot = fs.readdirSync(fixture.base).sort();
          const executor = fixture.executor();
          for (const input of inputs) {
            const result = await executor.execute(withHostPaths(input, fixture));
            expect(JSON.stringify(result)).not.toContain(SENTINEL_SECRET);
            if (result.status === "ok" && result.command === "view" && result.text.startsWith("Directory "))
              expectListingInside(result.text, fixture);
            expect(fixture.sentinelSnapshot()).toEqual(sentinelBefore);
          }
          expect(fs.readdirSync(fixture.base).sort()).toEqual(besideRoot);
        } finally {
          fixture.cleanup();
        }
      }),
      { numRuns: 150 },
    );
  });
});
