import fc from "fast-check";
import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { DENIED, EgressGuard } from "./egress-guard.ts";
import { parseIpLiteral } from "./ip-address.ts";
import { Refusal } from "./refusal.ts";

const guard = new EgressGuard({ allow: [], resolveHost: async () => [], ownPorts: () => [] });

/** A 32-bit number as inet_aton reads one part: decimal, 0-prefixed octal or 0x hex. */
const v4Part = (value: number) =>
  fc.constantFrom(
    `${value}`,
    `0${value.toString(8)}`,
    `0x${value.toString(16)}`,
    `0X${value.toString(16).toUpperCase()}`,
  );

/** An IPv4 address in every notation a resolver accepts: a.b.c.d, a.b.cd, a.bcd, abcd, each part
 * in its own base, optionally with the trailing dot of a fully qualified name. */
function v4Notation(octets: number[]): fc.Arbitrary<string> {
  const [a = 0, b = 0, c = 0, d = 0] = octets;
  const splits = [
    [a, b, c, d],
    [a, b, c * 256 + d],
    [a, b * 65536 + c * 256 + d],
    [((a * 256 + b) * 256 + c) * 256 + d],
  ];
  return fc
    .constantFrom(...splits)
    .chain((parts) => fc.tuple(...parts.map(v4Part)))
    .chain((parts) => fc.constantFrom(parts.join("."), `${parts.join(".")}.`));
}

const hex = (n: number) => n.toString(16);

/** An IPv6 address as text: compressed or expanded, any case, leading zeros or not, the last 32
 * bits as a dotted quad or not, in brackets or not, with a zone or not. */
function v6Notation(parts: number[]): fc.Arbitrary<string> {
  const address = new ipaddr.IPv6(parts);
  const quad = `${parts[6]! >> 8}.${parts[6]! & 255}.${parts[7]! >> 8}.${parts[7]! & 255}`;
  const texts = [
    address.toString(),
    address.toNormalizedString(),
    parts.map((part) => hex(part).padStart(4, "0")).join(":"),
    `${parts.slice(0, 6).map(hex).join(":")}:${quad}`,
    new ipaddr.IPv6([...parts.slice(0, 6), 0xffff, 0xffff]).toString().replace(/ffff:ffff$/, quad),
  ];
  return fc
    .tuple(fc.constantFrom(...texts), fc.boolean(), fc.constantFrom("", "%eth0", "%25lo"), fc.boolean())
    .map(([text, upper, zone, bracketed]) => {
      const cased = upper ? text.toUpperCase() : text;
      return bracketed ? `[${cased}${zone}]` : `${cased}${zone}`;
    });
}

/** An address inside `cidr`: its prefix bits kept, the rest random. */
function inside(cidr: string): fc.Arbitrary<number[]> {
  const [base, prefix] = ipaddr.parseCIDR(cidr);
  const bytes = base.toByteArray();
  return fc
    .array(fc.integer({ min: 0, max: 255 }), { minLength: bytes.length, maxLength: bytes.length })
    .map((noise) =>
      bytes.map((byte, i) => {
        const kept = Math.max(0, Math.min(8, prefix - i * 8));
        const mask = (0xff << (8 - kept)) & 0xff;
        return (byte & mask) | ((noise[i] as number) & ~mask & 0xff);
      }),
    );
}

const toParts = (bytes: number[]) =>
  Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] as number) << 8) | (bytes[2 * i + 1] as number));

/** Any address in a denied range, written in any notation (an IPv4 one also IPv4-mapped,
 * IPv4-compatible and NAT64-embedded), with the canonical text of what it names. */
const deniedHost = fc.constantFrom(...DENIED.map(([cidr]) => cidr)).chain((cidr) =>
  inside(cidr).chain((bytes) => {
    if (bytes.length === 16) return v6Notation(toParts(bytes));
    const embedded = [
      [0, 0, 0, 0, 0, 0xffff],
      [0, 0, 0, 0, 0, 0],
      [0x64, 0xff9b, 0, 0, 0, 0],
    ].map((head) => [
      ...head,
      ((bytes[0] as number) << 8) | (bytes[1] as number),
      ((bytes[2] as number) << 8) | (bytes[3] as number),
    ]);
    return fc.oneof(v4Notation(bytes), ...embedded.map(v6Notation));
  }),
);

async function outcome(host: string): Promise<string> {
  try {
    await guard.vet(host, 443);
    return "allowed";
  } catch (error) {
    if (error instanceof Refusal) return error.code;
    throw error;
  }
}

describe("egress address classification, for any input", () => {
  it("reads any string as an IP literal or not, without throwing", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: "binary" }),
          fc.string({ unit: fc.constantFrom(..."0123456789abcdefx.:[]%".split("")) }),
        ),
        (host) => {
          const address = parseIpLiteral(host);
          expect(address === null || ["ipv4", "ipv6"].includes(address.kind())).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("answers any host with a dial target or a refusal, never another error", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.domain(), fc.ipV4Extended(), fc.ipV6()),
        async (host) => {
          expect(["allowed", "destination_forbidden", "bad_request", "upstream_failed"]).toContain(
            await outcome(host),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("refuses every address of every denied range in every notation", async () => {
    await fc.assert(
      fc.asyncProperty(deniedHost, async (host) => {
        expect(await outcome(host), host).toBe("destination_forbidden");
      }),
      { numRuns: 3000 },
    );
  });

  it("reads every notation of an address as that address", () => {
    const v4 = fc
      .array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 })
      .chain((octets) => v4Notation(octets).map((text) => [text, octets.join(".")]));
    const v6 = fc
      .array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 })
      .chain((parts) => v6Notation(parts).map((text) => [text, new ipaddr.IPv6(parts).toString()]));
    fc.assert(
      fc.property(fc.oneof(v4, v6), ([text, canonical]) => {
        expect(parseIpLiteral(text as string)?.toString(), text).toBe(canonical);
      }),
      { numRuns: 5000 },
    );
  });
});
