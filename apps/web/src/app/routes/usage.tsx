import { UsagePage } from "../../features/usage/components/usage-page.tsx";

export function Component() {
  return <UsagePage />;
}
