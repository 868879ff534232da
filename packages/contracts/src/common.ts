import { z } from "zod";

/** Every error the API returns: a 4xx with a message a person can read. */
export const errorResponse = z.object({ success: z.literal(false), message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponse>;

/** SPEC §9: GB values are bytes / 1e9, rounded to 2 decimals. */
export const BYTES_PER_GB = 1e9;
export function bytesToGb(bytes: number): number {
  return Math.round((bytes / BYTES_PER_GB) * 100) / 100;
}
