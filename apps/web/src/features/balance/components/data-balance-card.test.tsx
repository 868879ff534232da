import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-client.ts";
import { ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { pageOf } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import { retryBalance } from "../api/get-account-status.ts";

const ZERO = "Your account has 0 GB of data. Buy more data to continue using your proxy.";

function dashboard(overrides: Parameters<typeof stubApi>[0] = {}) {
  signInWithToken();
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /transactions": Response.json(pageOf([])),
    ...overrides,
  });
}

describe("Data Balance card", () => {
  it("shows the balance in GB without the zero warning", async () => {
    dashboard({ "GET /account/status": ok({ balance_gb: 6, balance_bytes: 6e9 }) });
    renderRoute("/");
    expect(await screen.findByTestId("balance-gb")).toHaveTextContent("6 GB");
    expect(screen.queryByText(ZERO)).not.toBeInTheDocument();
  });

  it("warns at 0 GB", async () => {
    dashboard({ "GET /account/status": ok({ balance_gb: 0, balance_bytes: 0 }) });
    renderRoute("/");
    expect(await screen.findByText(ZERO)).toBeInTheDocument();
    expect(screen.getByTestId("balance-gb")).toHaveTextContent("0 GB");
  });

  it("does not retry a refused token but retries other failures up to 3 times", () => {
    expect(retryBalance(0, new ApiError("Unauthorized", 401, true))).toBe(false);
    expect(retryBalance(0, new ApiError("Forbidden", 403, true))).toBe(false);
    expect(retryBalance(0, new ApiError("Internal server error", 500, true))).toBe(true);
    expect(retryBalance(2, new ApiError("Network error", 0))).toBe(true);
    expect(retryBalance(3, new ApiError("Network error", 0))).toBe(false);
  });
});
