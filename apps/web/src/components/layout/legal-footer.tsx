export interface LegalFooterProps {
  termsUrl?: string;
  privacyUrl?: string;
}

const linkClass =
  "rounded text-slate-500 underline-offset-4 hover:text-slate-700 hover:underline " +
  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";

/** docs/product.md#routes-and-layout: Terms and Privacy Policy, both in a new tab, on login and 404. */
export function LegalFooter({ termsUrl, privacyUrl }: LegalFooterProps) {
  return (
    <footer className="flex items-center justify-center gap-6 text-sm">
      {termsUrl ? (
        <a href={termsUrl} target="_blank" rel="noopener noreferrer" className={linkClass}>
          Terms
        </a>
      ) : null}
      {privacyUrl ? (
        <a href={privacyUrl} target="_blank" rel="noopener noreferrer" className={linkClass}>
          Privacy Policy
        </a>
      ) : null}
    </footer>
  );
}
