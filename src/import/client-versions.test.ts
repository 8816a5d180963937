/**
 * Issue 35, items 3 and 4: what today's Claude Code (2.1.197) and Codex (0.171.0) write. Fixtures
 * of the project's own in those versions' shapes (src/import/fixtures/<cli>-<version>/), and, when
 * $CTXWIN_TEST_DATA/transcripts holds them, the transcripts the real programs wrote: every line type is recognised
 * (content kept, bookkeeping skipped on purpose, nothing counted as unknown that is known), and
 * lines the programs wrote themselves are marked for what they are.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../store/memory/memory-store.js";
import type { StoredRow } from "../store/port.js";
import { importFiles } from "./import-files.js";
import { scratchStores } from "./test-support/scratch-stores.js";
import { allRows, importSettled } from "./test-support/session-snapshot.js";
import { testData } from "../../test/test-data.js";

const { temporaryDirectory } = scratchStores("ctxwin-client-versions-");
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const shared = testData("transcripts", "the client-version test of the real programs' transcripts");

const metadataOf = (row: StoredRow) => (row.metadata ?? {}) as Record<string, unknown>;
const textOf = (row: StoredRow) => row.parts.map((part) => (part as { text?: string }).text ?? "").join("\n");

describe("Claude Code 2.1.197", () => {
  it("keeps attached files, commands and synthetic replies for what they are, and skips bookkeeping on purpose", async () => {
    const { store, report } = await importSettled("claude-code", [path.join(fixtures, "claude-code-2.1.197")]);
    // Only the attachment of a kind the importer has never seen is unknown.
    expect(report).toMatchObject({ unknownLines: 1, malformedCount: 0, rowsWaiting: 0 });
    const rows = await allRows(store, "claude-code:3b9f6e2a-8c41-4d7e-a5f0-1e2d3c4b5a69");
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(rows[0]?.meta).toMatchObject({ title: "The ledger export job is called NIGHTJAR-12; remember it." });
    expect(byId.has("a2") || byId.has("a3")).toBe(false);
    expect(byId.get("a12")).toMatchObject({
      role: "user",
      parts: [{ type: "text", text: "/compact keep the schedule" }],
      metadata: { command: "/compact" },
    });
    expect(byId.get("a12")?.synthetic).toBeUndefined();
    expect(byId.get("a13")).toMatchObject({ synthetic: true, uiVisible: true, metadata: { commandOutput: true } });
    expect(byId.get("a14")).toMatchObject({ synthetic: true, metadata: { attachment: "file" } });
    expect(textOf(byId.get("a14")!)).toContain("queue: ledger-nightly");
    expect(byId.get("a16")).toMatchObject({ synthetic: true, uiVisible: false });
    expect(byId.get("a18")).toMatchObject({ synthetic: true, uiVisible: true, metadata: { apiError: true } });
    expect(byId.get("a9")?.boundary?.kind).toBe("compaction");
    // The usage of each API message is the step metadata of its first row.
    expect(metadataOf(byId.get("a4")!)["ctxwinStep"]).toMatchObject({
      usage: { inputTokens: 9205, outputTokens: 14, cacheReadTokens: 8000, cacheWriteTokens: 1200 },
      model: "anthropic:claude-opus-4-8",
    });
    expect(metadataOf(byId.get("a16")!)["ctxwinStep"]).toBeUndefined();
    // An attached file is searchable; the word of a command is not a title.
    expect(
      (await store.search(rows[0]!.sessionId, { query: "ledger-nightly", mode: "literal" })).hits.map(
        (hit) => hit.row.id,
      ),
    ).toEqual(["a14", "a6"]);
  });
});

describe("Codex 0.171.0", () => {
  it("makes the compaction's own reply the boundary's summary, and skips usage and world-state lines on purpose", async () => {
    const { store, report } = await importSettled("codex", [path.join(fixtures, "codex-0.171.0")]);
    expect(report).toMatchObject({ unknownLines: 0, malformedCount: 0, rowsWaiting: 0 });
    const rows = await allRows(store, "codex:01b2c3d4-e5f6-7a8b-9c0d-1e2f3a4b5c6d");
    const boundary = rows.find((row) => row.boundary?.kind === "compaction");
    expect(textOf(boundary!)).toMatch(
      /compacted\]\nThe user set the invoice queue PETREL-QUEUE-4 and read VAT 0.21 from rates.txt.$/,
    );
    expect(
      rows.filter((row) => row.role === "assistant" && textOf(row).startsWith("The user set the invoice queue")),
    ).toEqual([]);
    expect(rows.filter((row) => row.role === "assistant").map(textOf)).toEqual([
      "Noted PETREL-QUEUE-4.",
      "",
      "VAT is 0.21.",
      "Noted SANDPIPER-9.",
    ]);
  });

  it("holds back a last reply whose next line is not written yet: it may be a compaction's", async () => {
    const [rollout] = readdirSync(path.join(fixtures, "codex-0.171.0"));
    const lines = readFileSync(path.join(fixtures, "codex-0.171.0", rollout!), "utf8")
      .trimEnd()
      .split("\n");
    const reply = lines.findIndex((line) => line.includes('"id": "m7"'));
    const file = path.join(temporaryDirectory(), rollout!);
    writeFileSync(file, `${lines.slice(0, reply + 1).join("\n")}\n`);
    const store = createMemoryStore();
    const sessionId = "codex:01b2c3d4-e5f6-7a8b-9c0d-1e2f3a4b5c6d";
    expect((await importFiles({ store, format: "codex", paths: [file] })).rowsWaiting).toBe(1);
    expect(
      (await allRows(store, sessionId)).some((row) => textOf(row).includes("The user set the invoice queue")),
    ).toBe(false);

    writeFileSync(file, `${lines.join("\n")}\n`);
    expect((await importFiles({ store, format: "codex", paths: [file] })).rowsWaiting).toBe(0);
    const rows = await allRows(store, sessionId);
    expect(
      rows.filter((row) => textOf(row).includes("The user set the invoice queue")).map((row) => row.boundary?.kind),
    ).toEqual(["compaction"]);
  });
});

describe.skipIf(shared === undefined)(
  "transcripts written by the real programs ($CTXWIN_TEST_DATA/transcripts)",
  () => {
    it.each([
      ["claude-code", "claude-code-2.1.197", ["PELICAN-77", "KESTREL-3141"]],
      ["codex", "codex-0.171.0", ["ORCA-QUEUE-9", "HERON-2718", "LYNX-PAGER", "OSPREY-55"]],
    ] as const)(
      "%s: every line recognised, a compaction boundary, every fact findable",
      async (format, folder, facts) => {
        const { store, report } = await importSettled(format, [path.join(shared ?? "", folder)]);
        expect(report).toMatchObject({ unknownLines: 0, malformedCount: 0, rowsWaiting: 0, sessionsUpdated: 1 });
        const [session] = await store.sessions();
        const rows = await allRows(store, session!.sessionId);
        expect(rows.filter((row) => row.boundary?.kind === "compaction")).toHaveLength(1);
        for (const fact of facts)
          expect(
            (await store.search(session!.sessionId, { query: fact, mode: "literal" })).hits.length,
            fact,
          ).toBeGreaterThan(0);
        if (format === "claude-code") {
          expect(rows.find((row) => textOf(row) === "/compact")?.metadata).toMatchObject({ command: "/compact" });
          expect(rows.find((row) => textOf(row) === "No response requested.")).toMatchObject({
            synthetic: true,
            uiVisible: false,
          });
        }
      },
    );
  },
);
