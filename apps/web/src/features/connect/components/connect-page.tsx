import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { proxyServerQueryOptions } from "../api/get-proxy-server.ts";
import { type Audience, useConnectCredentials } from "../hooks/use-connect-credentials.ts";
import { useUsernameOptions } from "../hooks/use-username-options.ts";
import { proxyUsername } from "../username-options.ts";
import { ApiAccessCard } from "./api-access-card.tsx";
import { AuthorizedIpsCard } from "./authorized-ips-card.tsx";
import { CredentialsCard } from "./credentials-card.tsx";
import { ExampleCodeCard } from "./example-code-card.tsx";
import { ProxyListCard } from "./proxy-list-card.tsx";
import { ProxyServerCard } from "./proxy-server-card.tsx";

export interface ConnectPageProps {
  audience: Audience;
  /** Shown above the cards (the route module passes the zero-balance warning). */
  notice?: ReactNode;
}

/** docs/product.md#connect-to-proxies. */
export function ConnectPage({ audience, notice }: ConnectPageProps) {
  const server = useQuery(proxyServerQueryOptions());
  const credentials = useConnectCredentials(audience);
  const options = useUsernameOptions();
  const username = proxyUsername(credentials.username, options);
  const proxy = server.data ? { host: server.data.host, port: server.data.http_port } : null;
  const example =
    proxy && server.data && username && credentials.password
      ? { ...proxy, username, password: credentials.password, socksPort: server.data.socks_port }
      : null;

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <header>
        <h1 className="text-2xl font-semibold text-slate-900">Connect to Proxies</h1>
        <p className="mt-1 text-sm text-slate-600">
          Point any HTTP or SOCKS5 client at the proxy server below with your credentials.
        </p>
      </header>
      {notice}
      <ProxyServerCard server={server.data} />
      <CredentialsCard credentials={credentials} username={username} options={options} proxy={proxy} />
      <ExampleCodeCard input={example} />
      {audience === "signed-in" ? (
        <ProxyListCard options={options} socks={Boolean(server.data?.socks_port)} />
      ) : null}
      {audience === "signed-in" ? (
        <AuthorizedIpsCard
          proxy={proxy && server.data ? { ...proxy, socksPort: server.data.socks_port } : null}
        />
      ) : null}
      <ApiAccessCard signedIn={audience === "signed-in"} />
    </div>
  );
}
