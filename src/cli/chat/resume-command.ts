/**
 * The command line that continues a chat: `ctxwin chat --session <id>` with the flags that chose
 * the model, the limit and the folders, quoted for a POSIX shell.
 */
import type { ChatFlags } from "./chat-command.js";

/**
 * @example
 * resumeCommand({ sessionId: "chat-1", flags: { model: "qwen3:32b", baseUrl: "http://127.0.0.1:11434/v1", contextLimit: "32k" } })
 * // "ctxwin chat --session chat-1 --model qwen3:32b --base-url http://127.0.0.1:11434/v1 --context-limit 32k"
 */
export function resumeCommand({ sessionId, flags }: { sessionId: string; flags: ChatFlags }): string {
  const words = ["ctxwin", "chat", "--session", sessionId];
  const add = (flag: string, value: string | undefined) => {
    if (value !== undefined) words.push(flag, value);
  };
  add("--model", flags.model);
  add("--base-url", flags.baseUrl);
  add("--context-limit", flags.contextLimit);
  add("--threshold", flags.threshold);
  add("--max-retries", flags.maxRetries);
  add("--prompt-cache", flags.promptCache);
  add("--dir", flags.dir);
  add("--workspace", flags.workspace);
  if (flags.allowWrite === true) words.push("--allow-write");
  if (flags.providerStore === true) words.push("--provider-store");
  if (flags.newContextTool === true) words.push("--new-context-tool");
  return words.map(shellQuote).join(" ");
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
