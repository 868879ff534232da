import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ConfigError,
  loadGatewayConfig,
  parseEgressAllowTarget,
  parseGatewayEnv,
  workerCount,
} from "@bytetoll/egress";
import { afterAll, describe, expect, it } from "vitest";
import { selfSignedCertificate } from "../src/base/tls-certificate.ts";

describe("EGRESS_ALLOW_TARGETS", () => {
  it("reads CIDR:port entries of both families", () => {
    const config = loadGatewayConfig({
      EGRESS_ALLOW_TARGETS: "127.0.0.1/32:3000, [::1]/128:3000,10.0.0.5:80",
    });
    expect(config.egressAllowTargets).toEqual([
      { cidr: "127.0.0.1/32", port: 3000 },
      { cidr: "[::1]/128", port: 3000 },
      { cidr: "10.0.0.5", port: 80 },
    ]);
    expect(loadGatewayConfig({}).egressAllowTargets).toEqual([]);
  });

  it("rejects entries without a usable port or range, naming the variable", () => {
    for (const bad of [
      "127.0.0.1/32",
      "127.0.0.1/32:0",
      "127.0.0.1/32:70000",
      "::1/128:3000",
      "nope:80",
      "[::1]:",
    ]) {
      expect(parseEgressAllowTarget(bad), bad).toBeNull();
      expect(() => loadGatewayConfig({ EGRESS_ALLOW_TARGETS: bad }), bad).toThrow(ConfigError);
      expect(() => loadGatewayConfig({ EGRESS_ALLOW_TARGETS: bad }), bad).toThrow(/EGRESS_ALLOW_TARGETS/);
    }
  });
});

describe("UPSTREAM_CA_FILE", () => {
  const dir = mkdtempSync(join(tmpdir(), "bytetoll-config-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("trusts the file's certificates for https upstreams only", async () => {
    const { cert } = await selfSignedCertificate(undefined);
    const config = loadGatewayConfig({
      UPSTREAM_CA_FILE: file("ca.pem", `# private exits\n${cert}`),
      MOBILE_UPSTREAMS: "https://u:p@exit.example:8443,http://plain.example:3128",
      DATACENTER_UPSTREAMS: "direct",
    });
    const [secure, plain] = config.mobileUpstreams;
    expect(secure).toMatchObject({ kind: "https", host: "exit.example", ca: cert.trim() });
    expect(plain).not.toHaveProperty("ca");
    expect(
      loadGatewayConfig({ MOBILE_UPSTREAMS: "https://exit.example" }).mobileUpstreams[0],
    ).not.toHaveProperty("ca");
  });

  it("stops the start with a message naming the variable when the file is missing or holds no certificate", () => {
    const cases = [
      [join(dir, "missing.pem"), /UPSTREAM_CA_FILE: cannot read ".*missing\.pem" \(ENOENT\)/],
      [file("empty.pem", "not a certificate\n"), /UPSTREAM_CA_FILE: ".*empty\.pem" holds no PEM certificate/],
      [
        file("broken.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"),
        /UPSTREAM_CA_FILE: ".*broken\.pem" holds a certificate that does not parse/,
      ],
    ] as const;
    for (const [path, message] of cases) {
      expect(() => loadGatewayConfig({ UPSTREAM_CA_FILE: path }), path).toThrow(ConfigError);
      expect(() => loadGatewayConfig({ UPSTREAM_CA_FILE: path }), path).toThrow(message);
    }
  });
});

describe("the gateway's variables", () => {
  it("takes port 0 (any free port) and GATEWAY_METRICS_PORT=off", () => {
    const config = loadGatewayConfig({
      GATEWAY_HTTP_PORT: "0",
      GATEWAY_HTTPS_PORT: "0",
      GATEWAY_METRICS_PORT: "off",
    });
    expect([config.httpPort, config.httpsPort, config.metricsPort]).toEqual([0, 0, null]);
    expect(loadGatewayConfig({ GATEWAY_METRICS_PORT: "9500" }).metricsPort).toBe(9500);
    expect(loadGatewayConfig({}).metricsPort).toBe(9464);
  });

  it.each([
    ["GATEWAY_HTTP_PORT", "70000"],
    ["GATEWAY_HTTPS_PORT", "http"],
    ["GATEWAY_METRICS_PORT", "on"],
    ["GATEWAY_MAX_CONNECTIONS", "0"],
    ["GATEWAY_MAX_CONNECTIONS_PER_IP", "many"],
    ["GATEWAY_HEAD_TIMEOUT_MS", "-1"],
    ["PRICE_PER_GB_USD", "free"],
    ["MOBILE_UPSTREAMS", "ftp://exit.example"],
    ["DATACENTER_UPSTREAMS", ","],
    ["DATABASE_URL", "mysql://db.example"],
    ["GATEWAY_TLS_CERT", "-----BEGIN CERTIFICATE-----"],
  ])("stops on %s=%j with one problem naming it", (name, value) => {
    let problems: string[] = [];
    try {
      loadGatewayConfig({ [name]: value });
    } catch (error) {
      if (error instanceof ConfigError) problems = error.problems;
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^(${name}|GATEWAY_TLS_KEY): `));
  });

  it("reads GATEWAY_TLS_CERT/_KEY as PEM text or as the path of a PEM file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bytetoll-tls-"));
    try {
      const { cert, key } = await selfSignedCertificate(undefined);
      writeFileSync(join(dir, "cert.pem"), cert);
      const config = loadGatewayConfig({ GATEWAY_TLS_CERT: join(dir, "cert.pem"), GATEWAY_TLS_KEY: key });
      expect(config.tls).toEqual({ cert, key });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("GATEWAY_WORKERS", () => {
  const pg = "postgres://gateway@db.example/bytetoll";
  it("is one process per core on PostgreSQL, one on the embedded database, unless set", () => {
    expect(workerCount(parseGatewayEnv({ DATABASE_URL: pg }), 16)).toBe(16);
    expect(workerCount(parseGatewayEnv({}), 16)).toBe(1);
    expect(workerCount(parseGatewayEnv({ DATABASE_URL: pg, GATEWAY_WORKERS: "3" }), 16)).toBe(3);
  });

  it("stops the start naming the variable when it is not a count, or above 1 without PostgreSQL", () => {
    for (const bad of ["0", "two", "1.5"])
      expect(() => parseGatewayEnv({ DATABASE_URL: pg, GATEWAY_WORKERS: bad }), bad).toThrow(
        /GATEWAY_WORKERS/,
      );
    expect(() => parseGatewayEnv({ GATEWAY_WORKERS: "2" })).toThrow(
      /GATEWAY_WORKERS: more than 1 needs DATABASE_URL/,
    );
  });
});
