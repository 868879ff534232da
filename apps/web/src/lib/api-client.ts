import { isAccountDisabledAnswer, reportAccountDisabled } from "./account-disabled.ts";
import { API_BASE_URL } from "./env.ts";
import { readUsableToken } from "./token-storage.ts";

/** docs/product.md#api-calls: a request carrying this header is sent without the bearer token; the header itself is stripped. */
export const SKIP_AUTH_HEADER = "X-Skip-Auth";
export const SKIP_AUTH: Readonly<Record<string, string>> = { [SKIP_AUTH_HEADER]: "1" };

/** A failed call; `message` is the API's own `{success:false, message}` text where there is one. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  /** HTTP status, or 0 when the request never got an answer. */
  readonly status: number;
  /** True when `message` is the server's own `{success:false, message}` text. */
  readonly fromServer: boolean;
  constructor(message: string, status: number, fromServer = false) {
    super(message);
    this.status = status;
    this.fromServer = fromServer;
  }
}

export const NETWORK_ERROR_MESSAGE = "Network error. Check your connection and try again.";

export interface ApiRequest {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** Sent as JSON. */
  json?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function buildUrl(path: string, query: ApiRequest["query"]): string {
  const url = `${API_BASE_URL}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

async function readJson(response: Response): Promise<unknown> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("application/json")) return undefined;
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

function messageOf(body: unknown): string | undefined {
  if (typeof body === "object" && body !== null && "message" in body) {
    const { message } = body as { message: unknown };
    if (typeof message === "string" && message.length > 0) return message;
  }
  return undefined;
}

/**
 * The one way the dashboard talks to the API: bearer token unless X-Skip-Auth: 1, no cookies,
 * and every `{success:false, message}` (or non-2xx) turned into an ApiError carrying that message.
 * Resolves to the parsed response envelope.
 */
export async function apiRequest<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const headers = new Headers(request.headers);
  const skipAuth = headers.get(SKIP_AUTH_HEADER) === "1";
  headers.delete(SKIP_AUTH_HEADER);
  if (!skipAuth) {
    const token = readUsableToken();
    if (token) headers.set("Authorization", `Bearer ${token}`);
  }
  headers.set("Accept", "application/json");
  let body: string | undefined;
  if (request.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(request.json);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, request.query), {
      method: request.method ?? "GET",
      headers,
      body,
      credentials: "omit",
      signal: request.signal,
    });
  } catch (error) {
    if (request.signal?.aborted) throw error;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
  }

  const payload = await readJson(response);
  const failed =
    !response.ok ||
    (typeof payload === "object" && payload !== null && (payload as { success?: unknown }).success === false);
  if (failed) {
    const message = messageOf(payload);
    if (isAccountDisabledAnswer(response.status, message)) reportAccountDisabled(message);
    throw new ApiError(
      message ?? `Request failed (HTTP ${response.status})`,
      response.status,
      message !== undefined,
    );
  }
  if (payload === undefined) throw new ApiError("Unexpected response from server", response.status);
  return payload as T;
}

/** The success envelope of decision 001. */
export interface ApiSuccess<T> {
  success: true;
  data: T;
  message?: string;
}
