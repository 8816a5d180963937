/**
 * The set-up of issue 46 (ADR 0073), shared by the surface tests (library tool, MCP, web, CLI):
 * session `main` with a user row holding a secret, a `task` call as item 3 that started
 * `main/child` (whose rows repeat the secret, and whose own child `main/child/grandchild` does
 * too), then a soft clear in `main` (item 5), and a second `task` call after it (item 7) that
 * started `main/late`. Test-only.
 */
import type { RowInput } from "../../core/row.js";
import type { HistoryStore } from "../port.js";
import { reset } from "./conformance-rows.js";

export const CHILD_SECRET = "the vault combination is 31-17-42";
/** The child's first message: what a list would title it with. */
export const CHILD_TITLE = `Find where ${CHILD_SECRET} is used`;
export const LATE_WORD = "lanternfish";

const userText = (text: string): RowInput => ({ role: "user", parts: [{ type: "text", text }] });
const assistantText = (text: string): RowInput => ({ role: "assistant", parts: [{ type: "text", text }] });
const taskCall = (toolCallId: string, sessionId: string): RowInput => ({
  role: "assistant",
  parts: [
    {
      type: "tool-task",
      toolCallId,
      state: "output-available",
      input: { agent: "researcher", prompt: "look it up" },
      output: {
        status: "completed",
        agent: "researcher",
        session_id: sessionId,
        answer: "found it",
        answer_chars: 8,
        truncated: false,
      },
    } as never,
  ],
});

/**
 * @example await seedClearedChildTree(store); // main/child and main/child/grandchild are hidden
 */
export async function seedClearedChildTree(store: HistoryStore): Promise<void> {
  await store.append("main", [
    userText(`Remember: ${CHILD_SECRET}`),
    assistantText("noted"),
    taskCall("call-1", "main/child"),
    assistantText("the researcher found it"),
  ]);
  await store.append("main/child", [userText(CHILD_TITLE), assistantText(`It is used in the vault: ${CHILD_SECRET}`)], {
    parent: { sessionId: "main", itemId: "3" },
  });
  await store.append("main/child/grandchild", [userText(`Double-check ${CHILD_SECRET}`)], {
    parent: { sessionId: "main/child", itemId: "2" },
  });
  await store.append("main", [reset(), userText("a fresh start"), taskCall("call-2", "main/late")]);
  await store.append("main/late", [userText(`count the ${LATE_WORD}`), assistantText(`${LATE_WORD}: 3`)], {
    parent: { sessionId: "main", itemId: "7" },
  });
}
