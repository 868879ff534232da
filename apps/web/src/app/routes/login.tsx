import { LoginPage } from "../../features/auth/components/login-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Sign in");
  return <LoginPage />;
}
