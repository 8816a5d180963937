import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const script = path.resolve(import.meta.dirname, "../scripts/check-line-length.mjs");
const folder = mkdtempSync(path.join(tmpdir(), "ctxwin-line-length-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function check(...files: string[]) {
  return spawnSync(process.execPath, [script, ...files], { encoding: "utf8" });
}

describe("scripts/check-line-length.mjs (npm run format:check)", () => {
  it("passes the repository: no line of the code folders over 160 characters but the allowed ones", () => {
    const run = check();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("fails with the file and line of each line over 160 characters", () => {
    const file = path.join(folder, "long.ts");
    writeFileSync(file, `const a = "${"x".repeat(147)}";\nconst b = "${"y".repeat(148)}";\n`);
    const run = check(file);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("1 line(s) over 160 characters");
    expect(run.stderr).toContain("long.ts:2: 161 characters");
    expect(run.stderr).not.toContain("long.ts:1:");
  });

  it("counts characters, not bytes", () => {
    const file = path.join(folder, "accents.ts");
    writeFileSync(file, `// ${"é".repeat(157)}\n`);
    expect(check(file).status).toBe(0);
  });
});
