/**
 * What makes each request of a session self-contained (ctxwin owns the transcript,
 * docs/adr/0027). Only the OpenAI Responses API keeps state on the provider's servers: unless the
 * session opts in (`providerStore`), its requests say `store: false`, which makes `@ai-sdk/openai`
 * send earlier output as content (never `item_reference` ids) and ask for reasoning as
 * `reasoning.encrypted_content`, which the stored rows carry into later requests. The item ids of
 * earlier output are left out too (the way OpenAI's own Codex client replays without storage), so
 * no request names an item the server may not have. Other providers get nothing here.
 */
import type { LanguageModel, ModelMessage } from "ai";

type ProviderOptions = Record<string, Record<string, boolean>>;

/**
 * The provider-options name `@ai-sdk/openai` reads for a Responses model, or `undefined` for any other model.
 *
 * @example responsesOptionsName(openai("gpt-4.1")) // "openai"
 */
export function responsesOptionsName(model: LanguageModel): "openai" | "azure" | undefined {
  if (typeof model === "string" || !model.provider.endsWith(".responses")) return undefined;
  return model.provider.includes("azure") ? "azure" : "openai";
}

/**
 * @example
 * requestProviderOptions({ model: openai("gpt-4.1"), providerStore: false }) // { openai: { store: false } }
 * requestProviderOptions({ model: anthropic("claude-sonnet-4-5"), providerStore: false }) // undefined
 */
export function requestProviderOptions({
  model,
  providerStore,
}: {
  model: LanguageModel;
  providerStore: boolean;
}): ProviderOptions | undefined {
  const name = responsesOptionsName(model);
  return name === undefined ? undefined : { [name]: { store: providerStore } };
}

/**
 * The `providerOptions` field of a `streamText` call for `model`, to spread into it.
 *
 * @example streamText({ model, messages, ...providerOptionsOf(context, model) })
 */
export function providerOptionsOf(
  { providerStore }: { providerStore: boolean },
  model: LanguageModel,
): { providerOptions?: ProviderOptions } {
  const providerOptions = requestProviderOptions({ model, providerStore });
  return providerOptions === undefined ? {} : { providerOptions };
}

/**
 * The messages as a self-contained request to `model` sends them: for a Responses model without
 * server storage, every part loses the `itemId` the provider gave it (kept in the stored rows).
 * Anything else is returned unchanged.
 *
 * @example streamText({ model, messages: selfContainedMessages({ messages, model, providerStore: false }) })
 */
export function selfContainedMessages({
  messages,
  model,
  providerStore,
}: {
  messages: ModelMessage[];
  model: LanguageModel;
  providerStore: boolean;
}): ModelMessage[] {
  const name = responsesOptionsName(model);
  if (name === undefined || providerStore) return messages;
  return messages.map((message) => {
    if (typeof message.content === "string") return message;
    const content = message.content.map((part) => ("providerOptions" in part ? withoutItemId(part, name) : part));
    return { ...message, content } as ModelMessage;
  });
}

function withoutItemId<Part extends { providerOptions?: Record<string, Record<string, unknown>> | undefined }>(
  part: Part,
  name: string,
): Part {
  const own = part.providerOptions?.[name];
  if (own === undefined || !("itemId" in own)) return part;
  const { itemId: _itemId, ...rest } = own;
  return { ...part, providerOptions: { ...part.providerOptions, [name]: rest } };
}
