import { LoginPage } from "../../features/auth/components/login-page.tsx";

export function Component() {
  return <LoginPage />;
}
