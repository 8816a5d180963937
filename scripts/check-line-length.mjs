// Fails when a line of the code folders passes 160 characters. Prettier wraps code at 120 columns
// but leaves strings, template literals and comments as they are; those are split by hand. A line
// that cannot be split (a long regular expression) is allowed by name below, with its reason.
//
//   node scripts/check-line-length.mjs            checks the tracked files of src, web, test, bench, examples
//   node scripts/check-line-length.mjs <file>...  checks these files
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MAX_LINE_LENGTH = 160;
const FOLDERS = ["src", "web", "test", "bench", "examples"];
const CODE_FILE = /\.(ts|tsx|mts|js|mjs|css|html)$/;

/** Files that may keep some lines past the limit: how many, and why they cannot be split. */
const ALLOWED = new Map([
  ["src/cli/chat/chat-providers.test.ts", { lines: 1, why: "one regular expression over a whole retry notice" }],
  ["src/session/interrupt.test.ts", { lines: 1, why: "one regular expression over a whole carried-turn request" }],
]);

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const given = process.argv.slice(2);
const files =
  given.length > 0
    ? given.map((file) => path.relative(root, path.resolve(file)))
    : execFileSync("git", ["ls-files", ...FOLDERS], { cwd: root, encoding: "utf8" })
        .split("\n")
        .filter((file) => CODE_FILE.test(file));

const refused = [];
let allowedCount = 0;
for (const file of files) {
  const long = readFileSync(path.join(root, file), "utf8")
    .split("\n")
    .flatMap((line, index) => {
      const length = [...line].length;
      return length > MAX_LINE_LENGTH ? [`${file}:${index + 1}: ${length} characters`] : [];
    });
  const allowed = ALLOWED.get(file.split(path.sep).join("/"))?.lines ?? 0;
  if (long.length > allowed) refused.push(...long);
  else allowedCount += long.length;
}

if (refused.length > 0) {
  console.error(
    `${refused.length} line(s) over ${MAX_LINE_LENGTH} characters (split the string or comment; ` +
      `Prettier wraps the code at 120):\n${refused.join("\n")}`,
  );
  process.exit(1);
}
console.log(
  `line length: no line over ${MAX_LINE_LENGTH} characters in ${files.length} files ` +
    `(${allowedCount} allowed by name in scripts/check-line-length.mjs)`,
);
