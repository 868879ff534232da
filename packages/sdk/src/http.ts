import { ByteTollError } from "./errors.ts";

/** As the dashboard: 3 retries of a read, delays doubling from 1 s and capped at 30 s. */
export const DEFAULT_RETRIES = 3;
export const DEFAULT_RETRY_BASE_MS = 1000;
export const MAX_RETRY_DELAY_MS = 30_000;

export interface HttpOptions {
  baseUrl: string;
  apiToken: string;
  retries: number;
  retryBaseMs: number;
  fetch: typeof fetch;
}

export interface HttpRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

export function retryDelay(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** attempt, MAX_RETRY_DELAY_MS);
}

function urlOf(options: HttpOptions, request: HttpRequest): string {
  const url = new URL(request.path.replace(/^\//, ""), `${options.baseUrl.replace(/\/+$/, "")}/`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.href;
}

async function readBody(response: Response): Promise<Record<string, unknown> | null> {
  const text = await response.text();
  try {
    const body: unknown = JSON.parse(text);
    return body && typeof body === "object" ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

async function attempt(options: HttpOptions, request: HttpRequest): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await options.fetch(urlOf(options, request), {
      method: request.method,
      headers: {
        accept: "application/json",
        authorization: `Bearer ${options.apiToken}`,
        ...(request.body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
  } catch (error) {
    const reason =
      error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : "";
    throw new ByteTollError(`Cannot reach ${options.baseUrl}: ${reason}`, 0, "network", { cause: error });
  }
  const body = await readBody(response);
  if (response.ok && body?.success === true) return body;
  const message = typeof body?.message === "string" ? body.message : `HTTP ${response.status}`;
  throw new ByteTollError(message, response.status, "response");
}

/** A 4xx will not change by asking again, and only reads are repeated (writes are not idempotent). */
function retryable(error: unknown, request: HttpRequest): boolean {
  if (request.method !== "GET" || !(error instanceof ByteTollError)) return false;
  return error.kind === "network" || error.status >= 500;
}

/** A caller of `send` that answers the envelope's `data`, typed by the caller. */
export const dataOf =
  (options: HttpOptions) =>
  async <T>(request: HttpRequest): Promise<T> =>
    (await send(options, request)).data as T;

/** One API call: the answer's envelope on success, a ByteTollError otherwise. */
export async function send(options: HttpOptions, request: HttpRequest): Promise<Record<string, unknown>> {
  for (let failures = 0; ; failures++) {
    try {
      return await attempt(options, request);
    } catch (error) {
      if (failures >= options.retries || !retryable(error, request)) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelay(failures, options.retryBaseMs)));
    }
  }
}
