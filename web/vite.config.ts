/**
 * Vite build of the web UI served by `ctxwin serve`: a self-contained bundle in `dist/web/` (no CDN,
 * no external fonts, no source maps), loaded with relative paths so the server can mount it anywhere.
 */
import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const webRoot = import.meta.dirname;

export default defineConfig(({ command }) => {
  // A build is always React's production build, also when a test runner (NODE_ENV=test) runs it:
  // Vite and the React plugin read NODE_ENV after loading this file.
  if (command === "build") process.env.NODE_ENV = "production";
  return {
    root: webRoot,
    base: "./",
    plugins: [react()],
    publicDir: false,
    logLevel: "warn",
    build: {
      outDir: path.resolve(webRoot, "../dist/web"),
      emptyOutDir: true,
      sourcemap: false,
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
    },
  };
});
