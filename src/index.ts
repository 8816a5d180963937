/**
 * ctxwin: token-budget context windows for long-running AI agents.
 * Public entry of the library.
 */
export { CtxwinError, InvalidArgumentError, RowValidationError, type RowIssue } from "./core/errors.js";
export {
  BOUNDARY_KINDS,
  INTERNAL_ROW_TYPES,
  MAX_ROW_BYTES,
  MAX_ROW_NESTING,
  ROLLOVER_REASONS,
  ROW_FORMAT_VERSION,
  RolloverMetaSchema,
  RowInputSchema,
  StoredRowBodySchema,
  assertSessionId,
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
export { classifyBoundary, isExclusiveBoundary, rolloverMetaOf } from "./core/boundary.js";
export {
  hasUnknownType,
  internalTypeOf,
  isHidden,
  isHistoryVisible,
  isProviderEligible,
  isSessionVisible,
  isSubstantive,
  startedAfterFloor,
  type LineageLink,
} from "./core/visibility.js";
export {
  FIRST_WINDOW_ID,
  bucketWindows,
  itemIdFor,
  parseItemId,
  parseWindowId,
  privacyFloorSeq,
  providerSlice,
  windowIdFor,
  windowSeqFor,
  type WindowBucket,
  type WindowKind,
} from "./core/windows.js";
export {
  HISTORY_RESULT_OMITTED,
  SESSION_HISTORY_TOOL_NAME,
  TRUNCATION_MARKER,
  renderPart,
  renderRowText,
  sliceSafe,
  toolNameOf,
  truncate,
  type RenderOptions,
} from "./core/row-text.js";
export { InvalidQueryError, containsLiteral, rankedQueryWords, tokenizeWords, type SearchMode } from "./core/search-query.js";
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
export { AppendConflictError, DuplicateRolloverError, StoreClosedError, StoreConnectionLostError, StoreCorruptError, StoreFormatError, StoreOptionsError, StoreReadOnlyError, StoreTimeoutError, StoreUnavailableError } from "./store/errors.js";
export { AttachParentRefusedError, ForkRefusedError, SessionHasForksError, type AttachParentRefusal, type ForkRefusal } from "./store/lineage/lineage-errors.js";
export { MAX_LINEAGE_DEPTH } from "./store/lineage/attach-parent.js";
export { isVisibleSession, visibleSession, visibleSessions } from "./store/lineage/session-visibility.js";
export { TASK_TOOL_NAME, type SubagentDefinition, type SubagentSettings, type TaskResult } from "./session/subagents/subagent-types.js";
export { EmbeddingMismatchError, EmbeddingProviderError, VectorIndexUnavailableError } from "./store/embeddings/embedding-errors.js";
export type { EmbeddingsOptions } from "./store/embeddings/embeddings-options.js";
export { DATABASE_URL_VARIABLE, DEFAULT_STORE_PATH, openStore, type MemoryOpenOptions, type OpenStoreOptions, type PostgresOpenOptions, type SqliteOpenOptions } from "./store/open-store.js";
export { createMemoryStore, type MemoryStoreOptions } from "./store/memory/memory-store.js";
export { createSqliteStore, type SqliteStoreOptions } from "./store/sqlite/sqlite-store.js";
export * from "./core/budget/index.js";
export { CONFIG_FILE_PATH, ConfigFileError, ConfigFileSchema, MAX_CONFIG_FILE_BYTES, parseConfigText, readConfigFile, type ConfigFileResult, type ConfigIssue, type CtxwinConfig } from "./store/config-file.js";
export {
  CONTEXT_NOTES_PATH,
  DEFAULT_HOT_MEMORY_LIMITS,
  HOT_MEMORY_TRUNCATION_MARKER,
  estimateTokensConservatively,
  type HotMemoryLimits,
} from "./core/hot-memories/limits.js";
export { decayedScore, recordAccess, type AccessRecord } from "./core/hot-memories/access-score.js";
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
export { MEMORY_TOOL_NAME, memoryInputSchema, memoryTool, type MemoryToolInput, type MemoryToolOptions } from "./tools/memory/memory-tool.js";
export { createMemoryExecutor, type MemoryExecutor, type MemoryExecutorOptions } from "./tools/memory/memory-executor.js";
export {
  MEMORY_COMMANDS,
  formatMemoryResult,
  type MemoryCommand,
  type MemoryCommandFailure,
  type MemoryCommandResult,
  type MemoryCommandSuccess,
  type MemoryErrorCode,
} from "./tools/memory/results.js";
export { DEFAULT_MEMORY_DIRECTORY, defaultMemoryRoot, resolveMemoryLayout, type MemoryLayout, type MemoryLocation } from "./tools/memory/layout.js";
export { MEMORY_SCOPES, MEMORY_VIRTUAL_ROOT, parseVirtualPath, type MemoryScope, type VirtualPath } from "./tools/memory/virtual-path.js";
export { MAX_FILES_PER_SCOPE, MAX_MEMORY_FILE_BYTES } from "./tools/memory/text-files.js";
export { loadHotMemoryCandidates, renderHotMemories, type HotMemoryCandidates, type RenderHotMemoriesOptions, type UnreadableMemory } from "./tools/memory/hot-memories.js";
export { listMemoryPins, setMemoryPin } from "./tools/memory/pins.js";
export { MemoryIndexFormatError, MemoryLockTimeoutError, MemoryPathError } from "./tools/memory/errors.js";
export { leadInText, type LeadInTextOptions } from "./core/rollover/lead-in-text.js";
export { carriedContinueText, carryBounds, deriveTurnCarry, readCarry, type CallOutcome, type CarriedInput, type CarryBounds, type LedgerEntry, type TurnCarry } from "./core/rollover/turn-carry.js";
export { budgetWarningText, type BudgetWarningTextOptions, type WarningMemoryMode } from "./core/rollover/budget-warning-text.js";
export {
  CONTINUE_TEXT,
  continueRow,
  leadInRow,
  rolloverBoundaryRow,
  rolloverTransactionRows,
  stampRolloverId,
  userInputRow,
  type RolloverBoundaryOptions,
  type RolloverTransactionOptions,
} from "./core/rollover/rollover-rows.js";
export { COMPACTION_SUMMARY_HEADING, budgetWarningRow, compactionSummaryRow, rejectedInputRow, resetBoundaryRow, type RejectedInputOptions } from "./core/rollover/notice-rows.js";
export { deriveWindowPressure, hasBudgetWarning, isWindowFresh, type PressureRow, type WindowPressure, type WindowPressureOptions } from "./core/rollover/window-pressure.js";
export { readStepMetadata, stepMetadata, type CacheHintDrop, type StepCacheHints, type StepMetadata, type StepUsage } from "./core/rollover/step-usage.js";
export { toolOutputViewText, viewOversizedToolOutputs, type ToolOutputViewOptions, type ToolOutputViews } from "./core/rollover/tool-output-view.js";
export { createAgentSession, type AgentSession, type SessionEdit } from "./session/create-agent-session.js";
export { EditRefusedError, type EditRefusal } from "./session/lineage/edit-refused-error.js";
export { editPointOf, isUserInput, type EditPoint } from "./session/lineage/edit-point.js";
export { forkForEdit, forkStoredSession, type SessionForkOptions } from "./session/lineage/fork-stored-session.js";
export type { SessionEditOptions } from "./session/lineage/session-lineage.js";
export { cutRowToBytes, type InputCut } from "./core/rollover/input-cut.js";
export { createContextAgent, type ContextAgent, type ContextAgentOptions } from "./session/context-agent/create-context-agent.js";
export { AgentInputError, MAX_INPUT_CHARS } from "./session/context-agent/agent-input.js";
export { SessionBusyError } from "./session/context-agent/session-busy-error.js";
export { sumUsage, type ContextGenerateResult, type ContextStreamResult } from "./session/context-agent/agent-results.js";
export type { CtxwinDataTypes, CtxwinUIMessage, UIMessageStreamOptions } from "./session/ui-message-stream.js";
export type { LoopSettings } from "./session/loop-settings.js";
export { importFiles as importTranscripts, IMPORT_FORMATS, DEFAULT_SETTLE_MS, type ImportFilesOptions as ImportTranscriptsOptions, type ImportFormat, type ImportProgress } from "./import/import-files.js";
export type { ImportReport } from "./import/import-report.js";
export { listSessions, searchSessions, type CatalogFilter } from "./tools/session-catalog/catalog-api.js";
export { createStoreHistory, STORE_HISTORY_DESCRIPTION, type StoreHistory } from "./tools/session-catalog/store-history.js";
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
  WindowSpend,
} from "./session/session-types.js";
export { cacheHintedModel, promptCacheKeyFor, type CacheTtl } from "./session/cache-hints.js";
export type { SessionEventMap, SessionEventName, SessionListener, TurnSink } from "./session/session-events.js";
export { createBudgetPolicy, modelKey, type BudgetEvaluation, type BudgetEvaluationInput, type BudgetSettings, type ModelLimitLookup, type SessionBudgetPolicy } from "./session/budget-policy.js";
export { COMPACTION_INSTRUCTION, type CompactResult } from "./session/compaction.js";
export { isContextExceededError } from "./session/context-exceeded.js";
export { CompactionError, ContextExceededError, ProviderCallError, RequestOverCeilingError, SessionStoreError } from "./session/errors.js";
export { HYBRID_SEARCH_DESCRIPTION, SESSION_HISTORY_DESCRIPTION, executeSessionHistory, sessionHistoryTool, type SessionHistoryToolOptions } from "./tools/session-history/session-history-tool.js";
export { NEW_CONTEXT_DESCRIPTION, newContextTool, type NewContextRequester, type NewContextResult } from "./tools/new-context/new-context-tool.js";
export { HANDOFF_NOTE_MAX_CHARS, MIN_STEPS_AFTER_REQUESTED, NEW_CONTEXT_TOOL_NAME, checkHandoffNote, checkNewContextRequest, handoffNoteText, type NewContextCheck } from "./core/rollover/new-context.js";
export { SESSION_HISTORY_ACTIONS, SessionHistoryInputSchema, type SessionHistoryAction, type SessionHistoryInput } from "./tools/session-history/input-schema.js";
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
export { HISTORY_LABEL, ITEM_LIMIT, MAX_RESULT_BYTES, MAX_SEARCH_OFFSET, READ_LIMIT_CHARS, SEARCH_LIMIT, WINDOW_LIMIT, type CountLimit } from "./core/history-view/limits.js";
export { WORKSPACE_READ_TOOL_NAMES, WORKSPACE_WRITE_TOOL_NAMES, workspaceTools, type WorkspaceToolLimits, type WorkspaceToolsOptions } from "./tools/workspace/workspace-tools.js";
export { WorkspaceRootError } from "./tools/workspace/workspace-root.js";
export { DEFAULT_WORKSPACE_TOOL_LIMITS } from "./tools/workspace/limits.js";
export { WORKSPACE_AGENT_SYSTEM_PROMPT, createWorkspaceAgent, type WorkspaceAgentOptions } from "./agent/workspace-agent.js";
export { DEMO_MODEL_ID, DEMO_MODEL_PROVIDER, createDemoModel, type DemoModelOptions } from "./agent/demo/demo-model.js";
export { ModelConfigError, resolveModel, type ModelFlags, type ResolvedModel } from "./agent/model-flags.js";
