/**
 * The input schema handed to the MCP SDK for a tool: it renders to the same JSON Schema as the
 * tool's strict zod schema (what the client's model sees), but lets every value through, so the
 * tool's own checks answer bad input with an error result the model can act on instead of the
 * SDK's raw validation error (the same choice as the AI SDK tool, ADR 0010).
 */
import { z } from "zod";

/**
 * @example server.registerTool("session_history", { inputSchema: advertisedSchema(CatalogInputSchema) }, handler)
 */
export function advertisedSchema(strict: z.ZodObject): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(strict.shape)) {
    const { $schema: _dialect, ...json } = z.toJSONSchema(field, { io: "input", target: "draft-7" }) as Record<
      string,
      unknown
    >;
    shape[name] = z.unknown().optional().meta(json);
    if (!field.safeParse(undefined).success) required.push(name);
  }
  return z.object(shape).meta(required.length === 0 ? {} : { required });
}
