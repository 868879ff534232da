import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";
import { precompress } from "./precompress.ts";

/** The API's top-level paths (decision 001: no /api prefix). SPA routes such as /magic/auth stay with Vite. */
const API_PATHS = [
  "/auth",
  "/magic/check",
  "/config",
  "/credentials",
  "/account",
  "/proxies",
  "/settings",
  "/transactions",
  "/deals",
  "/stripe",
  "/broadcasting",
  "/dev",
  "/docs",
  "/healthz",
  "/readyz",
];

const API_TARGET = process.env.BYTETOLL_API_TARGET ?? "http://localhost:3000";

const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  API_PATHS.map((path) => [path, { target: API_TARGET, changeOrigin: false }]),
);
proxy["/socket.io"] = { target: API_TARGET, ws: true };
// The operator's console shares /admin with the admin API: a page load (it asks for HTML) stays with Vite.
proxy["/admin"] = {
  target: API_TARGET,
  changeOrigin: false,
  bypass: (request) => ((request.headers.accept ?? "").includes("text/html") ? "/index.html" : undefined),
};

export default defineConfig(({ command }) => {
  // A build is always for production: with NODE_ENV=development in the environment (a server
  // started that way) Vite would otherwise ship React's development build, several times larger.
  // Vite reads NODE_ENV again after loading this file, so setting it here takes effect.
  if (command === "build") process.env.NODE_ENV = "production";
  return {
    plugins: [react(), tailwindcss(), precompress()],
    server: { port: 5173, proxy },
    preview: { proxy },
    build: { outDir: "dist", emptyOutDir: true },
  };
});
