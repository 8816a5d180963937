// Makes the built CLI entry executable so `npx ctxwin` works straight after `npm install`.
import { chmodSync, existsSync } from "node:fs";

const entry = new URL("../dist/cli/main.js", import.meta.url);
if (existsSync(entry)) chmodSync(entry, 0o755);
