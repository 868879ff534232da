import { type ConsoleExitRow, consoleExitSpec } from "@bytetoll/egress";
import { AppError, notFound } from "../../errors.ts";

/** A console exit as the gateways dial it (its password opened), for the test route. */
export function consoleExitSpecOf(row: ConsoleExitRow | null, key: Buffer | null, ca: string | undefined) {
  if (!row) throw notFound("No such exit");
  try {
    return consoleExitSpec(row, key, ca === undefined ? {} : { ca });
  } catch (error) {
    throw new AppError(409, `url: ${(error as Error).message}`, "conflict");
  }
}
