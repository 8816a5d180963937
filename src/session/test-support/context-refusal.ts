/**
 * A provider's "too long" refusal in the middle of a conversation, for the tests that drive a session through a real
 * provider package: the script around the refusal, and the check that the session rolled over once and retried.
 */
import { expect } from "vitest";
import type { AgentSession } from "../create-agent-session.js";

/**
 * The script of a context-exceeded test: a first answer, then `refusal` (the provider's "too long" answer to the
 * next request), then the answer after the rollover. {@link expectRolloverOnRefusal} sends over it.
 *
 * @example const { session } = await anthropicSession(refusedAfterFirstAnswer({ status: 400, error: refusal }));
 */
export function refusedAfterFirstAnswer<Refusal>(refusal: Refusal): Array<Refusal | { text: string }> {
  return [{ text: "First answer." }, refusal, { text: "After the rollover." }];
}

/**
 * Sends two questions over a {@link refusedAfterFirstAnswer} script and checks the refusal was taken as
 * context-exceeded: one emergency rollover, then one retry that completes.
 */
export async function expectRolloverOnRefusal(session: AgentSession): Promise<void> {
  await session.send("First question.");
  const result = await session.send("Second question.");
  expect(result).toMatchObject({ status: "completed", text: "After the rollover." });
  expect(result.rollovers).toHaveLength(1);
}
