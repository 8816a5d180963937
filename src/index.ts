/**
 * ctxwin: token-budget context windows for long-running AI agents.
 * Public entry of the library.
 */
export { CtxwinError, InvalidArgumentError, RowValidationError, type RowIssue } from "./core/errors.js";
export {
  BOUNDARY_KINDS,
  INTERNAL_ROW_TYPES,
  MAX_ROW_BYTES,
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
export { hasUnknownType, internalTypeOf, isHidden, isHistoryVisible, isProviderEligible, isSubstantive } from "./core/visibility.js";
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
export type {
  ActiveWindow,
  AppendOptions,
  FloorOptions,
  HistoryStore,
  ItemPage,
  ItemsOptions,
  SearchHit,
  SearchOptions,
  SearchPage,
  SessionSummary,
  StoreDiagnostics,
  StoreWarning,
  StoredRow,
  WindowPage,
  WindowSummary,
  WindowsOptions,
} from "./store/port.js";
export { AppendConflictError, DuplicateRolloverError, StoreClosedError, StoreFormatError } from "./store/errors.js";
export { DEFAULT_STORE_PATH, openStore, type MemoryOpenOptions, type OpenStoreOptions, type SqliteOpenOptions } from "./store/open-store.js";
export { createMemoryStore, type MemoryStoreOptions } from "./store/memory/memory-store.js";
export { createSqliteStore, type SqliteStoreOptions } from "./store/sqlite/sqlite-store.js";
