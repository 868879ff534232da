import { useQueryClient } from "@tanstack/react-query";
import { Ban } from "lucide-react";
import type { ReactNode } from "react";
import { CenteredPage } from "../../../components/layout/centered-page.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { forgetAccountDisabled, useAccountDisabled } from "../../../lib/account-disabled.ts";
import { clearToken } from "../../../lib/token-storage.ts";

const CONTACT = /Contact support at (\S+)\s*$/;

/** The address the server's message names, as a link: an e-mail address becomes a mailto:. */
function contactLink(message: string): { href: string; label: string } | null {
  const contact = CONTACT.exec(message)?.[1];
  if (!contact) return null;
  if (/^https?:\/\//i.test(contact)) return { href: contact, label: contact };
  return contact.includes("@") ? { href: `mailto:${contact}`, label: contact } : null;
}

/** What a disabled account sees instead of any page: why, whom to write to, and a way out. */
export function AccountDisabledNotice({ message }: { message: string }) {
  const queryClient = useQueryClient();
  const contact = contactLink(message);
  const signOut = () => {
    clearToken();
    queryClient.clear();
    forgetAccountDisabled();
    window.location.assign("/login");
  };
  return (
    <CenteredPage>
      <div className="space-y-4 text-center" role="alert" data-testid="account-disabled">
        <Ban aria-hidden="true" className="mx-auto size-10 text-red-600" />
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Account disabled</h1>
        <p className="text-sm break-words text-slate-600">{message}</p>
        {contact ? (
          <a
            href={contact.href}
            className="inline-block font-semibold break-all text-indigo-600 underline hover:text-indigo-500"
          >
            {contact.label}
          </a>
        ) : null}
        <div className="pt-2">
          <Button variant="secondary" className="w-full" onClick={signOut}>
            Sign out
          </Button>
        </div>
      </div>
    </CenteredPage>
  );
}

/** Shows the notice in place of every page once any call has learned the account is disabled. */
export function AccountDisabledGate({ children }: { children: ReactNode }) {
  const message = useAccountDisabled();
  return message ? <AccountDisabledNotice message={message} /> : children;
}
