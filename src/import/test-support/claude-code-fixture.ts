/**
 * The Claude Code transcript that import, hook, setup and MCP tests feed to ctxwin
 * (`import/fixtures/claude-code-session.jsonl`), and the session id it was recorded under.
 */
import { fileURLToPath } from "node:url";

export const CLAUDE_CODE_FIXTURE = fileURLToPath(new URL("../fixtures/claude-code-session.jsonl", import.meta.url));

export const CLAUDE_CODE_SESSION_ID = "5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37";

/**
 * The hook input Claude Code sends at `SessionStart` after compacting the fixture's session, its
 * transcript at `transcript`.
 */
export const compactionHookInput = (transcript: string, cwd: string) => ({
  session_id: CLAUDE_CODE_SESSION_ID,
  transcript_path: transcript,
  cwd,
  hook_event_name: "SessionStart",
  source: "compact",
});
