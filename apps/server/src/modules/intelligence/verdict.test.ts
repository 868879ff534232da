import type { ProbeResponse } from "@bytetoll/egress";
import { describe, expect, it } from "vitest";
import { blockSignal, judgeProbe, type SchemeProbe } from "./verdict.ts";

const PAGE = `<html><body>${"<p>catalogue</p>".repeat(400)}</body></html>`;

function answer(status: number, body = PAGE, headers: Record<string, string> = {}): ProbeResponse {
  const bytes = Buffer.from(body);
  return { status, headers, body: bytes, bytes: bytes.length, error: null };
}
const failure = (error: string): ProbeResponse => ({
  status: null,
  headers: {},
  body: Buffer.alloc(0),
  bytes: 0,
  error,
});
const pair = (dc: ProbeResponse, mobile: ProbeResponse = answer(200)): SchemeProbe[] => [
  { scheme: "http", url: "http://shop.example:80/", dc, mobile },
];

describe("block signals", () => {
  it.each([
    [
      "Cloudflare's cf-mitigated header",
      answer(403, "Just a moment", { "cf-mitigated": "challenge" }),
      "cloudflare challenge",
    ],
    [
      "a Cloudflare 503 challenge page",
      answer(503, '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate"></script>', {
        server: "cloudflare",
      }),
      "cloudflare challenge page",
    ],
    [
      "Turnstile",
      answer(200, '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>'),
      "cloudflare turnstile in page",
    ],
    [
      "Incapsula",
      answer(200, '<iframe src="/_Incapsula_Resource?SWJIYLWA=5074a744"></iframe>'),
      "incapsula block page",
    ],
    [
      "Akamai",
      answer(403, "<H1>Access Denied</H1> Reference #18.2d351ab8.1700000000.5c2a", { server: "AkamaiGHost" }),
      "akamai access denied",
    ],
    [
      "a captcha in any case",
      answer(200, "<div>Please complete the reCAPTCHA</div>"),
      "captcha in page (status 200)",
    ],
    ["a refusal status", answer(429, "slow down"), "status 429"],
    [
      "a redirect to another host's login page",
      answer(302, "", { location: "https://accounts.example/signin?next=/" }),
      "redirect to accounts.example/signin",
    ],
  ])("names %s", (_what, response, signal) => {
    expect(blockSignal(response, "shop.example")).toBe(signal);
  });

  it("sees nothing in an ordinary page, a redirect on the same host, or one to another host's home page", () => {
    expect(blockSignal(answer(200), "shop.example")).toBeNull();
    expect(blockSignal(answer(301, "", { location: "/login" }), "shop.example")).toBeNull();
    expect(
      blockSignal(answer(301, "", { location: "https://www.shop.example/" }), "shop.example"),
    ).toBeNull();
  });
});

describe("a probe's verdict", () => {
  it("is eligible when datacenter is served like mobile", () => {
    expect(judgeProbe("shop.example", pair(answer(200))).verdict).toBe("eligible");
  });

  it("is blocked by a refusal through datacenter only, with the signal that decided", () => {
    const judged = judgeProbe("shop.example", pair(answer(403, "Access blocked. Solve the captcha.")));
    expect(judged).toMatchObject({
      verdict: "blocked",
      signal: "captcha in page (status 403) (http://shop.example:80/)",
    });
    expect(judged.observations.map((o) => [o.pool, o.status, o.signal])).toEqual([
      ["dc", 403, "captcha in page (status 403)"],
      ["mobile", 200, null],
    ]);
  });

  it("is blocked when the datacenter page is much smaller than the mobile one", () => {
    expect(judgeProbe("shop.example", pair(answer(200, "<html>tiny</html>"))).signal).toMatch(
      /^page much smaller/,
    );
  });

  it("is blocked by a TLS or connection failure through datacenter only", () => {
    expect(judgeProbe("shop.example", pair(failure("tls: socket hang up"))).signal).toMatch(
      /^tls failure through datacenter only/,
    );
    expect(judgeProbe("shop.example", pair(failure("connect: ECONNRESET"))).signal).toMatch(
      /^connect failure/,
    );
  });

  it("stays unknown when both pools fail or both are refused: that says nothing about datacenter", () => {
    expect(judgeProbe("shop.example", pair(failure("connect: x"), failure("connect: y"))).verdict).toBe(
      "unknown",
    );
    expect(judgeProbe("shop.example", pair(answer(403, "no"), answer(403, "no"))).verdict).toBe("unknown");
  });

  it("stays unknown when the datacenter pool's own exit is down: that is ours, not the site's", () => {
    expect(
      judgeProbe("shop.example", pair(failure("exit: connect ECONNREFUSED 10.9.9.9:3128"))).verdict,
    ).toBe("unknown");
  });

  it("a refusal on one scheme outweighs a clean answer on the other", () => {
    const probes = [
      ...pair(answer(200)),
      {
        scheme: "https" as const,
        url: "https://shop.example:443/",
        dc: answer(403, "denied"),
        mobile: answer(200),
      },
    ];
    expect(judgeProbe("shop.example", probes)).toMatchObject({
      verdict: "blocked",
      signal: "status 403 (https://shop.example:443/)",
    });
  });
});
