import { z } from "zod";
import { hasControlCharacters } from "./email.ts";
import { successEnvelope } from "./envelope.ts";

/** GET /dev/outbox/messages?to= — messages the dev outbox stored, newest first. */
export const devOutboxQuerySchema = z.object({
  to: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, "to must be at most 254 characters")
    .refine((value) => !hasControlCharacters(value), "to must not contain control characters")
    .optional(),
});

export const devOutboxMessageSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  link: z.string().nullable(),
  created_at: z.string(),
});
export type DevOutboxMessage = z.infer<typeof devOutboxMessageSchema>;
export const devOutboxMessagesResponse = successEnvelope(z.array(devOutboxMessageSchema));
