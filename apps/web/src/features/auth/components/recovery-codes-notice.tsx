import { CopyButton } from "../../../components/ui/copy-button.tsx";

/** The recovery codes, shown this once: each signs in once when the app or passkey is not at hand. */
export function RecoveryCodesNotice({ codes }: { codes: string[] }) {
  return (
    <div
      className="rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="recovery-codes"
    >
      <p className="font-medium">Save your recovery codes now — they are shown only once.</p>
      <ul className="mt-2 grid grid-cols-2 gap-1 font-mono text-slate-900">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="mt-2">
        <CopyButton value={codes.join("\n")} label="Copy recovery codes" />
      </div>
    </div>
  );
}
