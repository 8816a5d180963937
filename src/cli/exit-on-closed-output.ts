/**
 * `ctxwin history export s1 | head` closes stdout early: end quietly instead of printing an
 * EPIPE stack trace.
 */

/**
 * @example exitQuietlyOnClosedOutput();
 */
export function exitQuietlyOnClosedOutput({ stream = process.stdout }: { stream?: NodeJS.WriteStream } = {}): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
}
