import { describe, expect, it } from "vitest";
import { ConfigError, loadGatewayConfig, parseEgressAllowTarget } from "./config.ts";

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
