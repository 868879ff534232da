export { default as teamPlugin } from "./plugin.ts";
export { teamRoutes } from "./routes.ts";
