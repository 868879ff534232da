import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningInstall,
  startRunningInstall,
} from "../../../apps/server/test/helpers/running-install.ts";
import { ByteTollError, createClient } from "../src/index.ts";

let install: RunningInstall;
let apiToken: string;

beforeAll(async () => {
  install = await startRunningInstall();
  apiToken = await install.apiToken("sdk-auto-topup@example.com");
});
afterAll(async () => {
  await install?.close();
});

const on = { enabled: true, threshold_gb: 2, amount_usd: 30, monthly_cap_usd: 90 };

describe("auto top-up through the SDK", () => {
  it("reads the settings, is refused without a card, saves a card and turns it on, and removes the card", async () => {
    const sdk = createClient({ baseUrl: install.url, apiToken });
    expect(await sdk.autoTopup.get()).toMatchObject({ enabled: false, amount_usd: 50, card: null });
    const refused = await sdk.autoTopup.set(on).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ByteTollError);
    expect((refused as ByteTollError).status).toBe(409);
    expect((refused as ByteTollError).message).toBe("Add a card first");

    // The customer's browser opens the card page; the sandbox's saves a test card.
    const { redirect_url } = await sdk.autoTopup.addCard();
    const saved = await fetch(`${redirect_url}?card=pays`, { method: "POST", redirect: "manual" });
    expect(saved.status).toBe(303);
    expect((await sdk.autoTopup.get()).card).toEqual({ brand: "visa", last4: "4242" });
    expect(await sdk.autoTopup.set(on)).toMatchObject(on);
    expect(await sdk.autoTopup.removeCard()).toMatchObject({ enabled: false, card: null });
  });

  it("refuses bad input before sending it, naming the field", async () => {
    const sdk = createClient({ baseUrl: install.url, apiToken });
    const refused = await sdk.autoTopup.set({ ...on, monthly_cap_usd: 10 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ByteTollError);
    expect((refused as ByteTollError).message).toContain("monthly_cap_usd");
  });
});
