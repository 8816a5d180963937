/**
 * The workspace root, resolved once: the real path of the folder (a root given through a symbolic
 * link is followed here, once), which every path a tool is given must stay inside.
 */
import fs from "node:fs";
import path from "node:path";
import { errorClass } from "../../core/errors.js";

/**
 * The folder given as the workspace root does not exist or is not a folder.
 *
 * @example
 * try { workspaceTools({ root: "./missing" }) } catch (error) { if (WorkspaceRootError.isInstance(error)) console.error(error.root) }
 */
export class WorkspaceRootError extends errorClass("CtxwinWorkspaceRootError") {
  readonly root: string;

  constructor(root: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.root = root;
  }
}

export interface Workspace {
  /** Real path of the root folder: every resolved path is inside it. */
  readonly root: string;
  /** The root as given, made absolute (absolute tool paths under it are accepted too). */
  readonly givenRoot: string;
}

/** What a workspace tool's function takes: the opened workspace and the tool's input as checked. */
export interface WorkspaceToolCall<Input> {
  workspace: Workspace;
  input: Input;
}

/**
 * Resolves the root folder once; throws `WorkspaceRootError` when it is missing or not a folder.
 *
 * @example
 * const workspace = openWorkspace({ root: "." });
 * workspace.root // "/home/me/project" (symbolic links resolved)
 */
export function openWorkspace({ root }: { root: string }): Workspace {
  if (typeof root !== "string" || root.length === 0 || root.includes("\u0000")) {
    throw new WorkspaceRootError(String(root), "workspaceTools: root must be a non-empty folder path.");
  }
  const givenRoot = path.resolve(root);
  let real: string;
  try {
    real = fs.realpathSync(givenRoot);
  } catch (error) {
    throw new WorkspaceRootError(
      givenRoot,
      `workspaceTools: the workspace root ${givenRoot} does not exist or cannot be resolved.`,
      { cause: error },
    );
  }
  if (!fs.statSync(real).isDirectory())
    throw new WorkspaceRootError(givenRoot, `workspaceTools: the workspace root ${givenRoot} is not a folder.`);
  return { root: real, givenRoot };
}
