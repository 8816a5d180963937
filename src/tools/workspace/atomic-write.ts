/**
 * Atomic file replacement for the write tools, on the one atomic writer (`store/atomic-write.ts`):
 * readers see the old or the new file, never a mix. With `expected`, the target must still be the
 * version that was read; otherwise the tool answers with a refusal and nothing is written.
 */
import { writeFileAtomic as replaceFile, type FileVersion } from "../../store/atomic-write.js";
import { refusal, type Refusal } from "./results.js";

export { TEMPORARY_FILE_PREFIX, versionOf, type FileVersion } from "../../store/atomic-write.js";

/**
 * Writes `content` to `file` through a temporary file and a rename.
 *
 * @example
 * const problem = writeFileAtomic({ file: "/work/src/a.ts", content: "export {};\n", shown: "src/a.ts" });
 */
export function writeFileAtomic({
  file,
  content,
  expected,
  shown,
}: {
  file: string;
  content: string;
  expected?: FileVersion;
  shown: string;
}): Refusal | undefined {
  const outcome = replaceFile({ file, content, ...(expected === undefined ? {} : { expected }) });
  if (outcome === "written") return undefined;
  return refusal(
    `${shown} was changed by someone else while it was being edited; nothing was written. Read it again and retry.`,
  );
}
