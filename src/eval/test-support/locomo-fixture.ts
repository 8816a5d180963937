/**
 * A small LoCoMo-format conversation for tests (the real data is never shipped or read in tests):
 * sessions of chat turns with one planted fact each, and questions whose evidence is that turn.
 */
import fs from "node:fs";
import path from "node:path";

const HOBBIES = [
  "pottery",
  "sailing",
  "archery",
  "beekeeping",
  "origami",
  "fencing",
  "kayaking",
  "calligraphy",
  "falconry",
  "woodturning",
];

export interface FixtureQuestion {
  question: string;
  answer: string;
  evidence: string[];
  category: number;
}

/** The conversation as LoCoMo's JSON has it, and its questions. */
export function locomoFixture({ sessions = 30, turnsPerSession = 16, sampleId = "fixture-1" } = {}): {
  json: unknown[];
  questions: FixtureQuestion[];
} {
  const conversation: Record<string, unknown> = { speaker_a: "Ana", speaker_b: "Ben" };
  const questions: FixtureQuestion[] = [];
  for (let session = 1; session <= sessions; session += 1) {
    conversation[`session_${session}_date_time`] = `1:00 pm on ${session} May, 2023`;
    conversation[`session_${session}`] = Array.from({ length: turnsPerSession }, (_, index) => {
      const diaId = `D${session}:${index + 1}`;
      const speaker = index % 2 === 0 ? "Ana" : "Ben";
      if (index === 3) {
        const hobby = HOBBIES[(session - 1) % HOBBIES.length]!;
        questions.push({
          question: `Which hobby did Ben take up in week ${session}?`,
          answer: hobby,
          evidence: [diaId],
          category: 4,
        });
        return { speaker, dia_id: diaId, text: `In week ${session} I took up ${hobby} and I love it.` };
      }
      return {
        speaker,
        dia_id: diaId,
        text: `Turn ${index + 1} of session ${session}: the weather was fine and we talked about nothing much at all, again and again.`,
      };
    });
  }
  const qa = [
    ...questions,
    { question: "What did Ana never say?", evidence: ["D1:2"], category: 5, adversarial_answer: "nothing" },
  ];
  return { json: [{ sample_id: sampleId, conversation, qa }], questions };
}

/** Writes the fixture to `folder/locomo.json` and returns the path. */
export function writeLocomoFixture(folder: string, options?: Parameters<typeof locomoFixture>[0]): string {
  const file = path.join(folder, "locomo.json");
  fs.writeFileSync(file, JSON.stringify(locomoFixture(options).json));
  return file;
}
