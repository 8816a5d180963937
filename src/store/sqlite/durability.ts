/**
 * How a SQLite store syncs its commits: `full` survives power loss, `normal` a crash of the process.
 * Apart from open-database.ts, so that the published types of the store options do not name
 * better-sqlite3 (whose types are a devDependency).
 */
export type Durability = "full" | "normal";
