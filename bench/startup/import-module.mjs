// The startup bench's import probe: imports the module named by argv[2] (resolved from the
// repository root), then prints its peak resident memory in kilobytes as the last line.
await import(process.argv[2]);
process.stdout.write(`${process.resourceUsage().maxRSS}\n`);
