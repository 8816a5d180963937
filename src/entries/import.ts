/** `ctxwin/import`: Claude Code, Codex and ctxwin transcripts into a store (`ctxwin import`'s code). */
export {
  DEFAULT_SETTLE_MS,
  IMPORT_FORMATS,
  importFiles as importTranscripts,
  type ImportFilesOptions as ImportTranscriptsOptions,
  type ImportFormat,
  type ImportProgress,
} from "../import/import-files.js";
export type { ImportReport } from "../import/import-report.js";
