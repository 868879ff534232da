import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const providers = async (app: TestApp) => {
  const { data } = (await app.app.inject({ method: "GET", url: "/config" })).json();
  return { crypto_provider: data.crypto_provider, card_provider: data.card_provider };
};

describe("GET /config: the payment providers a checkout names", () => {
  it("are the sandbox for USDC and cards when none is configured", async () => {
    expect(await providers(t)).toEqual({ crypto_provider: "sandbox", card_provider: "sandbox" });
  });

  it("are NOWPayments and Stripe when the operator configured them", async () => {
    const configured = await createTestApp(
      {
        CRYPTO_PROVIDER: "nowpayments",
        NOWPAYMENTS_API_KEY: "np-key",
        NOWPAYMENTS_IPN_SECRET: "np-secret",
        STRIPE_SECRET_KEY: "sk_test_123",
        STRIPE_WEBHOOK_SECRET: "whsec_123",
      },
      { database: t.database },
    );
    onTestFinished(() => configured.close());
    expect(await providers(configured)).toEqual({ crypto_provider: "nowpayments", card_provider: "stripe" });
  });
});
