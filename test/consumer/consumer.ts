// A user's project, compiled by consumer-types.test.ts against the built package: every entry,
// the results of a ContextAgent with their `ctxwin` field, and an error class's `isInstance` narrowing.
import {
  AppendConflictError,
  createContextAgent,
  openStore,
  sessionHistoryTool,
  type ContextGenerateResult,
  type ContextStreamResult,
  type SendResult,
} from "ctxwin";
import { createDemoModel } from "ctxwin/demo";
import { embeddingStatus } from "ctxwin/embeddings";
import { importTranscripts } from "ctxwin/import";
import { createCtxwinMcpServer } from "ctxwin/mcp";
import { resolveModel } from "ctxwin/models";
import { createPostgresStore } from "ctxwin/postgres";
import { startServer } from "ctxwin/server";

const store = openStore({ path: "consumer.db" });
const agent = createContextAgent({ model: createDemoModel(), store, sessionId: "consumer" });
const generated = await agent.generate({ prompt: "Read the notes." });
const outcome: SendResult = generated.ctxwin;
const text: string = generated.text;
const whole: ContextGenerateResult = generated;
const streamed = await agent.stream({ prompt: "And the rest." });
const later: Promise<SendResult> = streamed.ctxwin;
const asStream: ContextStreamResult = streamed;
const tools = { session_history: sessionHistoryTool({ store, sessionId: "consumer" }) };

export const used = [
  outcome.rollovers.length,
  text,
  whole,
  (await later).status,
  asStream,
  tools,
  embeddingStatus,
  importTranscripts,
];
const failure: unknown = new Error("not ours");
export const conflictSeq: number | undefined = AppendConflictError.isInstance(failure)
  ? failure.actualLastSeq
  : undefined;
export const entries = [createCtxwinMcpServer, resolveModel, createPostgresStore, startServer];
