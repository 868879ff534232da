import { ProxyAgent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ORIGIN_BODY,
  type RunningInstall,
  startRunningInstall,
} from "../../../apps/server/test/helpers/running-install.ts";
import { ByteTollError, createClient } from "../src/index.ts";

let install: RunningInstall;
let apiToken: string;

beforeAll(async () => {
  install = await startRunningInstall();
  apiToken = await install.apiToken("sdk-subusers@example.com");
});
afterAll(async () => {
  await install?.close();
});

describe("sub-users through the SDK", () => {
  it("creates one whose credentials work at the gateway, shows its usage, changes and deletes it", async () => {
    const sdk = createClient({ baseUrl: install.url, apiToken });
    const created = await sdk.subusers.create({ label: "crawler", limit_gb: 5, limit_period: "day" });
    expect(created).toMatchObject({ label: "crawler", limit_gb: 5, limit_period: "day", enabled: true });
    expect(await sdk.subusers.list()).toEqual([created]);

    const proxy = `http://${created.username}:${encodeURIComponent(created.password)}@127.0.0.1:${install.gatewayPort}`;
    const response = await undiciFetch(install.originUrl, { dispatcher: new ProxyAgent(proxy) });
    expect(await response.text()).toBe(ORIGIN_BODY);

    // The gateway's flush records the request a moment later.
    const rows = await vi.waitUntil(
      async () => {
        const usage = await sdk.usage({ group_by: "subuser", days: 1 });
        return usage.some((row) => row.subuser_id === created.id && row.mobile_requests > 0) && usage;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(rows.find((row) => row.subuser_id === created.id)).toMatchObject({
      value: "crawler",
      mobile_requests: 1,
    });
    const onlyIt = await sdk.usage({ group_by: "proxy_type", subuser: created.id });
    expect(onlyIt[0]?.mobile_requests).toBe(1);

    const disabled = await sdk.subusers.update(created.id, { enabled: false });
    expect(disabled.enabled).toBe(false);
    const renewed = await sdk.subusers.regeneratePassword(created.id);
    expect(renewed.password).not.toBe(created.password);
    await sdk.subusers.delete(created.id);
    const missing = await sdk.subusers.get(created.id).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ByteTollError);
    expect((missing as ByteTollError).status).toBe(404);
  });

  it("refuses bad input before sending it, naming the field", async () => {
    const sdk = createClient({ baseUrl: install.url, apiToken });
    const refused = await sdk.subusers.create({ label: "x", limit_gb: 0 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ByteTollError);
    expect((refused as ByteTollError).message).toContain("limit_gb");
    const badPeriod = await sdk.subusers
      // @ts-expect-error: a plain JavaScript caller may pass anything
      .update("id", { limit_period: "year" })
      .catch((error: unknown) => error);
    expect((badPeriod as ByteTollError).message).toContain("limit_period");
  });
});
