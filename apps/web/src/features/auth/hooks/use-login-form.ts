import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../../../lib/api-client.ts";
import { requestLoginLink } from "../api/request-login-link.ts";
import { EMAIL_VALIDATION_DELAY_MS, emailProblem } from "../email-validation.ts";
import { buildLoginRequest, type LoginPrefill } from "../login-request.ts";

/** docs/product.md#login states, plus the in-flight submit. */
export type LoginFormStatus = "stale" | "submitting" | "error" | "submitted";

export const LOGIN_FAILED_MESSAGE = "Login failed";

/** docs/product.md#messages: the error's own message, or "Login failed" when it has none worth showing. */
function loginErrorMessage(error: unknown): string {
  // A bare HTTP status (a proxy's 502 page, say) tells the person nothing.
  if (error instanceof ApiError && error.status !== 0 && !error.fromServer) return LOGIN_FAILED_MESSAGE;
  return error instanceof Error && error.message ? error.message : LOGIN_FAILED_MESSAGE;
}

export interface LoginFormOptions {
  search: URLSearchParams;
  prefill: LoginPrefill | null;
  /** True while the session is still initialising: submitting is not allowed yet. */
  initialising: boolean;
}

export function useLoginForm({ search, prefill, initialising }: LoginFormOptions) {
  const [email, setEmail] = useState("");
  const [status, setStatus] = useState<LoginFormStatus>("stale");
  const [validationMessage, setValidationMessage] = useState<string | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const cancelTimer = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  }, []);
  useEffect(() => cancelTimer, [cancelTimer]);

  /** The field's problem, empty included: shown once typing has stopped or the field is left. */
  const showProblem = useCallback((value: string) => {
    setValidationMessage(emailProblem(value));
  }, []);

  const onEmailChange = useCallback(
    (value: string) => {
      setEmail(value);
      setValidationMessage(null);
      // docs/product.md#states: editing after an error returns the form to stale.
      setStatus((current) => (current === "error" ? "stale" : current));
      setSubmitError(null);
      cancelTimer();
      timer.current = setTimeout(() => showProblem(value), EMAIL_VALIDATION_DELAY_MS);
    },
    [cancelTimer, showProblem],
  );

  const onEmailBlur = useCallback(() => {
    cancelTimer();
    showProblem(email);
  }, [cancelTimer, showProblem, email]);

  const submit = useCallback(async () => {
    cancelTimer();
    const problem = emailProblem(email);
    if (problem) {
      setValidationMessage(problem);
      return;
    }
    if (initialising || status === "submitting") return;
    const address = email.trim();
    setStatus("submitting");
    setSubmitError(null);
    try {
      await requestLoginLink(buildLoginRequest(address, search, prefill));
      setSentTo(address);
      setStatus("submitted");
    } catch (error) {
      setSubmitError(loginErrorMessage(error));
      setStatus("error");
    }
  }, [cancelTimer, email, initialising, status, search, prefill]);

  const restart = useCallback(() => {
    setStatus("stale");
    setSubmitError(null);
    setValidationMessage(null);
  }, []);

  const trimmed = email.trim();
  const disabled =
    trimmed.length === 0 || status === "submitting" || emailProblem(trimmed) !== null || initialising;

  return {
    email,
    status,
    sentTo,
    /** The one message under the field: a failed submit wins over validation. */
    message: status === "error" ? submitError : validationMessage,
    disabled,
    onEmailChange,
    onEmailBlur,
    submit,
    restart,
  };
}
