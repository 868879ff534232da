import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadGatewayConfig, parseEgressAllowTarget } from "./config.ts";
import { selfSignedCertificate } from "./tls-certificate.ts";

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
