/**
 * The expected failure of `ctxwin chat` before the chat starts (a missing folder, a bad flag value):
 * a message for the person, printed as one line on stderr with exit code 1.
 */
import { errorClass } from "../../core/errors.js";

/**
 * @example throw new ChatCommandError("--workspace /nope is not a directory.");
 */
export class ChatCommandError extends errorClass("CtxwinChatCommandError") {}
