/**
 * Ranked search recall (issue 16), run with `npm run bench -- recall`, on the LoCoMo dev set in
 * $CTXWIN_TEST_DATA/locomo-dev (5 long conversations, 999 questions; CC BY-NC 4.0, never shipped):
 * each dialogue turn is one row of one session per conversation, each question is one ranked
 * search of its session (limit 10), and a question is a hit when one of its evidence turns is
 * among the results. Reported: recall@10, recall@1 and MRR@10 (the reciprocal rank of the first
 * evidence turn, 0 beyond 10), for ctxwin's ranked search on both backends and, as the baseline
 * measured in the same run, SQLite FTS5 with its `porter` tokenizer over the same turns, queried
 * with the question's words less the stop words, ordered by FTS5's BM25.
 *
 * Each conversation gets a store file of its own, so that word weights come from its own turns.
 * `--store <postgres url>` ranks on that PostgreSQL server too (a schema of its own per
 * conversation, dropped afterwards); `--store postgres` starts a throwaway cluster for it
 * (test/postgres-cluster.ts). Every backend's recall@10 must be within 1 point of SQLite's.
 * The benchmark prints a note and skips when the data set is absent (it is not part of the package).
 *
 * `--embedding-model <provider:id>` (and `--embedding-base-url <url>` for an OpenAI-compatible
 * server such as Ollama or LM Studio; the same flags as `ctxwin embed`) adds hybrid and semantic
 * rows (ADR 0063): each conversation's SQLite store is embedded first (a backfill), then every
 * question is searched with `mode: "hybrid"` and `"semantic"`. Without the flag those rows are
 * skipped, saying so. `--embedding-model fake:synonyms` runs the offline synonym model of the
 * tests: a smoke test of the plumbing, not a figure.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { startPostgresCluster } from "../test/postgres-cluster.js";
import type { RowInput } from "../src/core/row.js";
import { rankedQueryWords, tokenizeWords } from "../src/core/search-query.js";
import { isStopWord } from "../src/core/stop-words.js";
import { openStore } from "../src/store/open-store.js";
import type { HistoryStore } from "../src/store/port.js";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { resolveEmbeddingModel } from "../src/agent/embedding-flags.js";
import type { EmbeddingSearchMode } from "../src/store/port.js";
import { createSynonymEmbeddingModel } from "../src/store/test-support/synonym-embedding-model.js";
import { formatRatio, goal } from "./measure.js";
import { testDataPath } from "../test/test-data.js";

const dataFile = process.env["CTXWIN_BENCH_LOCOMO"] ?? testDataPath("locomo-dev/locomo-dev.json");
const SESSION = "locomo";
const TOP = 10;

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface Question {
  question: string;
  evidence?: string[];
  category?: number;
}

interface Conversation {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string };
  qa: Question[];
}

/** A question asked of one conversation, with the row indexes (0-based) of its evidence turns. */
interface Probe {
  query: string;
  evidence: Set<number>;
}

interface Scores {
  questions: number;
  recallAt10: number;
  recallAt1: number;
  mrr: number;
}

/** The turns of a conversation in order: session_1, session_2, ... each in its own order. */
function turnsOf(conversation: Conversation["conversation"]): Turn[] {
  const sessions = Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]))
    .sort((left, right) => left - right);
  return sessions.flatMap((number) => conversation[`session_${number}`] as Turn[]);
}

/** What a row says: the speaker's name and words, and the caption of a photo they shared. */
function turnText(turn: Turn): string {
  const photo = turn.blip_caption === undefined ? "" : ` [shares ${turn.blip_caption}]`;
  return `${turn.speaker}: ${turn.text}${photo}`;
}

function probesOf(conversation: Conversation, turns: readonly Turn[]): { probes: Probe[]; unresolved: number } {
  const indexById = new Map(turns.map((turn, index) => [turn.dia_id, index]));
  const probes: Probe[] = [];
  let unresolved = 0;
  for (const question of conversation.qa) {
    // Some evidence entries list several ids in one string ("D8:6; D9:17").
    const ids = (question.evidence ?? []).flatMap((entry) => entry.split(/[;,\s]+/)).filter((id) => id.length > 0);
    const evidence = new Set(
      ids.map((id) => indexById.get(id)).filter((index): index is number => index !== undefined),
    );
    if (evidence.size === 0 || rankedQueryWords(question.question).length === 0) unresolved += 1;
    else probes.push({ query: question.question, evidence });
  }
  return { probes, unresolved };
}

