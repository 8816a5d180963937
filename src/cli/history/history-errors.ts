/**
 * The one expected failure of a `ctxwin history` command: a message for the person, printed as a
 * single line on stderr with exit code 1 (never a stack trace).
 */
import { errorClass } from "../../core/errors.js";

/**
 * @example throw new HistoryCommandError("Unknown session 's9' in /work/project.");
 */
export class HistoryCommandError extends errorClass("HistoryCommandError") {}
