/**
 * A child process that calls one workspace tool and prints its text result as one JSON line, so
 * that a permission test can run the call as an unprivileged user (test/unprivileged-user.ts).
 * Started through its bundle: `node call-tool-worker.mjs '{"root":…,"name":…,"input":…}'`.
 * The call goes through the tool's input schema, then `execute`, as the AI SDK does.
 */
import { asSchema } from "ai";
import { workspaceTools } from "../workspace-tools.js";

const request = JSON.parse(process.argv[2] ?? "{}") as { root: string; name: string; input: unknown };
const selected = workspaceTools({ root: request.root })[request.name];
if (selected?.execute === undefined) throw new Error(`no tool ${request.name}`);
const validation = await asSchema(selected.inputSchema).validate!(request.input);
if (!validation.success)
  throw new Error(`the input schema of ${request.name} refused ${JSON.stringify(request.input)}`);
const result: unknown = await selected.execute(validation.value, { toolCallId: "call-1", messages: [], context: {} });
process.stdout.write(`${JSON.stringify(result)}\n`);
