import { Toaster } from "sonner";

/** The console's toasts (an action's result) go to their own toaster. */
export const ADMIN_TOASTER_ID = "admin";

export function AdminToaster() {
  return <Toaster id={ADMIN_TOASTER_ID} position="top-center" richColors closeButton />;
}
