/**
 * The flags of an agent's tools and of its calls to the provider, written once for the commands
 * that run one (`chat`, `serve`): `.option(...WORKSPACE_FLAG)`.
 */

export const WORKSPACE_FLAG = [
  "--workspace <folder>",
  "folder the agent's file tools see; default: the current directory",
] as const;

export const ALLOW_WRITE_FLAG = [
  "--allow-write",
  "also give the agent write_file and edit_file (inside the workspace only)",
] as const;

export const MAX_RETRIES_FLAG = [
  "--max-retries <n>",
  "retries of a failed model call, with backoff, before the turn fails (default 2; 0 reports an unreachable server at once)",
] as const;

export const PROVIDER_STORE_FLAG = [
  "--provider-store",
  "let the provider keep requests and responses on its servers (OpenAI Responses store: true); default: every request is self-contained",
] as const;

export const PROMPT_CACHE_FLAG = [
  "--prompt-cache <mode>",
  "provider prompt-cache hints: on (default; Anthropic breakpoints, OpenAI prompt_cache_key), 1h (Anthropic's 1-hour cache) or off",
] as const;

export const CONTEXT_LIMIT_FLAG = [
  "--context-limit <tokens>",
  "the model's context window, needed when the catalog does not know the model (e.g. 32768 or 32k)",
] as const;

export const EMBEDDING_BASE_URL_FLAG = [
  "--embedding-base-url <url>",
  "an OpenAI-compatible server that embeds (Ollama, LM Studio, vLLM)",
] as const;
