/**
 * The answer of `GET /api/sessions/:id/timeline` (docs/web-api.md): every window as an overview
 * bar, and the spans, requests and marks of the windows read row by row (`detailWindowIds`). One
 * statement of it, on the server's side (src/server/view-types.ts; types only).
 */
export type {
  Spend as TimelineSpend,
  TimelineLines,
  TimelineMark,
  TimelineMarkKind,
  TimelineOverviewBar,
  TimelinePoint,
  TimelineView,
  TimelineWindow,
} from "../../../src/server/view-types.js";
