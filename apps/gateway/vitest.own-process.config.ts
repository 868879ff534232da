import { defineProject } from "vitest/config";
import { gatewayTest, OWN_PROCESS } from "./vitest.config.ts";

export default defineProject({
  test: { ...gatewayTest, name: "gateway-own-process", include: OWN_PROCESS, isolate: true },
});
