import { z } from "zod";

/** Decision 001's success envelope around a data schema: `{success: true, data}`. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

/** `{success: true, message}` for replies a person reads. */
export const messageResponse = z.object({ success: z.literal(true), message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

/** `{success: true}` with nothing else to say. */
export const okResponse = z.object({ success: z.literal(true) });
export type OkResponse = z.infer<typeof okResponse>;
