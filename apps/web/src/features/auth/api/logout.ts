import { apiRequest } from "../../../lib/api-client.ts";

/** POST /auth/logout revokes the session server-side; docs/product.md#states ignores its errors. */
export async function logout(): Promise<void> {
  try {
    await apiRequest<{ success: true }>("/auth/logout", { method: "POST" });
  } catch {
    // Signing out locally must work even when the server cannot be reached.
  }
}
