/**
 * ctxwin: token-budget context windows for long-running AI agents.
 * Public entry of the library: the engine (sessions, the AI SDK agent, the budget), the tools and
 * the stores. What loads more (provider packages, the importers, the MCP SDK, the web server,
 * PostgreSQL and embeddings helpers) has its own entry (ADR 0078, docs/api.md).
 */
export { CtxwinError, InvalidArgumentError, RowValidationError, type RowIssue } from "./core/errors.js";
export {
  INTERNAL_ROW_TYPES,
  MAX_ROW_BYTES,
  MAX_ROW_NESTING,
  RowInputSchema,
  StoredRowBodySchema,
  validateRowInputs,
  type Boundary,
  type BoundaryKind,
  type InternalRowType,
  type RolloverMeta,
  type RolloverReason,
  type Row,
  type RowInput,
  type RowMeta,
  type RowPart,
  type RowRole,
} from "./core/row.js";
export { classifyBoundary, rolloverMetaOf } from "./core/boundary.js";
export { isProviderEligible, isSessionVisible, type LineageLink } from "./core/visibility.js";
export {
  itemIdFor,
  parseItemId,
  privacyFloorSeq,
  providerSlice,
  type WindowBucket,
  type WindowKind,
} from "./core/windows.js";
export { SESSION_HISTORY_TOOL_NAME, renderPart, renderRowText, type RenderOptions } from "./core/row-text.js";
export {
  InvalidQueryError,
  containsLiteral,
  rankedQueryWords,
  tokenizeWords,
  type SearchMode,
} from "./core/search-query.js";
export { MAX_SEARCH_VALUE_CHARS, renderSearchText } from "./core/search-text.js";
export type {
  ActiveWindow,
  AppendOptions,
  FloorOptions,
  AttachParentResult,
  ForkOptions,
  ForkOrigin,
  HistoryStore,
  ItemPage,
  ItemsOptions,
  SearchHit,
  SearchOptions,
  SearchPage,
  CrossSearchOptions,
  CrossSearchHit,
  CrossSearchPage,
  CrossSearchVectors,
  SearchEmbeddingsNote,
  EmbeddingSearchMode,
  EmbeddingDiagnostics,
  EmbeddingProgress,
  EmbeddingsControl,
  SessionParent,
  SessionSummary,
  SessionsOptions,
  StoreDiagnostics,
  StoreWarning,
  StoredRow,
  WindowPage,
  WindowSummary,
  WindowsOptions,
} from "./store/port.js";
export {
  AppendConflictError,
  DuplicateRolloverError,
  StoreClosedError,
  StoreConnectionLostError,
  StoreCorruptError,
  StoreFormatError,
  StoreOptionsError,
  StoreReadOnlyError,
  StoreTimeoutError,
  StoreUnavailableError,
} from "./store/errors.js";
export {
  AttachParentRefusedError,
  ForkRefusedError,
  SessionHasForksError,
  type AttachParentRefusal,
  type ForkRefusal,
} from "./store/lineage/lineage-errors.js";
export { MAX_LINEAGE_DEPTH } from "./store/lineage/attach-parent.js";
export { visibleSession, visibleSessions } from "./store/lineage/session-visibility.js";
export type { SubagentDefinition, SubagentSettings, TaskResult } from "./session/subagents/subagent-types.js";
export {
  EmbeddingMismatchError,
  EmbeddingProviderError,
  VectorIndexUnavailableError,
} from "./store/embeddings/embedding-errors.js";
export type { EmbeddingsOptions } from "./store/embeddings/embeddings-options.js";
export {
  DATABASE_URL_VARIABLE,
  DEFAULT_STORE_PATH,
  openStore,
  type MemoryOpenOptions,
  type OpenStoreOptions,
  type PostgresOpenOptions,
  type SqliteOpenOptions,
} from "./store/open-store.js";
export { createMemoryStore, type MemoryStoreOptions } from "./store/memory/memory-store.js";
export { createSqliteStore, type SqliteStoreOptions } from "./store/sqlite/sqlite-store.js";
export type * from "./core/budget/index.js";
export {
  createCalibrationState,
  parseCalibrationState,
  updateCalibration,
  countRowTokens,
  requestOutputLimit,
  contextLimitFor,
  createModelCatalog,
  lookupModel,
  preflightFreshWindow,
  preflightRequest,
  estimateRequestTokens,
  budgetBands,
  evaluateStepBudget,
  countEncodedTokens,
  countTokens,
  createUnknownModelWarner,
  cachedShare,
  usageCost,
  lookupModelPrices,
  stepSpend,
  summarizeSpend,
} from "./core/budget/index.js";
export {
  ConfigFileError,
  readConfigFile,
  type ConfigFileResult,
  type ConfigIssue,
  type CtxwinConfig,
} from "./store/config-file.js";
export { CONTEXT_NOTES_PATH, type HotMemoryLimits } from "./core/hot-memories/limits.js";
export type { AccessRecord } from "./core/hot-memories/access-score.js";
export {
  selectHotMemories,
  type HotMemoryCandidate,
  type HotMemoryEntry,
  type HotMemoryReason,
  type HotMemorySelection,
  type HotMemorySkipReason,
  type SelectHotMemoriesOptions,
} from "./core/hot-memories/select-hot-memories.js";
export { memoryModeOf, notesWarningSentence, type MemoryMode } from "./core/hot-memories/notes-guidance.js";
export {
  MEMORY_TOOL_NAME,
  memoryTool,
  type MemoryToolInput,
  type MemoryToolOptions,
} from "./tools/memory/memory-tool.js";
export {
  createMemoryExecutor,
  type MemoryExecutor,
  type MemoryExecutorOptions,
} from "./tools/memory/memory-executor.js";
export {
  formatMemoryResult,
  type MemoryCommand,
  type MemoryCommandFailure,
  type MemoryCommandResult,
  type MemoryCommandSuccess,
  type MemoryErrorCode,
} from "./tools/memory/results.js";
export type { MemoryLayout, MemoryLocation } from "./tools/memory/layout.js";
export type { MemoryScope, VirtualPath } from "./tools/memory/virtual-path.js";

