/**
 * `ctxwin setup` writes through the one atomic writer (ADR 0091): the first backup keeps the
 * settings file's mode (a private file's backup stays private) and is never replaced.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSettingsFile, writeSettingsFile } from "./settings-file.js";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-settings-file-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("writeSettingsFile", () => {
  it("writes the first backup with the file's own mode, keeps it on later changes, and leaves no temporary file", () => {
    const file = path.join(root, "settings.json");
    fs.writeFileSync(file, '{"user":true}\n');
    fs.chmodSync(file, 0o600);
    const first = readSettingsFile(file);
    writeSettingsFile({ file, text: '{"user":true,"ctxwin":1}\n', mode: first.mode, backup: first.text });
    const second = readSettingsFile(file);
    writeSettingsFile({ file, text: '{"user":true,"ctxwin":2}\n', mode: second.mode, backup: second.text });
    expect(fs.readFileSync(`${file}.ctxwin-backup`, "utf8")).toBe('{"user":true}\n');
    expect(fs.statSync(`${file}.ctxwin-backup`).mode & 0o777).toBe(0o600);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8")).toBe('{"user":true,"ctxwin":2}\n');
    expect(fs.readdirSync(root).sort()).toEqual(["settings.json", "settings.json.ctxwin-backup"]);
  });
});
