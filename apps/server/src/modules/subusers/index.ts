export { default as subuserLimitAlertsPlugin } from "./limit-alerts.ts";
export { type OperatorSubuserRow, subuserLabels, subusersForOperator } from "./operator-reads.ts";
export { subusersRoutes } from "./routes.ts";
