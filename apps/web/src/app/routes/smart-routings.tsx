import { ScreenPlaceholder } from "../../components/layout/screen-placeholder.tsx";

export function Component() {
  return <ScreenPlaceholder title="Smart Routing" arrivesWith="the Intelligence issue" />;
}
