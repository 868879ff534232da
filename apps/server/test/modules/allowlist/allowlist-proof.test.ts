import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, TEST_APP_URL, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

interface Pending {
  ip: string;
  proof_url: string | null;
  expires_at: string | null;
}

/** Saves a list as the dashboard does, from `from` (the address the request comes from). */
async function save(auth: string, ips: string[], from = "127.0.0.1") {
  const response = await t.app.inject({
    method: "POST",
    url: "/settings/allowlist",
    headers: bearer(auth),
    payload: { ips },
    remoteAddress: from,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { ips: string[]; pending: Pending[] };
}

const read = async (auth: string) =>
  (await t.app.inject({ method: "GET", url: "/settings/allowlist", headers: bearer(auth) })).json().data as {
    ips: string[];
    pending: Pending[];
  };

/** Fetches a proof link as curl would from `from`: no sign-in, no browser headers. */
const fetchProof = (url: string, from: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url: url.slice(TEST_APP_URL.length), remoteAddress: from, headers });

/** The account whose proven entry admits `address`, as the gateways read it (narrowest range wins). */
async function admittedAs(address: string): Promise<string | null> {
  const rows = await t.database.query<{ user_id: string }>(
    `SELECT user_id FROM ip_allowlist WHERE proven_at IS NOT NULL AND range >>= $1::inet
      ORDER BY masklen(range) DESC LIMIT 1`,
    [address],
  );
  return rows[0]?.user_id ?? null;
}

const proofUrl = (list: { pending: Pending[] }, ip: string) => {
  const url = list.pending.find((entry) => entry.ip === ip)?.proof_url;
  expect(url, `a proof link for ${ip}`).toMatch(new RegExp(`^${TEST_APP_URL}/allowlist/proof/[\\w-]{22,}$`));
  return url as string;
};

describe("IP allowlist proofs", () => {
  it("tell no one whether another account holds an address: the /24-narrowing attack learns nothing", async () => {
    const victim = await signIn(t.app, "proof-victim@example.com");
    const prober = await signIn(t.app, "proof-prober@example.com");
    expect((await save(victim.token, ["203.0.113.77"], "203.0.113.77")).pending).toEqual([]);
    expect(await admittedAs("203.0.113.77")).toBe(victim.id);

    // The attack of issue 35: list ranges and narrow down on the ones that are refused.
    const held = await save(prober.token, ["203.0.113.0/24", "198.51.100.0/24"]);
    expect(held.ips).toEqual(["203.0.113.0/24", "198.51.100.0/24"]);
    expect(held.pending.map((entry) => entry.ip)).toEqual(held.ips);
    const narrowed = await save(prober.token, ["203.0.113.77", "198.51.100.77"]);
    expect(narrowed.pending.map((entry) => entry.ip)).toEqual(["203.0.113.77", "198.51.100.77"]);
    expect(narrowed.pending.every((entry) => entry.proof_url !== null)).toBe(true);

    // Proving from elsewhere, and proving the victim's proven address from it, read the same.
    const fromElsewhere = await fetchProof(proofUrl(narrowed, "203.0.113.77"), "192.0.2.1");
    const fromTheAddress = await fetchProof(proofUrl(narrowed, "203.0.113.77"), "203.0.113.77");
    const fromFreeAddressElsewhere = await fetchProof(proofUrl(narrowed, "198.51.100.77"), "192.0.2.1");
    for (const refused of [fromElsewhere, fromTheAddress, fromFreeAddressElsewhere]) {
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(fromElsewhere.json());
      expect(refused.json().success).toBe(false);
    }
    expect(await admittedAs("203.0.113.77")).toBe(victim.id);
  });

  it("let no one squat an address: the owner proving it takes it from an unproven claim", async () => {
    const squatter = await signIn(t.app, "proof-squatter@example.com");
    const owner = await signIn(t.app, "proof-owner@example.com");
    const claim = await save(squatter.token, ["192.0.2.10"]);
    expect(await admittedAs("192.0.2.10")).toBeNull();
    // "Add my IP": the request comes from the address, which proves it at once.
    expect((await save(owner.token, ["192.0.2.10"], "192.0.2.10")).pending).toEqual([]);
    expect(await admittedAs("192.0.2.10")).toBe(owner.id);
    // The squatter's link, even fetched from the address, proves nothing now.
    expect((await fetchProof(proofUrl(claim, "192.0.2.10"), "192.0.2.10")).statusCode).toBe(403);
    expect(await admittedAs("192.0.2.10")).toBe(owner.id);
    expect((await read(squatter.token)).pending.map((entry) => entry.ip)).toEqual(["192.0.2.10"]);
  });

  it("prove an entry once, from an address it holds, with curl and no sign-in, until the link expires", async () => {
    const { token, id } = await signIn(t.app, "proof-link@example.com");
    const list = await save(token, ["198.18.0.0/24", "198.18.1.5"]);
    const url = proofUrl(list, "198.18.0.0/24");
    const proved = await fetchProof(url, "198.18.0.42");
    expect(proved.statusCode, proved.body).toBe(200);
    expect(proved.json()).toEqual({ success: true, data: { ip: "198.18.0.0/24" } });
    expect(await admittedAs("198.18.0.9")).toBe(id);
    expect((await fetchProof(url, "198.18.0.42")).statusCode).toBe(403);
    expect((await read(token)).pending.map((entry) => entry.ip)).toEqual(["198.18.1.5"]);

    // An expired link proves nothing; saving the list again gives a new one.
    await t.database.query(
      "UPDATE ip_allowlist SET proof_expires_at = now() - interval '1 second' WHERE user_id = $1 AND proven_at IS NULL",
      [id],
    );
    const expired = list.pending.find((entry) => entry.ip === "198.18.1.5")?.proof_url as string;
    expect((await fetchProof(expired, "198.18.1.5")).statusCode).toBe(403);
    expect((await read(token)).pending).toEqual([{ ip: "198.18.1.5", proof_url: null, expires_at: null }]);
    const renewed = proofUrl(await save(token, ["198.18.0.0/24", "198.18.1.5"]), "198.18.1.5");
    expect(renewed).not.toBe(expired);
    expect((await fetchProof(renewed, "198.18.1.5")).statusCode).toBe(200);
    expect((await read(token)).pending).toEqual([]);
    expect((await read(token)).ips).toEqual(["198.18.0.0/24", "198.18.1.5"]);
  });

  it("refuse a link another site makes a browser open, and prove one typed into the address bar", async () => {
    const { token } = await signIn(t.app, "proof-browser@example.com");
    const url = proofUrl(await save(token, ["198.18.2.7"]), "198.18.2.7");
    for (const site of ["cross-site", "same-site"]) {
      const refused = await fetchProof(url, "198.18.2.7", {
        "sec-fetch-site": site,
        "sec-fetch-dest": "image",
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().success).toBe(false);
    }
    expect((await read(token)).pending).toHaveLength(1);
    const typed = await fetchProof(url, "198.18.2.7", {
      "sec-fetch-site": "none",
      "sec-fetch-mode": "navigate",
    });
    expect(typed.statusCode).toBe(200);
  });

  it("let a narrower proven range take its addresses from a wider one of another account", async () => {
    const office = await signIn(t.app, "proof-office@example.com");
    const desk = await signIn(t.app, "proof-desk@example.com");
    await save(office.token, ["198.18.3.0/24"], "198.18.3.1");
    expect(await admittedAs("198.18.3.9")).toBe(office.id);
    expect((await save(desk.token, ["198.18.3.9"], "198.18.3.9")).pending).toEqual([]);
    expect(await admittedAs("198.18.3.9")).toBe(desk.id);
    expect(await admittedAs("198.18.3.10")).toBe(office.id);
  });

  it("give a range proven at the same moment by two accounts to exactly one", async () => {
    const users = await Promise.all(
      Array.from({ length: 4 }, (_, i) => signIn(t.app, `proof-race-${i}@example.com`)),
    );
    const lists = await Promise.all(users.map((user) => save(user.token, ["198.18.4.4"])));
    const answers = await Promise.all(
      lists.map((list) => fetchProof(proofUrl(list, "198.18.4.4"), "198.18.4.4")),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 403, 403, 403]);
    const winner = users[answers.findIndex((answer) => answer.statusCode === 200)];
    expect(await admittedAs("198.18.4.4")).toBe(winner?.id);
  });

  it("answers a made-up, odd or overlong link with a refusal, never a 5xx", async () => {
    const refused = await t.app.inject({ method: "GET", url: "/allowlist/proof/x" });
    for (const token of ["A".repeat(22), "a".repeat(64)]) {
      const response = await t.app.inject({ method: "GET", url: `/allowlist/proof/${token}` });
      expect(response.json(), token).toEqual(refused.json());
    }
    for (const token of ["%00", "%ff", "a".repeat(65)]) {
      const response = await t.app.inject({ method: "GET", url: `/allowlist/proof/${token}` });
      expect(response.statusCode, token).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, token).toBeLessThan(500);
      expect(response.json().success, token).toBe(false);
    }
  });
});