function score(rankings: readonly (readonly number[])[], probes: readonly Probe[]): Scores {
  let at10 = 0;
  let at1 = 0;
  let reciprocal = 0;
  rankings.forEach((ranking, index) => {
    const evidence = probes[index]?.evidence ?? new Set<number>();
    const first = ranking.slice(0, TOP).findIndex((row) => evidence.has(row));
    if (first < 0) return;
    at10 += 1;
    if (first === 0) at1 += 1;
    reciprocal += 1 / (first + 1);
  });
  const questions = Math.max(1, probes.length);
  return {
    questions: probes.length,
    recallAt10: at10 / questions,
    recallAt1: at1 / questions,
    mrr: reciprocal / questions,
  };
}

/** The PostgreSQL server named by `--store`, if any: a URL, or "postgres" for a throwaway cluster. */
function storeFlag(): string | undefined {
  const flag = process.argv.indexOf("--store");
  return flag < 0 ? undefined : process.argv[flag + 1];
}

/** A fresh schema per conversation, so that each ranks over its own turns as its SQLite file does. */
async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

function merge(parts: readonly Scores[]): Scores {
  const questions = parts.reduce((sum, part) => sum + part.questions, 0);
  const weighted = (pick: (part: Scores) => number) =>
    parts.reduce((sum, part) => sum + pick(part) * part.questions, 0) / Math.max(1, questions);
  return {
    questions,
    recallAt10: weighted((part) => part.recallAt10),
    recallAt1: weighted((part) => part.recallAt1),
    mrr: weighted((part) => part.mrr),
  };
}

async function appendTurns(
  store: HistoryStore,
  turns: readonly Turn[],
  speakerA: string,
): Promise<Map<number, number>> {
  const rows: RowInput[] = turns.map((turn) => ({
    role: turn.speaker === speakerA ? "user" : "assistant",
    parts: [{ type: "text", text: turnText(turn) }],
  }));
  const stored = await store.append(SESSION, rows);
  return new Map(stored.map((row, index) => [row.seq, index]));
}

async function rankings(
  store: HistoryStore,
  probes: readonly Probe[],
  indexBySeq: ReadonlyMap<number, number>,
  mode: "ranked" | EmbeddingSearchMode,
): Promise<number[][]> {
  const ranked: number[][] = [];
  for (const probe of probes) {
    const page = await store.search(SESSION, { query: probe.query, mode, limit: TOP });
    if (page.embeddings?.status === "unavailable")
      throw new Error(`the ${mode} search fell back to word search: ${page.embeddings.message ?? "no reason given"}`);
    ranked.push(page.hits.map((hit) => indexBySeq.get(hit.row.seq) ?? -1));
  }
  return ranked;
}

async function rankWithStore(
  store: HistoryStore,
  turns: readonly Turn[],
  probes: readonly Probe[],
  speakerA: string,
): Promise<number[][]> {
  return rankings(store, probes, await appendTurns(store, turns, speakerA), "ranked");
}

/** The value of a `--flag value` argument, if given. */
function flagValue(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at < 0 ? undefined : process.argv[at + 1];
}

/** The embedding model of `--embedding-model` (`fake:synonyms`: the offline test model), if any. */
function embeddingModelOfFlags(): { model: EmbeddingModelV4; label: string; fake: boolean } | undefined {
  const reference = flagValue("--embedding-model");
  if (reference === "fake:synonyms")
    return { model: createSynonymEmbeddingModel({ dimensions: 256 }), label: reference, fake: true };
  const model = resolveEmbeddingModel({
    embeddingModel: reference,
    embeddingBaseUrl: flagValue("--embedding-base-url"),
  });
  return model === undefined || reference === undefined ? undefined : { model, label: reference, fake: false };
}

