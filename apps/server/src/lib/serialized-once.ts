import type { FastifyReply } from "fastify";
import { z } from "zod";

const bodies = new WeakMap<object, string>();

/**
 * Sends `value` as its response schema would serialise it, doing that work once per object: a
 * page served from a cache is the same object every time, and encoding it (orders carry their QR
 * codes) would otherwise be most of the request's CPU. The value must not be
 * mutated after it is first sent.
 */
export function sendSerializedOnce<T extends object>(reply: FastifyReply, schema: z.ZodType<T>, value: T) {
  let body = bodies.get(value);
  if (body === undefined) {
    body = JSON.stringify(z.encode(schema, value));
    bodies.set(value, body);
  }
  // A string with a JSON content type is sent as it is, past the route's serialiser.
  return reply.type("application/json; charset=utf-8").send(body);
}
