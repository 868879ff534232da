import { describe, expect, it } from "vitest";
import { planEmbeddedGateway } from "../src/embedded-gateway.ts";
import { testConfig } from "./helpers/test-app.ts";

describe("the gateway npm start runs in the same process", () => {
  it("is not started when GATEWAY_DISABLED=true", () => {
    const env = { GATEWAY_DISABLED: "true" };
    expect(planEmbeddedGateway(testConfig(env), env)).toBeNull();
  });

  it("lets the connection test reach the built-in /ipinfo on loopback, and only then", () => {
    const builtIn = planEmbeddedGateway(testConfig(), {});
    expect(builtIn?.config.egressAllow).toEqual(["127.0.0.1/32"]);
    expect(builtIn?.dialHost).toBe("127.0.0.1");
    expect(builtIn?.config.metricsPort).toBeNull();

    const env = {
      IPINFO_URL: "https://ipinfo.io/json",
      EGRESS_ALLOW: "192.0.2.0/24",
      GATEWAY_BIND: "10.1.2.3",
    };
    const external = planEmbeddedGateway(testConfig(env), env);
    expect(external?.config.egressAllow).toEqual(["192.0.2.0/24"]);
    expect(external?.dialHost).toBe("10.1.2.3");
  });

  it("uses the configured ports", () => {
    const env = { GATEWAY_HTTP_PORT: "18080", GATEWAY_HTTPS_PORT: "18443" };
    const plan = planEmbeddedGateway(testConfig(env), env);
    expect([plan?.config.httpPort, plan?.config.httpsPort]).toEqual([18080, 18443]);
  });
});
