import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installCommand } from "./install-command.js";

let folder: string;

beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-install-command-"));
});

afterEach(() => rmSync(folder, { recursive: true, force: true }));

function script(...parts: string[]): string {
  const file = path.join(folder, ...parts, "dist", "cli", "main.js");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "");
  return file;
}

describe("installCommand", () => {
  it("started by npx (npm's _npx cache): npx -y ctxwin", () => {
    const cached = script(".npm", "_npx", "4f1c2a", "node_modules", "ctxwin");
    expect(installCommand({ script: cached, node: "/usr/bin/node" })).toEqual(["npx", "-y", "ctxwin"]);
    // npx starts the package's bin link; the link resolves into the cache.
    const bin = path.join(folder, ".npm", "_npx", "4f1c2a", "node_modules", ".bin", "ctxwin");
    mkdirSync(path.dirname(bin), { recursive: true });
    symlinkSync(cached, bin);
    expect(installCommand({ script: bin, node: "/usr/bin/node" })).toEqual(["npx", "-y", "ctxwin"]);
  });

  it("a global or local install, an unpacked tarball, a checkout: this node and this script, links resolved", () => {
    const installed = script("lib", "node_modules", "ctxwin");
    const link = path.join(folder, "bin-ctxwin");
    symlinkSync(installed, link);
    expect(installCommand({ script: link, node: "/opt/node/bin/node" })).toEqual(["/opt/node/bin/node", installed]);
    const checkout = script("src", "ctxwin");
    expect(installCommand({ script: checkout, node: "/usr/bin/node" })).toEqual(["/usr/bin/node", checkout]);
  });
});
