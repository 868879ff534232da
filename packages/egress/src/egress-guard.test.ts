import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";
import { EgressGuard, IP_INFO_ADDRESS, IP_INFO_HOST } from "./egress-guard.ts";

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

/** This host's addresses as the guard sees them, interfaces included. */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((entry) => (entry.family === "IPv6" ? `[${entry.address.split("%")[0]}]` : entry.address));
}

describe("EgressGuard and the ports of its own process", () => {
  // Everything opened, as a careless EGRESS_ALLOW or EGRESS_ALLOW_TARGETS would.
  const wideOpen = new EgressGuard({
    allow: ["0.0.0.0/0", "::/0"],
    allowTargets: [{ cidr: "127.0.0.1/32", port: 3000 }],
    resolveHost,
    ownPorts: () => [3000, 8080],
  });

  it("refuses them on every address of this host, whatever is allowed", async () => {
    const hosts = [
      "127.0.0.1",
      "127.9.8.7",
      "2130706433",
      "localhost",
      "[::1]",
      "0.0.0.0",
      "0",
      "[::]",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      ...interfaceAddresses(),
    ];
    for (const host of hosts) {
      for (const port of [3000, 8080]) {
        await expect(wideOpen.vet(host, port), `${host}:${port}`).rejects.toMatchObject({
          code: "destination_forbidden",
          message: expect.stringMatching(/gateway itself/),
        });
      }
    }
  });

  it("leaves the other ports to the allowance", async () => {
    await expect(wideOpen.vet("127.0.0.1", 5432)).resolves.toMatchObject({ address: "127.0.0.1" });
  });
});

describe("the gateway's own IP-info host", () => {
  it("is answered by the gateway on port 80, never resolved or dialled", async () => {
    const vetted = await guard().vet(IP_INFO_HOST.toUpperCase(), 80);
    expect(vetted).toEqual({ address: IP_INFO_ADDRESS, port: 80, domain: IP_INFO_HOST });
  });

  it("is an unknown name on any other port", async () => {
    await expect(guard().vet(IP_INFO_HOST, 443)).rejects.toMatchObject({ code: "upstream_failed" });
  });
});
