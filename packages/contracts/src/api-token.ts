import { z } from "zod";
import { successEnvelope } from "./envelope.ts";

/** docs/product.md#api-token, shown again on /connect. */
export const apiTokenSchema = z.object({ token: z.string() });
export type ApiToken = z.infer<typeof apiTokenSchema>;
export const apiTokenResponse = successEnvelope(apiTokenSchema);
export type ApiTokenResponse = z.infer<typeof apiTokenResponse>;

/** Every API token starts with this, so the auth plugin can tell one from a JWT cheaply. */
export const API_TOKEN_PREFIX = "bt_";
