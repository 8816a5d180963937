/**
 * The one atomic writer (ADR 0091): fsync of the file and of its folder, one mode rule, and the
 * version checks its callers rely on.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { TEMPORARY_FILE_PREFIX, versionOf, writeFileAtomic } from "./atomic-write.js";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-atomic-write-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

let counter = 0;
function scratch(): string {
  const folder = path.join(root, `case-${(counter += 1)}`);
  fs.mkdirSync(folder);
  return folder;
}
const modeOf = (file: string) => fs.statSync(file).mode & 0o7777;
const leftovers = (folder: string) => fs.readdirSync(folder).filter((name) => name.startsWith(TEMPORARY_FILE_PREFIX));

describe("writeFileAtomic", () => {
  it("flushes the file and then its folder before it says written", () => {
    const folder = scratch();
    const file = path.join(folder, "a.txt");
    const fsync = vi.spyOn(fs, "fsyncSync");
    expect(writeFileAtomic({ file, content: "one" })).toBe("written");
    expect(fs.readFileSync(file, "utf8")).toBe("one");
    expect(fsync).toHaveBeenCalledTimes(2);
    expect(leftovers(folder)).toEqual([]);
  });

  it("keeps an existing file's permission bits but not setuid, setgid or sticky; a new file gets the mode asked, whatever the umask", () => {
    const folder = scratch();
    const kept = path.join(folder, "kept.sh");
    fs.writeFileSync(kept, "old");
    fs.chmodSync(kept, 0o6750);
    writeFileAtomic({ file: kept, content: "new" });
    expect(modeOf(kept)).toBe(0o750);
    const previous = process.umask(0o077);
    try {
      writeFileAtomic({ file: path.join(folder, "new.json"), content: "{}" });
      writeFileAtomic({ file: path.join(folder, "secret.json"), content: "{}", mode: 0o600 });
    } finally {
      process.umask(previous);
    }
    expect(modeOf(path.join(folder, "new.json"))).toBe(0o644);
    expect(modeOf(path.join(folder, "secret.json"))).toBe(0o600);
  });

  it("replaces only the version that was read, creates only what is absent, and leaves no temporary file", () => {
    const folder = scratch();
    const file = path.join(folder, "notes.md");
    fs.writeFileSync(file, "first");
    const read = versionOf(fs.statSync(file));
    expect(
      writeFileAtomic({
        file,
        content: "mine",
        expected: read,
        beforeCommit: () => fs.writeFileSync(file, "theirs, longer"),
      }),
    ).toBe("changed");
    expect(fs.readFileSync(file, "utf8")).toBe("theirs, longer");
    expect(
      writeFileAtomic({
        file,
        content: "mine",
        expected: versionOf(fs.statSync(file)),
        beforeCommit: () => fs.rmSync(file),
      }),
    ).toBe("deleted");
    expect(writeFileAtomic({ file, content: "created", expected: "absent" })).toBe("written");
    expect(writeFileAtomic({ file, content: "again", expected: "absent" })).toBe("exists");
    expect(fs.readFileSync(file, "utf8")).toBe("created");
    expect(leftovers(folder)).toEqual([]);
  });
});
