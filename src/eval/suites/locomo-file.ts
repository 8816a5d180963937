/**
 * Reads a LoCoMo-format file (a JSON array of `{ sample_id, conversation, qa }`, as the LoCoMo
 * release ships it). ctxwin ships no LoCoMo data (CC BY-NC 4.0): the user passes the file.
 */
import { readFileSync } from "node:fs";
import { EvalSetupError } from "../eval-errors.js";
import { fileProblem } from "../file-problem.js";

export interface LocomoTurn {
  diaId: string;
  speaker: string;
  text: string;
}

export interface LocomoSession {
  number: number;
  dateTime?: string;
  turns: LocomoTurn[];
}

export interface LocomoQuestion {
  question: string;
  answer: string;
  evidence: string[];
  category: number;
}

export interface LocomoConversation {
  sampleId: string;
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function sessionsOf(conversation: Record<string, unknown>): LocomoSession[] {
  const numbers = Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key)?.[1])
    .filter((number): number is string => number !== undefined)
    .map(Number)
    .sort((left, right) => left - right);
  return numbers.map((number) => {
    const turns = conversation[`session_${number}`];
    const dateTime = conversation[`session_${number}_date_time`];
    return {
      number,
      ...(typeof dateTime === "string" ? { dateTime } : {}),
      turns: (Array.isArray(turns) ? turns : []).filter(isRecord).map((turn) => ({
        diaId: String(turn["dia_id"]),
        speaker: String(turn["speaker"]),
        text: String(turn["text"] ?? ""),
      })),
    };
  });
}

function questionsOf(qa: unknown): LocomoQuestion[] {
  if (!Array.isArray(qa)) return [];
  return qa.filter(isRecord).flatMap((entry) => {
    // Adversarial questions (category 5) have no gold answer, only an `adversarial_answer`.
    if (entry["answer"] === undefined || typeof entry["question"] !== "string") return [];
    const evidence = Array.isArray(entry["evidence"])
      ? entry["evidence"].flatMap((id) => String(id).split(/[;,\s]+/)).filter((id) => /^D\d+:\d+$/.test(id))
      : [];
    return [
      { question: entry["question"], answer: String(entry["answer"]), evidence, category: Number(entry["category"]) },
    ];
  });
}

/**
 * @example const conversations = readLocomoFile("locomo10.json");
 */
export function readLocomoFile(file: string): LocomoConversation[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const why = fileProblem(error, "no such file");
    throw new EvalSetupError(`cannot read the recall-qa data ${file}: ${why}.`, { cause: error });
  }
  const conversations = (Array.isArray(parsed) ? parsed : [])
    .filter(isRecord)
    .filter((entry) => isRecord(entry["conversation"]))
    .map((entry) => ({
      sampleId: String(entry["sample_id"]),
      sessions: sessionsOf(entry["conversation"] as Record<string, unknown>),
      questions: questionsOf(entry["qa"]),
    }))
    .filter((conversation) => conversation.sessions.length > 0 && conversation.questions.length > 0);
  if (conversations.length === 0)
    throw new EvalSetupError(
      `${file} holds no LoCoMo conversations: expected a JSON array of { sample_id, conversation: { session_1: [...] }, qa: [...] }.`,
    );
  return conversations;
}
