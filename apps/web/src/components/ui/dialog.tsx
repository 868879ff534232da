import * as RadixDialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./button.tsx";

/**
 * A centred modal over a dimmed page. `trigger`, when given, is the element that opens it.
 * Closed, the content unmounts: whatever it holds starts afresh on every opening.
 */
export function Dialog({
  open,
  onOpenChange,
  trigger,
  testId,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger> : null}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <RadixDialog.Content
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-4 shadow-xl focus:outline-none sm:p-6"
          data-testid={testId}
        >
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The dialog's title, a line under it, and the Close button. */
export function DialogHeader({ title, description }: { title: ReactNode; description: ReactNode }) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <RadixDialog.Title className="text-lg font-semibold text-slate-900">{title}</RadixDialog.Title>
        <RadixDialog.Description className="mt-1 text-sm text-slate-500">
          {description}
        </RadixDialog.Description>
      </div>
      <RadixDialog.Close asChild>
        <Button variant="ghost" aria-label="Close">
          <X aria-hidden="true" className="size-5" />
        </Button>
      </RadixDialog.Close>
    </div>
  );
}
