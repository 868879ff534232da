import { firstInvalidHostnameLine, HOSTNAMES_INVALID, parseHostnameLines } from "@bytetoll/contracts";
import { useRef, useState } from "react";
import { ApiError } from "../../../lib/api-client.ts";
import { useHostnames } from "../api/get-hostnames.ts";
import { useSaveHostnames } from "../api/save-hostnames.ts";

export const HOSTNAMES_SAVED = "Hostnames saved";
export const HOSTNAMES_SAVE_FAILED = "Failed to save hostnames";

export type SaveNotice = { kind: "success" | "error"; text: string; detail?: string };

const linesOf = (text: string) => text.split(/\r?\n/);

/** The check's message; for a line that is no hostname, which line it is. */
function errorOf(check: ReturnType<typeof parseHostnameLines> | null, text: string): string | null {
  if (!check || check.ok) return null;
  if (check.message !== HOSTNAMES_INVALID) return check.message;
  const bad = firstInvalidHostnameLine(linesOf(text));
  return bad ? `${HOSTNAMES_INVALID} (line ${bad.line}: "${bad.text}")` : check.message;
}

/** The hostnames text area: the saved list until the user types, checked on every keystroke
 * with the same rules the server applies, saved as one list. */
export function useHostnamesForm() {
  const saved = useHostnames();
  const save = useSaveHostnames();
  const [draft, setDraft] = useState<string | null>(null);
  const [notice, setNotice] = useState<SaveNotice | null>(null);
  // A double click submits twice before the disabled button is drawn: one save at a time.
  const saving = useRef(false);
  const text = draft ?? (saved.data ?? []).join("\n");
  const check = draft === null ? null : parseHostnameLines(linesOf(draft));

  function change(value: string) {
    setDraft(value);
    setNotice(null);
  }

  function submit() {
    const result = parseHostnameLines(linesOf(text));
    if (!result.ok) {
      setDraft(text);
      return;
    }
    if (saving.current) return;
    saving.current = true;
    save.mutate(result.hostnames, {
      onSettled: () => {
        saving.current = false;
      },
      onSuccess: () => {
        setDraft(null);
        setNotice({ kind: "success", text: HOSTNAMES_SAVED });
      },
      onError: (error) =>
        setNotice({
          kind: "error",
          text: HOSTNAMES_SAVE_FAILED,
          detail: error instanceof ApiError && error.fromServer ? error.message : undefined,
        }),
    });
  }

  return {
    text,
    change,
    submit,
    /** The first rule the typed text breaks, shown as the user types. */
    error: errorOf(check, text),
    loading: saved.isPending,
    loadError: saved.isError ? saved.error.message : null,
    pending: save.isPending,
    notice,
  };
}
