import { waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { ok, signInWithToken, stubApi, TEST_USER } from "../../test/api-stub.ts";
import { renderRoute } from "../../test/render-route.tsx";

describe("page titles", () => {
  beforeEach(() => {
    document.title = "ByteToll";
  });

  it.each([
    ["/login", "Sign in · ByteToll"],
    ["/connect", "Connect to Proxies · ByteToll"],
    ["/no/such/page", "Page Not Found · ByteToll"],
  ])("names %s for a visitor", async (path, title) => {
    stubApi();
    renderRoute(path);
    await waitFor(() => expect(document.title).toBe(title));
  });

  it.each([
    ["/", "Buy Data · ByteToll"],
    ["/usage", "Usage · ByteToll"],
    ["/smart-routings", "Smart Routing · ByteToll"],
    ["/checkout", "Checkout · ByteToll"],
    ["/checkout?order_id=ord_1", "Order · ByteToll"],
  ])("names %s for a signed-in user", async (path, title) => {
    signInWithToken();
    stubApi({ "GET /auth/session": ok(TEST_USER) });
    renderRoute(path);
    await waitFor(() => expect(document.title).toBe(title));
  });
});
