/**
 * Suite `needle`: a few project facts planted at the start of a long coding session, asked for
 * at its end, after the generated source files between them have filled the window about three
 * times. Everything is generated from the seed, so every strategy gets the same session.
 * Scored 1 when the answer contains the planted value (case and punctuation ignored), else 0.
 */
import type { EvalAsk, EvalItem, SuiteOptions } from "../eval-types.js";
import { createSeededRandom, type SeededRandom } from "../../core/seeded-random.js";
import { ANSWER_INSTRUCTION, FEED_PREFIX, QUESTION_PREFIX, estimateFeedAndAsks } from "./session-text.js";

const SYSTEM =
  "You are a coding assistant working through a long review session. Keep track of what the user tells you.";
const WORDS = [
  "amber",
  "basalt",
  "cobalt",
  "delta",
  "ember",
  "falcon",
  "garnet",
  "harbor",
  "indigo",
  "juniper",
  "kestrel",
  "lumen",
  "marble",
  "nimbus",
  "onyx",
  "pylon",
  "quartz",
  "raven",
  "sierra",
  "tundra",
  "umber",
  "vortex",
  "willow",
  "zephyr",
];
const NAMES = [
  "Adaeze Okafor",
  "Bjorn Lindqvist",
  "Chiara Benedetti",
  "Dmitri Volkov",
  "Esperanza Ruiz",
  "Farhan Siddiqui",
  "Greta Halvorsen",
  "Hiroshi Tanaka",
];

interface Fact {
  statement: string;
  question: string;
  value: string;
}

const pick = <T>(items: readonly T[], random: SeededRandom): T => items[random.integer(0, items.length - 1)]!;

function facts(random: SeededRandom): Fact[] {
  const port = String(random.integer(20_000, 29_999));
  const flag = `${pick(WORDS, random)}-${pick(WORDS, random)}-${random.integer(10, 99)}`;
  const person = pick(NAMES, random);
  const bucket = `${pick(WORDS, random)}-backups-${random.integer(100, 999)}`;
  const limit = String(random.integer(2, 9) * 120);
  return [
    {
      statement: `The staging database listens on port ${port}.`,
      question: "Which port does the staging database listen on?",
      value: port,
    },
    {
      statement: `The feature flag that gates the new billing page is named ${flag}.`,
      question: "What is the name of the feature flag that gates the new billing page?",
      value: flag,
    },
    {
      statement: `The on-call engineer for the payments service this week is ${person}.`,
      question: "Who is the on-call engineer for the payments service this week?",
      value: person,
    },
    {
      statement: `Nightly backups go to the storage bucket ${bucket}.`,
      question: "Which storage bucket do the nightly backups go to?",
      value: bucket,
    },
    {
      statement: `The partner API allows ${limit} requests per minute.`,
      question: "How many requests per minute does the partner API allow?",
      value: limit,
    },
  ];
}

/** One generated TypeScript file of about `chars` characters. */
function sourceFile(random: SeededRandom, chars: number): string {
  const module = `${pick(WORDS, random)}-${pick(WORDS, random)}`;
  const lines = [`// src/${module}/index.ts`];
  for (let index = 0; lines.join("\n").length < chars; index += 1) {
    const name = `${pick(WORDS, random)}${pick(WORDS, random).replace(/^./, (letter) => letter.toUpperCase())}${index}`;
    lines.push(
      `export function ${name}(input: readonly number[], scale = ${random.integer(2, 9)}): number {`,
      `  const kept = input.filter((value) => value % ${random.integer(2, 7)} !== 0);`,
      `  return kept.reduce((sum, value) => sum + value * scale, ${random.integer(0, 50)});`,
      "}",
    );
  }
  return `Here is src/${module}/index.ts for review:\n${lines.join("\n")}`;
}

const normalized = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

function askOf(fact: Fact): EvalAsk {
  return {
    text: `${QUESTION_PREFIX} ${fact.question} ${ANSWER_INSTRUCTION}`,
    score: (answer) => ({ score: normalized(answer).includes(normalized(fact.value)) ? 1 : 0, expected: fact.value }),
  };
}

/**
 * @example const items = needleItems({ contextLimit: 16_000, limit: 5, seed: 33 });
 */
export function needleItems({ contextLimit, limit, seed }: SuiteOptions): EvalItem[] {
  return Array.from({ length: limit }, (_, index) => {
    const random = createSeededRandom(seed * 7_919 + index);
    const planted = facts(random).slice(0, 3 + (index % 3));
    const messageChars = Math.round(contextLimit * 0.1 * 3.2);
    const feed = [
      `${FEED_PREFIX} Project notes from the team lead, keep them in mind: ${planted.map((fact) => fact.statement).join(" ")}`,
    ];
    const files = Math.ceil((3 * contextLimit * 3.2) / messageChars);
    for (let file = 0; file < files; file += 1) feed.push(`${FEED_PREFIX} ${sourceFile(random, messageChars)}`);
    const asks = planted.map(askOf);
    return {
      suite: "needle" as const,
      id: `needle-${index + 1}`,
      system: SYSTEM,
      feed,
      asks,
      estimate: estimateFeedAndAsks({ feed, asks, contextLimit }),
    };
  });
}