/** Embeds one conversation in a SQLite store of its own, then ranks every question with `hybrid` and `semantic`. */
async function rankByMeaning(
  file: string,
  model: EmbeddingModelV4,
  turns: readonly Turn[],
  probes: readonly Probe[],
  speakerA: string,
): Promise<{ hybrid: number[][]; semantic: number[][]; embedSeconds: number; pendingRows: number }> {
  const store = openStore({
    path: file,
    durability: "normal",
    embeddings: { model, onWarning: (message) => console.error(`recall: ${message}`) },
  });
  try {
    const indexBySeq = await appendTurns(store, turns, speakerA);
    const started = performance.now();
    await store.embeddings?.backfill();
    const embedSeconds = (performance.now() - started) / 1000;
    const pendingRows = (await store.embeddings?.pendingRows(SESSION)) ?? 0;
    return {
      hybrid: await rankings(store, probes, indexBySeq, "hybrid"),
      semantic: await rankings(store, probes, indexBySeq, "semantic"),
      embedSeconds,
      pendingRows,
    };
  } finally {
    await store.close();
  }
}

/** The baseline: FTS5 `porter` over the same turns, the question's words less the stop words. */
function rankWithPorter(turns: readonly Turn[], probes: readonly Probe[]): number[][] {
  const db = new Database(":memory:");
  try {
    db.exec("CREATE VIRTUAL TABLE turns USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2')");
    const insert = db.prepare("INSERT INTO turns (rowid, text) VALUES (?, ?)");
    db.transaction(() => turns.forEach((turn, index) => insert.run(index + 1, turnText(turn))))();
    const search = db.prepare("SELECT rowid FROM turns WHERE turns MATCH ? ORDER BY rank LIMIT ?").pluck();
    return probes.map((probe) => {
      // The words as written (FTS5's porter tokenizer stems them itself), less the stop words.
      const words = [...new Set(tokenizeWords(probe.query))];
      const kept = words.filter((word) => !isStopWord(word));
      const match = (kept.length > 0 ? kept : words).map((word) => `"${word}"`).join(" OR ");
      return (search.all(match, TOP) as number[]).map((rowid) => rowid - 1);
    });
  } finally {
    db.close();
  }
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

function line(label: string, scores: Scores): string {
  return `| ${label} | ${percent(scores.recallAt10)} | ${percent(scores.recallAt1)} | ${scores.mrr.toFixed(3)} |`;
}

export async function run(): Promise<void> {
  if (!existsSync(dataFile)) {
    console.log(
      `skipped: the LoCoMo dev set is not at ${dataFile} (set CTXWIN_TEST_DATA, or CTXWIN_BENCH_LOCOMO to its path).`,
    );
    return;
  }
  const conversations = JSON.parse(readFileSync(dataFile, "utf8")) as Conversation[];
  const given = storeFlag();
  const cluster = given === "postgres" ? await startPostgresCluster() : undefined;
  const postgresUrl = cluster?.url ?? given;
  const scratch = mkdtempSync(path.join(os.tmpdir(), "ctxwin-recall-"));
  const embedding = embeddingModelOfFlags();
  const results = {
    sqlite: [] as Scores[],
    memory: [] as Scores[],
    postgres: [] as Scores[],
    porter: [] as Scores[],
    hybrid: [] as Scores[],
    semantic: [] as Scores[],
  };
  let embedSeconds = 0;
  let pendingAfterBackfill = 0;
  let turnCount = 0;
  let unresolvedCount = 0;
  try {
    for (const conversation of conversations) {
      const turns = turnsOf(conversation.conversation);
      const { probes, unresolved } = probesOf(conversation, turns);
      turnCount += turns.length;
      unresolvedCount += unresolved;
      const speakerA = conversation.conversation.speaker_a;
      const sqlite = openStore({ path: path.join(scratch, `${conversation.sample_id}.db`), durability: "normal" });
      const memory = openStore({ backend: "memory" });
      try {
        results.sqlite.push(score(await rankWithStore(sqlite, turns, probes, speakerA), probes));
        results.memory.push(score(await rankWithStore(memory, turns, probes, speakerA), probes));
      } finally {
        await sqlite.close();
        await memory.close();
      }
      if (postgresUrl !== undefined) {
        const schema = `ctxwin_recall_${process.pid}_${conversation.sample_id.replace(/\W/g, "_")}`.toLowerCase();
        const postgres = openStore({ url: postgresUrl, schema });
        try {
          results.postgres.push(score(await rankWithStore(postgres, turns, probes, speakerA), probes));
        } finally {
          await postgres.close();
          await dropSchema(postgresUrl, schema);
        }
      }
      results.porter.push(score(rankWithPorter(turns, probes), probes));
      if (embedding !== undefined) {
        const meaning = await rankByMeaning(
          path.join(scratch, `${conversation.sample_id}-embedded.db`),
          embedding.model,
          turns,
          probes,
          speakerA,
        );
        results.hybrid.push(score(meaning.hybrid, probes));
        results.semantic.push(score(meaning.semantic, probes));
        embedSeconds += meaning.embedSeconds;
        pendingAfterBackfill += meaning.pendingRows;
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    cluster?.stop();
  }

  const names = conversations.map((conversation) => conversation.sample_id);
  const sqlite = merge(results.sqlite);
  const rows: [string, Scores[]][] = [
    ["ctxwin ranked, SQLite", results.sqlite],
    ["ctxwin ranked, memory", results.memory],
  ];
  if (postgresUrl !== undefined) rows.push(["ctxwin ranked, PostgreSQL", results.postgres]);
  if (embedding !== undefined) {
    const suffix = embedding.fake ? " (fake synonym model: smoke test, not a figure)" : "";
    rows.push(
      [`ctxwin hybrid, SQLite, ${embedding.label}${suffix}`, results.hybrid],
      [`ctxwin semantic, SQLite, ${embedding.label}${suffix}`, results.semantic],
    );
  }
  rows.push(["baseline: FTS5 porter, stop words dropped", results.porter]);
  if (embedding === undefined) {
    console.log(
      "hybrid and semantic rows skipped: no embedding model (pass --embedding-model <provider:id>, and --embedding-base-url <url> for a local server).\n",
    );
  } else {
    console.log(
      `embedded ${turnCount} turns with ${embedding.label} in ` +
        `${embedSeconds.toFixed(1)} s${pendingAfterBackfill > 0 ? ` (${pendingAfterBackfill} row(s) still pending after the backfill)` : ""}\n`,
    );
  }
  console.log(
    `${conversations.length} conversations, ${turnCount} turns (rows), ` +
      `${sqlite.questions} questions searched (${unresolvedCount} without a resolvable evidence turn skipped)\n`,
  );
  console.log("| ranking | recall@10 | recall@1 | MRR@10 |");
  console.log("| --- | --- | --- | --- |");
  for (const [label, parts] of rows) console.log(line(label, merge(parts)));
  console.log(
    `\nrecall@10 per conversation (${names.map((name, index) => `${name}: ${results.sqlite[index]?.questions ?? 0} questions`).join(", ")})\n`,
  );
  console.log(`| ranking | ${names.join(" | ")} |`);
  console.log(`| --- |${names.map(() => " --- |").join("")}`);
  for (const [label, parts] of rows)
    console.log(`| ${label} | ${parts.map((part) => percent(part.recallAt10)).join(" | ")} |`);
  console.log("");
  const porter = merge(results.porter);
  console.log(`recall@10 vs baseline: ${formatRatio(sqlite.recallAt10 / Math.max(porter.recallAt10, Number.EPSILON))}`);
  goal("ranked recall@10 (SQLite)", sqlite.recallAt10, ">=", 0.78, percent);
  goal(
    "ranked recall@10 above the porter baseline",
    sqlite.recallAt10 - porter.recallAt10,
    ">=",
    0,
    (value) => `${(value * 100).toFixed(1)} points`,
  );
  const points = (value: number) => `${(value * 100).toFixed(1)} points`;
  goal(
    "memory recall@10 within 1 point of SQLite",
    Math.abs(merge(results.memory).recallAt10 - sqlite.recallAt10),
    "<=",
    0.01,
    points,
  );
  if (embedding !== undefined && !embedding.fake) {
    goal(
      "hybrid recall@10 not below ranked (SQLite)",
      merge(results.hybrid).recallAt10 - sqlite.recallAt10,
      ">=",
      0,
      points,
    );
  }
  if (postgresUrl !== undefined) {
    goal(
      "PostgreSQL recall@10 within 1 point of SQLite",
      Math.abs(merge(results.postgres).recallAt10 - sqlite.recallAt10),
      "<=",
      0.01,
      points,
    );
  }
}