export {
  renderHotMemories,
  type HotMemoryCandidates,
  type RenderHotMemoriesOptions,
  type UnreadableMemory,
} from "./tools/memory/hot-memories.js";
export { listMemoryPins, setMemoryPin } from "./tools/memory/pins.js";
export { MemoryIndexFormatError, MemoryLockTimeoutError, MemoryPathError } from "./tools/memory/errors.js";
export type { LeadInTextOptions } from "./core/rollover/lead-in-text.js";
export type { CallOutcome, CarriedInput, CarryBounds, LedgerEntry, TurnCarry } from "./core/rollover/turn-carry.js";
export type { BudgetWarningTextOptions, WarningMemoryMode } from "./core/rollover/budget-warning-text.js";
export type { RolloverBoundaryOptions, RolloverTransactionOptions } from "./core/rollover/rollover-rows.js";
export type { RejectedInputOptions } from "./core/rollover/notice-rows.js";
export {
  hasBudgetWarning,
  type PressureRow,
  type WindowPressure,
  type WindowPressureOptions,
} from "./core/rollover/window-pressure.js";
export type { CacheHintDrop, StepCacheHints, StepMetadata, StepUsage } from "./core/rollover/step-usage.js";
export type { ToolOutputViewOptions, ToolOutputViews } from "./core/rollover/tool-output-view.js";
export { createAgentSession, type AgentSession, type SessionEdit } from "./session/create-agent-session.js";
export { EditRefusedError, type EditRefusal } from "./session/lineage/edit-refused-error.js";
export { editPointOf, type EditPoint } from "./session/lineage/edit-point.js";
export { forkForEdit, forkStoredSession, type SessionForkOptions } from "./session/lineage/fork-stored-session.js";
export type { SessionEditOptions } from "./session/lineage/session-lineage.js";
export type { InputCut } from "./core/rollover/input-cut.js";
export {
  createContextAgent,
  type ContextAgent,
  type ContextAgentOptions,
} from "./session/context-agent/create-context-agent.js";
export { AgentInputError, MAX_INPUT_CHARS } from "./session/context-agent/agent-input.js";
export { SessionBusyError } from "./session/context-agent/session-busy-error.js";
export type { ContextGenerateResult, ContextStreamResult } from "./session/context-agent/agent-results.js";
export type { CtxwinDataTypes, CtxwinUIMessage, UIMessageStreamOptions } from "./session/ui-message-stream.js";
export type { LoopSettings } from "./session/loop-settings.js";
export type { CatalogFilter } from "./tools/session-catalog/catalog-api.js";
export type { StoreHistory } from "./tools/session-catalog/store-history.js";
export type {
  AgentSessionOptions,
  BudgetStrategy,
  CompactionInfo,
  ContinuityOptions,
  HotMemoriesProvider,
  RequestSpend,
  RolloverInfo,
  SendInput,
  SendOptions,
  SendResult,
  SessionBudgetOptions,
  SessionUsage,
  StepUsageSummary,
  ToolPolicy,
  WarningInfo,
} from "./session/session-types.js";
export { cacheHintedModel, type CacheTtl } from "./session/cache-hints.js";
export type { SessionEventMap, SessionEventName, SessionListener, TurnSink } from "./session/session-events.js";
export type {
  BudgetEvaluation,
  BudgetEvaluationInput,
  BudgetSettings,
  ModelLimitLookup,
  SessionBudgetPolicy,
} from "./session/budget-policy.js";
export type { CompactResult } from "./session/compaction.js";
export { isContextExceededError } from "./session/context-exceeded.js";
export {
  CompactionError,
  ContextExceededError,
  ProviderCallError,
  RequestOverCeilingError,
  SessionStoreError,
} from "./session/errors.js";
export {
  executeSessionHistory,
  sessionHistoryTool,
  type SessionHistoryToolOptions,
} from "./tools/session-history/session-history-tool.js";
export {
  newContextTool,
  type NewContextRequester,
  type NewContextResult,
} from "./tools/new-context/new-context-tool.js";
export { NEW_CONTEXT_TOOL_NAME, type NewContextCheck } from "./core/rollover/new-context.js";
export {
  SessionHistoryInputSchema,
  type SessionHistoryAction,
  type SessionHistoryInput,
} from "./tools/session-history/input-schema.js";
export type {
  ItemEntry as SessionHistoryItemEntry,
  ListItemsResult as SessionHistoryListItemsResult,
  ListWindowsResult as SessionHistoryListWindowsResult,
  ReadItemResult as SessionHistoryReadItemResult,
  SearchHitEntry as SessionHistorySearchHit,
  SearchResult as SessionHistorySearchResult,
  SessionHistoryErrorCode,
  SessionHistoryErrorResult,
  SessionHistoryResult,
  WindowEntry as SessionHistoryWindowEntry,
} from "./tools/session-history/results.js";
export type { CountLimit } from "./core/history-view/limits.js";
export {
  WORKSPACE_READ_TOOL_NAMES,
  WORKSPACE_WRITE_TOOL_NAMES,
  workspaceTools,
  type WorkspaceToolLimits,
  type WorkspaceToolsOptions,
} from "./tools/workspace/workspace-tools.js";
export { WorkspaceRootError } from "./tools/workspace/workspace-root.js";
export { DEFAULT_WORKSPACE_TOOL_LIMITS } from "./tools/workspace/limits.js";
export { createWorkspaceAgent, type WorkspaceAgentOptions } from "./agent/workspace-agent.js";
