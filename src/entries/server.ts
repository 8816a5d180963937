/** `ctxwin/server`: the web UI's server of `ctxwin serve` (sessions, windows and budget in a browser). */
export { startServer, type RunningServer, type StartServerOptions } from "../server/start-server.js";
