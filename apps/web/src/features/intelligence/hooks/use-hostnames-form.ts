import { parseHostnameLines } from "@bytetoll/contracts";
import { useState } from "react";
import { ApiError } from "../../../lib/api-client.ts";
import { useHostnames } from "../api/get-hostnames.ts";
import { useSaveHostnames } from "../api/save-hostnames.ts";

export const HOSTNAMES_SAVED = "Hostnames saved";
export const HOSTNAMES_SAVE_FAILED = "Failed to save hostnames";

export type SaveNotice = { kind: "success" | "error"; text: string; detail?: string };

const linesOf = (text: string) => text.split(/\r?\n/);

/** The hostnames text area: the saved list until the user types, checked on every keystroke
 * with the same rules the server applies, saved as one list. */
export function useHostnamesForm() {
  const saved = useHostnames();
  const save = useSaveHostnames();
  const [draft, setDraft] = useState<string | null>(null);
  const [notice, setNotice] = useState<SaveNotice | null>(null);
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
    save.mutate(result.hostnames, {
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
    error: check && !check.ok ? check.message : null,
    loading: saved.isPending,
    loadError: saved.isError ? saved.error.message : null,
    pending: save.isPending,
    notice,
  };
}
