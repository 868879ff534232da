import { MailCheck } from "lucide-react";
import { Button } from "../../../components/ui/button.tsx";

/** docs/product.md#routes-and-layout: what the login screen shows once the link is on its way. */
export function LoginSentNotice({ email, onRestart }: { email: string; onRestart: () => void }) {
  return (
    <div className="space-y-4 text-center" role="status" data-testid="login-sent">
      <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-emerald-50">
        <MailCheck aria-hidden="true" className="size-6 text-emerald-600" />
      </div>
      <p className="font-medium break-words text-slate-900">Login link sent to {email}</p>
      <p className="text-sm text-slate-500">No link? Check your spam folder.</p>
      <Button variant="secondary" onClick={onRestart} className="w-full">
        Use a different email
      </Button>
    </div>
  );
}
