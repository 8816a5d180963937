/**
 * The check every migration test ends with: the file is at this build's store format, and whole.
 */
import Database from "better-sqlite3";
import { expect } from "vitest";
import { STORE_FORMAT_VERSION } from "../schema.js";

/**
 * Expects `file` at this build's store format with an `integrity_check` of "ok", read through a
 * read-only connection.
 *
 * @example await store.close(); expectCurrentFormatWhole(file);
 */
export function expectCurrentFormatWhole(file: string): void {
  const check = new Database(file, { readonly: true });
  try {
    expect(check.pragma("user_version", { simple: true })).toBe(STORE_FORMAT_VERSION);
    expect(check.pragma("integrity_check", { simple: true })).toBe("ok");
  } finally {
    check.close();
  }
}
