import { z } from "zod";

/** How a program's environment variables are read: each by a schema, once at start-up; a wrong
 * value stops the program with a message naming the variable (the gateway alone and the server
 * with its embedded gateway read theirs this way). */

export type Env = Record<string, string | undefined>;

/** A configuration value that stops the program; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** A port number from `min` (0 only where "any free port" makes sense) to 65535. */
export const portNumber = (min: 0 | 1) =>
  z.coerce
    .number({ error: "must be a port number" })
    .int("must be a whole number")
    .min(min, `must be between ${min} and 65535`)
    .max(65535, `must be between ${min} and 65535`);

export const positiveNumber = (fallback: number) =>
  z.coerce.number({ error: "must be a number" }).positive("must be greater than 0").default(fallback);

export const urlWithProtocols = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`,
  );

export function refuse(message: string): never {
  throw new Error(message);
}

/** A variable that `read` turns into its value, throwing with the reason when it is wrong. */
export const readWith = <T>(read: (text: string) => T) =>
  z.string().transform((text, ctx): T => {
    try {
      return read(text);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });

/** A comma list, each entry read by `read`; blanks between commas are dropped. */
export const listOf = <T>(read: (entry: string) => T) =>
  readWith((text) =>
    text
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map(read),
  );

const NAMES_NOT_ECHOED = /SECRET|KEY|TOKEN|PASSWORD|URL/;

/** Parses `env` with `schema`, empty strings counting as unset; throws one ConfigError naming
 * each wrong variable (and its value, unless it may be a secret). */
export function parseEnv<Schema extends z.ZodType>(schema: Schema, env: Env): z.output<Schema> {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment");
      const raw = typeof issue.path[0] === "string" ? present[issue.path[0]] : undefined;
      const echoed = raw === undefined || NAMES_NOT_ECHOED.test(name) || issue.message.includes(`"${raw}"`);
      return `${name}: ${issue.message}${echoed ? "" : ` (got "${raw}")`}`;
    }),
  );
}
