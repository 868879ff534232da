import { ScreenPlaceholder } from "../../components/layout/screen-placeholder.tsx";

export function Component() {
  return <ScreenPlaceholder title="Buy Data" arrivesWith="issue 3 (buying data)" />;
}
