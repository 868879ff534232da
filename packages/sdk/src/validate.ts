import type { z } from "zod";
import { ByteTollError } from "./errors.ts";

/** The contract's own check of an argument, run before anything is sent. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join(".") ?? "";
  const message = issue?.message ?? "Invalid argument";
  throw ByteTollError.invalidArgument(field && !message.startsWith(field) ? `${field}: ${message}` : message);
}

/** Ids are path segments: a non-empty string of at most 64 characters. */
export function validateId(name: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "" || value.length > 64) {
    throw ByteTollError.invalidArgument(`${name} must be a non-empty string of at most 64 characters`);
  }
  return encodeURIComponent(value);
}
