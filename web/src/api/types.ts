/**
 * The shapes of the `ctxwin serve` HTTP API (docs/web-api.md), as the front end reads them. One
 * statement of the contract, on the server's side (src/server/view-types.ts; types only, erased
 * from the bundle), under the names the web UI gives them.
 */
export type {
  ApiSearchMode as SearchMode,
  BoundaryView as RowBoundary,
  BoundaryViewKind as BoundaryKind,
  CallOutcome,
  CarryView as RowCarry,
  InfoView,
  PartView as RowPart,
  RejectedView as RowRejected,
  RowKind,
  RowView,
  SearchEmbeddingsNote,
  SearchHitView as SearchHit,
  SearchResultView as SearchResult,
  ServerEventMap as SessionEventMap,
  ServerEventName as SessionEventName,
  SessionDetail,
  SessionListEntry as SessionSummary,
  SettingsView,
  Spend as SpendView,
  Strategy,
  TranscriptPage as RowsPage,
  UsageView,
  WindowView,
} from "../../../src/server/view-types.js";
