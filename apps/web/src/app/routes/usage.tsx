import { ScreenPlaceholder } from "../../components/layout/screen-placeholder.tsx";

export function Component() {
  return <ScreenPlaceholder title="Usage" arrivesWith="issue 5 (usage statistics)" />;
}
