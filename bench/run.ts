/**
 * Benchmark runner: `npm run bench` runs every `bench/*.bench.ts`; `npm run bench -- store`
 * runs only `bench/store.bench.ts` (`npm run bench -- store --backend postgres`: its PostgreSQL
 * variant; `npm run bench -- recall --store <postgres url>`: recall on PostgreSQL too;
 * `npm run bench -- recall --embedding-model <provider:id>`: hybrid and semantic recall too). Each benchmark prints its figures as ratios against a
 * baseline measured in the same run (the machines are shared and noisy).
 */
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const directory = path.dirname(fileURLToPath(import.meta.url));
const available = readdirSync(directory)
  .filter((file) => file.endsWith(".bench.ts"))
  .map((file) => file.slice(0, -".bench.ts".length))
  .sort();

/** Flags of the benchmarks that take a value (`--backend postgres`): the value is not a name. */
const valueFlags = new Set(["--backend", "--rows", "--rounds", "--store", "--embedding-model", "--embedding-base-url"]);
const requested = process.argv
  .slice(2)
  .filter((argument, index, all) => !argument.startsWith("-") && !valueFlags.has(all[index - 1] ?? ""));
const unknown = requested.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(", ")}. Available: ${available.join(", ")}.`);
  process.exit(2);
}

for (const name of requested.length > 0 ? requested : available) {
  console.log(`\n## ${name}\n`);
  const module = (await import(pathToFileURL(path.join(directory, `${name}.bench.ts`)).href)) as {
    run: () => Promise<void>;
  };
  await module.run();
}
