import type { ConnectionTestData, ConnectionTestRequest, ConnectionTestResponse } from "@bytetoll/contracts";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiRequest } from "../../../lib/api-client.ts";

export const PROXY_TEST_FAILED = "Proxy test failed";

/** POST /credentials/test: fetch IP information through the proxy with these credentials. */
export async function testConnection(input: ConnectionTestRequest): Promise<ConnectionTestData> {
  try {
    const body = await apiRequest<ConnectionTestResponse>("/credentials/test", {
      method: "POST",
      json: input,
    });
    return body.data;
  } catch (error) {
    // docs/product.md#validation: the server's message, or this one when there is none.
    throw new Error(error instanceof ApiError && error.fromServer ? error.message : PROXY_TEST_FAILED);
  }
}

/** docs/product.md#test-connection: idle, pending, success or error. */
export function useTestConnection() {
  return useMutation({ mutationFn: testConnection });
}
