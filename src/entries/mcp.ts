/**
 * `ctxwin/mcp`: the store-wide session_history of `ctxwin mcp` (every session of a store), and the
 * MCP server that serves it. Loads the MCP SDK.
 */
export { createCtxwinMcpServer, type CtxwinMcpServerOptions } from "../cli/mcp/mcp-server.js";
export {
  STORE_HISTORY_DESCRIPTION,
  createStoreHistory,
  type StoreHistory,
} from "../tools/session-catalog/store-history.js";
export { listSessions, searchSessions, type CatalogFilter } from "../tools/session-catalog/catalog-api.js";
