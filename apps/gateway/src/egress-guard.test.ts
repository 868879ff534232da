import { describe, expect, it } from "vitest";
import { EgressGuard } from "./egress-guard.ts";

const resolveHost = async (host: string) => (host === "localhost" ? ["127.0.0.1", "::1"] : []);

function guard(ownPorts: number[] = []) {
  return new EgressGuard({
    allow: [],
    allowTargets: [
      { cidr: "127.0.0.1/32", port: 3000 },
      { cidr: "[::1]/128", port: 3000 },
    ],
    resolveHost,
    ownPorts: () => ownPorts,
  });
}

describe("EgressGuard allowance by address and port", () => {
  it("lets the listed port through on the listed ranges", async () => {
    await expect(guard().vet("127.0.0.1", 3000)).resolves.toMatchObject({ address: "127.0.0.1" });
    await expect(guard().vet("[::1]", 3000)).resolves.toMatchObject({ address: "::1" });
    await expect(guard().vet("localhost", 3000)).resolves.toMatchObject({ domain: "localhost" });
  });

  it("keeps every other port and address of the range closed", async () => {
    for (const [host, port] of [
      ["127.0.0.1", 5432],
      ["127.0.0.1", 6379],
      ["localhost", 5432],
      ["[::1]", 22],
      ["127.0.0.2", 3000],
      ["10.0.0.1", 3000],
    ] as const) {
      await expect(guard().vet(host, port), `${host}:${port}`).rejects.toMatchObject({
        code: "destination_forbidden",
      });
    }
  });

  it("never opens the gateway's own listening ports, even when listed", async () => {
    await expect(guard([3000]).vet("127.0.0.1", 3000)).rejects.toThrow(/gateway itself/);
  });
});
