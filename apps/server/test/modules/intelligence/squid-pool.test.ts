import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { loadGatewayConfig } from "@bytetoll/egress";
import { Prober } from "@bytetoll/gateway";
import { freePort, waitForPort } from "@bytetoll/gateway/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { DATACENTER_SOURCE, startTestSites, type TestSites } from "./support/test-sites.ts";

const SQUID = "/usr/sbin/squid";

/** Debian's squid with /etc/squid/squid.conf as shipped (CONNECT only to 443), placed for the
 * test: a private port and directory, the test sites' names in its hosts file, and the datacenter
 * source address the sites tell datacenter traffic by. */
async function startSquid(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  writeFileSync(join(dir, "hosts"), "127.0.0.1 served.test guarded.test\n");
  const defaults = readFileSync("/etc/squid/squid.conf", "utf8")
    .split("\n")
    .filter((line) => !/^\s*(http_port|coredump_dir|include)\b/.test(line));
  writeFileSync(
    join(dir, "squid.conf"),
    [
      ...defaults,
      `http_port 127.0.0.1:${port}`,
      `coredump_dir ${dir}`,
      `pid_filename ${join(dir, "squid.pid")}`,
      `cache_log ${join(dir, "cache.log")}`,
      "access_log none",
      "shutdown_lifetime 0 seconds",
      `hosts_file ${join(dir, "hosts")}`,
      `tcp_outgoing_address ${DATACENTER_SOURCE}`,
      ...(process.getuid?.() === 0 ? ["cache_effective_user proxy", "cache_effective_group proxy"] : []),
    ].join("\n"),
  );
  const child = spawn(SQUID, ["-N", "-f", join(dir, "squid.conf")], { stdio: "ignore" });
  await waitForPort(port);
  return { url: `http://127.0.0.1:${port}`, child };
}

let sites: TestSites;
let database: TestDatabase;
let t: TestApp;
let dir: string;
let squid: { url: string; child: ChildProcess };

beforeAll(async () => {
  if (!existsSync(SQUID)) throw new Error("squid (Debian) is needed");
  dir = mkdtempSync(join(tmpdir(), "learner-squid-"));
  chmodSync(dir, 0o777);
  squid = await startSquid(dir);
  sites = await startTestSites({ "served.test": "serves", "guarded.test": "blocks-datacenter" });
  database = await createTestDatabase();
  const network = {
    ...loadGatewayConfig({ EGRESS_ALLOW: "127.0.0.1/32", DATACENTER_UPSTREAMS: squid.url }),
    resolveHost: async (host: string) => (host.endsWith(".test") ? ["127.0.0.1"] : []),
  };
  t = await createTestApp(
    {},
    {
      database,
      beforeReady: (app) =>
        app.intelligence.learner.configure({
          prober: new Prober(network),
          settings: { tickMs: 200, ports: { http: sites.port, https: sites.port } },
        }),
    },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await database?.close();
  await sites?.close();
  squid?.child.kill("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the learner behind a squid datacenter pool in its default configuration", () => {
  it("judges a site that serves datacenter eligible and one that blocks it blocked", async () => {
    const user = await signIn(t.app, "learner-squid@example.com");
    await t.app.inject({
      method: "POST",
      url: "/settings/hostnames",
      headers: bearer(user.token),
      payload: { hostnames: ["served.test", "guarded.test"] },
    });
    const rules = await vi.waitFor(
      async () => {
        const listed: { rule: string; service: string; verdict: string }[] = (
          await t.app.inject({ method: "GET", url: "/settings/routing/rules", headers: bearer(user.token) })
        ).json().data;
        expect(listed.length).toBeGreaterThanOrEqual(2);
        return listed;
      },
      { timeout: 60_000, interval: 200 },
    );
    expect(rules.find((rule) => rule.rule === "served.test")).toMatchObject({
      service: "datacenter",
      verdict: "eligible",
    });
    expect(rules.find((rule) => rule.rule === "guarded.test")).toMatchObject({
      service: "premium",
      verdict: "blocked",
    });
    // The datacenter probes reached the sites through squid, from the datacenter address.
    expect(sites.requests.some((request) => request.host === "served.test" && request.fromDatacenter)).toBe(
      true,
    );
  }, 90_000);
});
