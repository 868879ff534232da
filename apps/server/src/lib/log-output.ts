import { styleText } from "node:util";
import { type DestinationStream, type Logger, pino } from "pino";

/** A login link's token in a logged URL would let whoever reads the logs sign in as the customer. */
const SECRET_QUERY = /([?&](?:magic_credential|access_token|token)=)[^&#]*/gi;

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/** What a request log line says about the request (Fastify's fields), secrets left out. */
export const LOG_REDACTION = {
  redact: ["req.headers.authorization"],
  serializers: {
    req: (request: LoggedRequest) => ({
      method: request.method,
      url: request.url?.replace(SECRET_QUERY, "$1[redacted]"),
      host: request.host ?? request.headers?.host,
      remoteAddress: request.ip ?? request.socket?.remoteAddress,
      remotePort: request.socket?.remotePort,
    }),
  },
};

/** JSON lines for machines (log collectors, containers, CI); one readable line each for people. */
export type LogFormat = "json" | "pretty";

/** LOG_FORMAT when set; otherwise pretty on a terminal and JSON lines anywhere else. */
export function chooseLogFormat(value: string | undefined, stdoutIsTerminal: boolean): LogFormat | Error {
  const format = value?.trim().toLowerCase() ?? "";
  if (format === "") return stdoutIsTerminal ? "pretty" : "json";
  if (format === "json" || format === "pretty") return format;
  return new Error(`LOG_FORMAT must be json or pretty (got "${value}")`);
}

/** The process's logger, writing in the format LOG_FORMAT and stdout ask for; a wrong LOG_FORMAT
 * stops the program with a message naming it. */
export function createProcessLogger(
  env: NodeJS.ProcessEnv,
  name: string,
): { log: Logger; format: LogFormat } {
  const format = chooseLogFormat(env.LOG_FORMAT, process.stdout.isTTY === true);
  if (format instanceof Error) {
    console.error(format.message);
    process.exit(1);
  }
  const options = { name, ...LOG_REDACTION };
  const log = format === "json" ? pino(options) : pino(options, prettyStream(process.stdout));
  return { log, format };
}

export interface StartFacts {
  appUrl: string;
  docsUrl: string;
  /** The embedded gateway's host and ports (SOCKS5 null when off); absent when it runs elsewhere. */
  gateway?: { host: string; httpPort: number; httpsPort: number; socksPort: number | null } | undefined;
  /** Where login links go when no SMTP server is set: the dev outbox URL, or null for the log only. */
  outbox?: string | null | undefined;
}

/** Where to go once the server is up: a short banner for a person, one JSON line for a machine. */
export function announceStart(log: Logger, format: LogFormat, facts: StartFacts): void {
  if (format === "json") {
    // Said whatever LOG_LEVEL is, as the banner is: it is how a supervisor sees the start.
    log.child({}, { level: "info" }).info(facts, `ByteToll is running at ${facts.appUrl}`);
    return;
  }
  const lines = [`  API docs     ${facts.docsUrl}`];
  if (facts.gateway) {
    const { host, httpPort, httpsPort, socksPort } = facts.gateway;
    const socks = socksPort === null ? "" : `, ${host}:${socksPort} (SOCKS5)`;
    lines.push(`  Proxy        ${host}:${httpPort} (HTTP), ${host}:${httpsPort} (TLS)${socks}`);
  }
  if (facts.outbox) lines.push(`  Login links  ${facts.outbox} (no SMTP_URL set)`);
  if (facts.outbox === null) lines.push("  Login links  printed in this log (no SMTP_URL set)");
  process.stdout.write(`\n  ByteToll is running at ${facts.appUrl}\n${lines.join("\n")}\n\n`);
}

const LEVELS: Record<number, { label: string; style: Parameters<typeof styleText>[0] }> = {
  10: { label: "TRACE", style: "gray" },
  20: { label: "DEBUG", style: "gray" },
  30: { label: "INFO ", style: "green" },
  40: { label: "WARN ", style: "yellow" },
  50: { label: "ERROR", style: "red" },
  60: { label: "FATAL", style: ["bgRed", "white"] },
};
/** Fields every line has, or that the line's own text already shows. */
const SHOWN = new Set([
  "level",
  "time",
  "pid",
  "hostname",
  "name",
  "msg",
  "req",
  "res",
  "err",
  "responseTime",
  "reqId",
]);

/** A pino destination that turns each JSON line into `12:04:05 INFO  message key=value`, with a
 * request's method, URL, status and time inline and an error's stack below it. */
export function prettyStream(out: NodeJS.WritableStream & { isTTY?: boolean }): DestinationStream {
  const paint = (style: Parameters<typeof styleText>[0], text: string) =>
    out.isTTY ? styleText(style, text) : text;
  return {
    write(line: string) {
      out.write(`${formatLine(JSON.parse(line) as Record<string, unknown>, paint)}\n`);
    },
  };
}

type Paint = (style: Parameters<typeof styleText>[0], text: string) => string;

function formatLine(entry: Record<string, unknown>, paint: Paint): string {
  const level = LEVELS[Number(entry.level)] ?? { label: String(entry.level), style: "white" };
  const time = new Date(Number(entry.time)).toTimeString().slice(0, 8);
  const parts = [paint("gray", time), paint(level.style, level.label), String(entry.msg ?? "")];
  const request = describeRequest(entry);
  if (request) parts.push(paint("cyan", request));
  for (const [key, value] of Object.entries(entry)) {
    if (!SHOWN.has(key))
      parts.push(paint("gray", `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`));
  }
  const error = entry.err as { stack?: string; message?: string } | undefined;
  const stack = error ? `\n${paint("red", error.stack ?? error.message ?? JSON.stringify(error))}` : "";
  return parts.join(" ") + stack;
}

/** `#1a2b3c4d GET /api/x`, then `#1a2b3c4d → 200 3.2 ms` once answered: the short request id
 * pairs the two lines. */
function describeRequest(entry: Record<string, unknown>): string {
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  const words: string[] = [];
  if (typeof entry.reqId === "string") words.push(`#${entry.reqId.slice(0, 8)}`);
  if (req) words.push(`${req.method} ${req.url}`);
  if (res) words.push(`→ ${res.statusCode}`);
  if (typeof entry.responseTime === "number") words.push(`${entry.responseTime.toFixed(1)} ms`);
  return words.join(" ");
}
