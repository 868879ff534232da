import { describe, expect, it, vi } from "vitest";
import { fail, ok, signInWithToken, stubApi } from "../test/api-stub.ts";
import { ApiError, apiRequest, NETWORK_ERROR_MESSAGE, SKIP_AUTH } from "./api-client.ts";

describe("apiRequest", () => {
  it("sends the bearer token, JSON body and no cookies", async () => {
    signInWithToken("tok-1");
    const api = stubApi({ "POST /things": ok({ id: 1 }) });
    const body = await apiRequest<{ data: { id: number } }>("/things", { method: "POST", json: { a: 1 } });
    expect(body.data.id).toBe(1);
    const [call] = api.calls;
    expect(call?.headers.get("Authorization")).toBe("Bearer tok-1");
    expect(call?.headers.get("Content-Type")).toBe("application/json");
    expect(call?.body).toEqual({ a: 1 });
    expect(call?.credentials).toBe("omit");
  });

  it("leaves the token off and strips X-Skip-Auth when asked to skip auth", async () => {
    signInWithToken("tok-2");
    const api = stubApi({ "GET /open": ok({}) });
    await apiRequest("/open", { headers: SKIP_AUTH });
    expect(api.calls[0]?.headers.has("Authorization")).toBe(false);
    expect(api.calls[0]?.headers.has("X-Skip-Auth")).toBe(false);
  });

  it("sends no token once it is within 10 s of expiry", async () => {
    signInWithToken("tok-3", 9);
    const api = stubApi({ "GET /me": ok({}) });
    await apiRequest("/me");
    expect(api.calls[0]?.headers.has("Authorization")).toBe(false);
  });

  it("turns {success:false, message} into an error carrying that message and status", async () => {
    stubApi({
      "POST /auth/login": fail(429, "Too many login requests. Please wait a few minutes and try again."),
    });
    const error = await apiRequest("/auth/login", { method: "POST", json: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      "Too many login requests. Please wait a few minutes and try again.",
    );
    expect((error as ApiError).status).toBe(429);
  });

  it("treats success:false as a failure even with HTTP 200", async () => {
    stubApi({ "GET /odd": Response.json({ success: false, message: "Nope" }) });
    await expect(apiRequest("/odd")).rejects.toThrow("Nope");
  });

  it("reports an unreachable server as a network error", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    await expect(apiRequest("/config")).rejects.toThrow(NETWORK_ERROR_MESSAGE);
  });
});
