export { allowlistRoutes } from "./routes.ts";
