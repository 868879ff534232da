import { z } from "zod";
import { successEnvelope } from "./envelope.ts";

/** docs/product.md#credentials: what /connect shows and the proxy accepts. */
export const credentialsSchema = z.object({
  username: z.string(),
  password: z.string(),
  options: z.object({ use_sticky: z.boolean() }),
});
export type Credentials = z.infer<typeof credentialsSchema>;
export const credentialsResponse = successEnvelope(credentialsSchema);
export type CredentialsResponse = z.infer<typeof credentialsResponse>;

/** GET /credentials/unique: a temporary set for an anonymous visitor. */
export const uniqueCredentialsSchema = z.object({ username: z.string(), password: z.string() });
export type UniqueCredentials = z.infer<typeof uniqueCredentialsSchema>;
export const uniqueCredentialsResponse = successEnvelope(uniqueCredentialsSchema);
export type UniqueCredentialsResponse = z.infer<typeof uniqueCredentialsResponse>;

/** POST /credentials/test: the proxy to go through. Only the configured gateway is accepted. */
export const connectionTestRequestSchema = z.object({
  username: z.string().min(1, "username is required").max(160, "username is too long"),
  password: z.string().min(1, "password is required").max(256, "password is too long"),
  proxy_host: z.string().trim().min(1, "proxy_host is required").max(253, "proxy_host is too long"),
  proxy_port: z.coerce
    .number({ error: "proxy_port must be a port number" })
    .int("proxy_port must be a port number")
    .min(1, "proxy_port must be a port number")
    .max(65535, "proxy_port must be a port number"),
});
export type ConnectionTestRequest = z.infer<typeof connectionTestRequestSchema>;

/** docs/product.md#test-connection: where the request left the proxy network. */
export const connectionTestDataSchema = z.object({
  ip: z.string(),
  asn: z.object({ org_name: z.string() }),
  country: z.string(),
  geo: z.object({ city: z.string(), region_name: z.string() }),
});
export type ConnectionTestData = z.infer<typeof connectionTestDataSchema>;
export const connectionTestResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: connectionTestDataSchema,
});
export type ConnectionTestResponse = z.infer<typeof connectionTestResponse>;

export const PROXY_TARGET_NOT_ALLOWED = "Proxy host or port is not allowed.";
export const PROXY_TEST_SUCCEEDED = "Connected through the proxy.";

/** GET /gateway: docs/product.md#routes-and-layout's Proxy Server card — the host, the fixed IP it resolves to, the ports. */
export const proxyServerSchema = z.object({
  host: z.string(),
  /** Null when the host name does not resolve from the server. */
  ip: z.string().nullable(),
  http_port: z.number().int(),
  https_port: z.number().int(),
  /** SOCKS5 (RFC 1928 CONNECT with username/password); null when the operator turned it off. */
  socks_port: z.number().int().nullable(),
});
export type ProxyServer = z.infer<typeof proxyServerSchema>;
export const proxyServerResponse = successEnvelope(proxyServerSchema);
export type ProxyServerResponse = z.infer<typeof proxyServerResponse>;
