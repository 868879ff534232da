import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { AccountDisabledGate } from "../features/auth/components/account-disabled-notice.tsx";

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AccountDisabledGate>{children}</AccountDisabledGate>
    </QueryClientProvider>
  );
}
