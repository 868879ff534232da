import { encodeDealId } from "@bytetoll/contracts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { dealFixture } from "../../../test/deal-fixture.ts";
import { pageOf } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";

vi.mock("socket.io-client", () => import("../../../test/fake-socket.ts"));

describe("a flash sale in Promotions", () => {
  it("says how long an unpaid order holds its units, and how many unpaid orders one may hold", async () => {
    signInWithToken("flash-hold-jwt");
    stubApi({
      "GET /auth/session": ok(TEST_USER),
      "GET /account/status": ok({ balance_gb: 1, balance_bytes: 1e9 }),
      "GET /transactions": Response.json(pageOf([])),
      "GET /deals/latestv2": ok([dealFixture({ id: encodeDealId(21), deal_title: "Flash" })]),
    });
    renderRoute("/");
    const flash = await screen.findByRole("article", { name: "Flash" });
    expect(within(flash).getByTestId("flash-sale-hold")).toHaveTextContent(
      "Your units are held for 15 minutes while you pay (an ordinary order waits 60), at most 3 unpaid orders per sale.",
    );
  });
});
