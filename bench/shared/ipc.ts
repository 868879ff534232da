import type { ChildProcess } from "node:child_process";

/** Sends `{type}` to a bench child process and resolves with its first message of type `reply`. */
export function ask<T>(child: ChildProcess, type: string, reply: string = type): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (message: { type: string } & T) => {
      if (message.type !== reply) return;
      child.off("message", onMessage);
      resolve(message);
    };
    child.on("message", onMessage);
    child.send({ type });
  });
}
