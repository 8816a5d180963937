/**
 * Vite build of the web UI served by `ctxwin serve`: a self-contained bundle in `dist/web/` (no CDN,
 * no external fonts, no source maps), loaded with relative paths so the server can mount it anywhere.
 */
import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const webRoot = import.meta.dirname;

export default defineConfig({
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
});
