/**
 * The flags of an agent's tools and of its calls to the provider, written once for the commands
 * that run one (`chat`, `serve`): `.option(...AGENT_FLAGS.workspace)`.
 */

export const AGENT_FLAGS = {
  workspace: ["--workspace <folder>", "folder the agent's file tools see; default: the current directory"],
  allowWrite: ["--allow-write", "also give the agent write_file and edit_file (inside the workspace only)"],
  maxRetries: [
    "--max-retries <n>",
    "retries of a failed model call, with backoff, before the turn fails " +
      "(default 2; 0 reports an unreachable server at once)",
  ],
  providerStore: [
    "--provider-store",
    "let the provider keep requests and responses on its servers (OpenAI Responses store: true); " +
      "default: every request is self-contained",
  ],
  promptCache: [
    "--prompt-cache <mode>",
    "provider prompt-cache hints: on (default; Anthropic breakpoints, OpenAI prompt_cache_key), " +
      "1h (Anthropic's 1-hour cache) or off",
  ],
  contextLimit: [
    "--context-limit <tokens>",
    "the model's context window, needed when the catalog does not know the model (e.g. 32768 or 32k)",
  ],
  embeddingBaseUrl: ["--embedding-base-url <url>", "an OpenAI-compatible server that embeds (Ollama, LM Studio, vLLM)"],
} as const;
