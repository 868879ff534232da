import { useQuery } from "@tanstack/react-query";
import { latestCredentialsQueryOptions } from "../api/get-latest-credentials.ts";
import { uniqueCredentialsQueryOptions } from "../api/get-unique-credentials.ts";

export type Audience = "loading" | "anonymous" | "signed-in";

export interface ConnectCredentials {
  username: string;
  password: string;
  isLoading: boolean;
  error: Error | null;
  /** True for an anonymous visitor's temporary set. */
  temporary: boolean;
}

/** Signed in: the account's own set; anonymous: a temporary one (docs/product.md#routes-and-layout, §6). */
export function useConnectCredentials(audience: Audience): ConnectCredentials {
  const latest = useQuery({ ...latestCredentialsQueryOptions(), enabled: audience === "signed-in" });
  const unique = useQuery({ ...uniqueCredentialsQueryOptions(), enabled: audience === "anonymous" });
  const query = audience === "anonymous" ? unique : latest;
  return {
    username: query.data?.username ?? "",
    password: query.data?.password ?? "",
    isLoading: audience === "loading" || query.isPending,
    error: query.data ? null : query.error,
    temporary: audience === "anonymous",
  };
}
