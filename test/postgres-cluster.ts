/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: `initdb` in a temporary directory, the
 * server on a free port of 127.0.0.1 with its socket inside that directory, stopped and removed by
 * `stop()`. PostgreSQL refuses to run as root, so under root (CI, containers) every server command
 * runs as the unprivileged user `nobody`, which owns the directory. A watchdog stops the cluster if
 * the process that started it dies without calling `stop()`.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, local only). */
  url: string;
  port: number;
  /** The directory holding the data directory, the socket and the log. */
  directory: string;
  /** Runs `pg_ctl` with `arguments` as the cluster's owner. */
  control(arguments_: readonly string[]): void;
  /**
   * Crashes the server (`-m immediate`: every connection is cut, nothing is shut down cleanly) and
   * starts it again on the same port; returns once it accepts connections.
   */
  restart(): void;
  /**
   * Freezes the server (SIGSTOP to the postmaster, then to every backend): its sockets stay
   * open, nothing answers. `thaw()` (SIGCONT) lets it run again; `stop()` thaws first.
   */
  freeze(): void;
  thaw(): void;
  stop(): void;
}

/** The directory of the newest installed PostgreSQL server binaries, or undefined. */
export function findPostgresBinaries(): string | undefined {
  const fromEnvironment = process.env["CTXWIN_POSTGRES_BIN"];
  if (fromEnvironment !== undefined && existsSync(path.join(fromEnvironment, "initdb"))) return fromEnvironment;
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => existsSync(path.join(debian, name, "bin", "initdb")))
      .sort((left, right) => Number(right) - Number(left));
    if (versions[0] !== undefined) return path.join(debian, versions[0], "bin");
  }
  const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  return onPath.status === 0 && onPath.stdout.trim() !== "" ? path.dirname(onPath.stdout.trim()) : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Command and arguments that run `file` as the unprivileged owner when we are root. */
function asOwner(file: string, arguments_: readonly string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [file, [...arguments_]];
  return ["setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", file, ...arguments_]];
}

function run(file: string, arguments_: readonly string[]): void {
  const [command, args] = asOwner(file, arguments_);
  const result = spawnSync(command, args, { encoding: "utf8", env: { ...process.env, LC_ALL: "C.UTF-8" } });
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(file)} ${arguments_.join(" ")} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout || String(result.error)}`,
    );
  }
}

/**
 * Starts a new cluster. Throws when the binaries are missing or the server does not start.
 *
 * @example
 * const cluster = await startPostgresCluster();
 * try { ... cluster.url ... } finally { cluster.stop(); }
 */
export async function startPostgresCluster({
  binaries = findPostgresBinaries(),
  durable = false,
}: {
  binaries?: string | undefined;
  /** Keep fsync on, as a production server does (benchmarks); tests run without it. */
  durable?: boolean;
} = {}): Promise<PostgresCluster> {
  if (binaries === undefined) {
    throw new Error(
      "No PostgreSQL server binaries found (looked in /usr/lib/postgresql/*/bin, $CTXWIN_POSTGRES_BIN and PATH); install Debian's 'postgresql' package.",
    );
  }
  const directory = mkdtempSync(path.join(tmpdir(), "ctxwin-postgres-"));
  if (process.getuid?.() === 0) {
    const owner = execFileSync("id", ["-u", "nobody"], { encoding: "utf8" }).trim();
    const group = execFileSync("id", ["-g", "nobody"], { encoding: "utf8" }).trim();
    chownSync(directory, Number(owner), Number(group));
  }
  chmodSync(directory, 0o700);
  const data = path.join(directory, "data");
  const pgCtl = path.join(binaries, "pg_ctl");
  const control = (arguments_: readonly string[]) => run(pgCtl, ["-D", data, ...arguments_]);
  let watchdog: ReturnType<typeof spawn> | undefined;
  let frozen: string[] = [];
  const thaw = () => {
    // A process that has exited meanwhile needs no signal: the result is not checked.
    if (frozen.length > 0) spawnSync("kill", ["-CONT", ...frozen]);
    frozen = [];
  };
  const freeze = () => {
    const postmaster = readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]?.trim() ?? "";
    execFileSync("kill", ["-STOP", postmaster]);
    frozen = [postmaster];
    // Stopped, the postmaster forks no new backend: the list below is complete.
    const children = spawnSync("pgrep", ["-P", postmaster], { encoding: "utf8" })
      .stdout.split("\n")
      .filter((pid) => pid.trim() !== "");
    if (children.length > 0) spawnSync("kill", ["-STOP", ...children]);
    frozen.push(...children);
  };
  const stop = () => {
    thaw();
    spawnSync(...asOwner(pgCtl, ["-D", data, "stop", "-m", "immediate", "-w"]), { encoding: "utf8" });
    watchdog?.kill();
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    run(path.join(binaries, "initdb"), [
      "-D",
      data,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--locale=C.UTF-8",
      "--no-sync",
    ]);
    let port = 0;
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      const options = [
        `-p ${port}`,
        `-k ${directory}`,
        "-c listen_addresses=127.0.0.1",
        // A test server: no fsync (the OS keeps the WAL across a server crash), small memory.
        ...(durable ? ["-c shared_buffers=256MB"] : ["-c fsync=off", "-c shared_buffers=32MB"]),
        "-c max_connections=300",
      ].join(" ");
      try {
        control(["start", "-w", "-t", "60", "-l", path.join(directory, "server.log"), "-o", options]);
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
    // Stops the cluster if this process dies without calling stop() (e.g. the test run is killed).
    const [stopCommand, stopArguments] = asOwner(pgCtl, ["-D", data, "stop", "-m", "immediate"]);
    // A frozen server (freeze()) is let run first, or it could not stop.
    const pidFile = path.join(data, "postmaster.pid");
    const thawScript = `postmaster=$(head -n 1 '${pidFile}' 2>/dev/null) && kill -CONT "$postmaster" && pkill -CONT -P "$postmaster"`;
    const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; ${thawScript}; "$0" "$@" >/dev/null 2>&1; rm -rf '${directory}'`;
    watchdog = spawn("sh", ["-c", script, stopCommand, ...stopArguments], { detached: true, stdio: "ignore" });
    watchdog.unref();
    // The restarted server must log to the file: pg_ctl's own output is a pipe that the new
    // server would hold open, and spawnSync would wait for it forever.
    const restart = () =>
      control(["restart", "-m", "immediate", "-w", "-t", "60", "-l", path.join(directory, "server.log")]);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      directory,
      control,
      restart,
      freeze,
      thaw,
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}
