export { default as subuserLimitAlertsPlugin } from "./limit-alerts.ts";
export { subusersRoutes } from "./routes.ts";
