/** The README names every benchmark under bench/ that `npm run bench -- <name>` runs, and no other. */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

it("the README's benchmark list is the list of bench/*.bench.ts", () => {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const listed = /`npm run bench -- ([a-z|-]+)`/.exec(readme)?.[1]?.split("|") ?? [];
  const present = readdirSync(path.join(root, "bench"))
    .filter((file) => file.endsWith(".bench.ts"))
    .map((file) => file.slice(0, -".bench.ts".length));
  expect(listed.sort()).toEqual(present.sort());
});
