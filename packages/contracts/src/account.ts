import { z } from "zod";
import { successEnvelope } from "./envelope.ts";

/** GET /account/status: the caller's data balance, in GB (2 decimals) and exact bytes. */
export const accountStatusSchema = z.object({ balance_gb: z.number(), balance_bytes: z.number() });
export type AccountStatus = z.infer<typeof accountStatusSchema>;
export const accountStatusResponse = successEnvelope(accountStatusSchema);
export type AccountStatusResponse = z.infer<typeof accountStatusResponse>;
