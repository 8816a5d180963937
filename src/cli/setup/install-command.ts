/**
 * How the coding CLI should run this ctxwin install, when `--command` is not given. Started by
 * `npx` (or `npm exec`: both run from npm's cache folder, `…/_npx/<hash>/node_modules/ctxwin`),
 * setup writes `npx -y ctxwin`, which is how it was started. Started any other way — a global or
 * local install, an unpacked tarball, a checkout's build — it writes this very install: the
 * absolute path of the node running it and of the package's `dist/cli/main.js` (symbolic links
 * resolved), so the hook and the server run the code that was set up, published or not (ADR 0075).
 */
import { realpathSync } from "node:fs";
import path from "node:path";

export const NPX_COMMAND = ["npx", "-y", "ctxwin"] as const;

/**
 * @example
 * installCommand({ script: "/opt/ctxwin/dist/cli/main.js", node: "/usr/bin/node" })
 * // ["/usr/bin/node", "/opt/ctxwin/dist/cli/main.js"]
 */
export function installCommand({ script, node }: { script: string; node: string }): string[] {
  const resolved = realpathOr(script);
  if (resolved.split(path.sep).includes("_npx")) return [...NPX_COMMAND];
  return [node, resolved];
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    // A script path that cannot be resolved (deleted while running) is written as given.
    return path.resolve(file);
  }
}
