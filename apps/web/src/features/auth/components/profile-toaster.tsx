import { Toaster } from "sonner";

/** The profile's toasts go to their own toaster, so they show exactly once whether or not the
 * app mounts a global one elsewhere (sonner routes a toast only to the toaster with its id). */
export const PROFILE_TOASTER_ID = "profile";

export function ProfileToaster() {
  return <Toaster id={PROFILE_TOASTER_ID} position="top-center" richColors closeButton />;
}
