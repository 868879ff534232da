export { subusersRoutes } from "./routes.ts";
