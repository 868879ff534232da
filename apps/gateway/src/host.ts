import type { GatewayHost } from "@bytetoll/egress";
import { createGateway } from "./gateway.ts";
import { Prober } from "./probe/probe.ts";
import { DestinationPolicy } from "./route/destination-policy.ts";

/** The gateway app as the API server hosts it (`npm start`): its gateway and its probes. */
export const gatewayHost: GatewayHost = {
  createGateway,

  async startLearnerProbes({ database, config, logger, consoleExitsKey }) {
    const destinations = new DestinationPolicy(database, logger);
    const prober = new Prober(config, { destinations });
    const stopExits = await prober.followConsoleExits(database, consoleExitsKey, logger);
    await destinations.start();
    return {
      probes: prober,
      async stop() {
        await stopExits();
        await destinations.stop();
      },
    };
  },

  exitProbes: (config, timeoutMs) => new Prober(config, { timeoutMs }),
};
