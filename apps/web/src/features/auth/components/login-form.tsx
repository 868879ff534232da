import { LoaderCircle, Mail } from "lucide-react";
import { type FormEvent, useId } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { classNames } from "../../../lib/class-names.ts";
import type { useLoginForm } from "../hooks/use-login-form.ts";

type LoginFormModel = ReturnType<typeof useLoginForm>;

/** The e-mail field and its button (docs/product.md#login, §5 validation). */
export function LoginForm({ form }: { form: LoginFormModel }) {
  const inputId = useId();
  const messageId = useId();
  const submitting = form.status === "submitting";

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submit();
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Login">
      <div className="space-y-1.5">
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
          Email address
        </label>
        <div className="relative">
          <Mail
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
          />
          <input
            id={inputId}
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder="Enter your email"
            value={form.email}
            onChange={(event) => form.onEmailChange(event.target.value)}
            onBlur={form.onEmailBlur}
            aria-invalid={form.message ? true : undefined}
            aria-describedby={form.message ? messageId : undefined}
            data-testid="login-email"
            className={classNames(
              "block w-full rounded-lg border bg-white py-2.5 pr-3 pl-9 text-sm text-slate-900 shadow-sm",
              "placeholder:text-slate-400 focus:outline-none focus:ring-2",
              form.message
                ? "border-red-400 focus:border-red-500 focus:ring-red-200"
                : "border-slate-300 focus:border-indigo-500 focus:ring-indigo-200",
            )}
          />
        </div>
        {form.message ? (
          <p id={messageId} role="alert" className="text-sm text-red-600" data-testid="login-message">
            {form.message}
          </p>
        ) : null}
      </div>
      <Button
        type="submit"
        disabled={form.disabled}
        aria-busy={submitting || undefined}
        className="w-full"
        data-testid="login-submit"
      >
        {submitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
        Send Me a Login Link
      </Button>
    </form>
  );
}
