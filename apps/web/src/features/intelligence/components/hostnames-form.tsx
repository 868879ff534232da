import { type FormEvent, useId } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { classNames } from "../../../lib/class-names.ts";
import { useHostnamesForm } from "../hooks/use-hostnames-form.ts";

export const HOSTNAMES_PLACEHOLDER = "example.com\nshop.example.org\nhttps://news.example.net";

/** One hostname per line; the learner probes each within a minute of saving. */
export function HostnamesForm() {
  const form = useHostnamesForm();
  const fieldId = useId();
  const helpId = useId();
  const errorId = useId();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    form.submit();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-3" noValidate>
      <label htmlFor={fieldId} className="block text-sm font-medium text-slate-900">
        Hostnames
      </label>
      <textarea
        id={fieldId}
        rows={6}
        value={form.text}
        placeholder={HOSTNAMES_PLACEHOLDER}
        disabled={form.loading}
        onChange={(event) => form.change(event.target.value)}
        aria-invalid={form.error !== null}
        aria-describedby={form.error ? `${helpId} ${errorId}` : helpId}
        spellCheck={false}
        className={classNames(
          "block w-full rounded-md border px-3 py-2 font-mono text-sm text-slate-900 shadow-sm",
          "focus:outline-none focus:ring-2 focus:ring-indigo-500",
          form.error ? "border-red-400" : "border-slate-300",
        )}
      />
      <p id={helpId} className="text-xs text-slate-500">
        One hostname per line
      </p>
      {form.error ? (
        <p id={errorId} role="alert" className="text-sm text-red-600">
          {form.error}
        </p>
      ) : null}
      {form.loadError ? (
        <p role="alert" className="text-sm text-red-600">
          {form.loadError}
        </p>
      ) : null}
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={form.pending || form.loading || form.error !== null}>
          {form.pending ? "Saving…" : "Save"}
        </Button>
        {form.notice ? (
          <p
            role={form.notice.kind === "error" ? "alert" : "status"}
            className={classNames(
              "text-sm",
              form.notice.kind === "error" ? "text-red-600" : "text-green-700",
            )}
          >
            {form.notice.text}
            {form.notice.detail ? `: ${form.notice.detail}` : null}
          </p>
        ) : null}
      </div>
    </form>
  );
}
