import { ScreenPlaceholder } from "../../components/layout/screen-placeholder.tsx";

export function Component() {
  return <ScreenPlaceholder title="Connect to Proxies" arrivesWith="issue 4 (the proxy gateway)" />;
}
