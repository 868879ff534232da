/** Hands the tab to another site (the hosted card page). Its own module so tests can watch it. */
export function leavePage(url: string): void {
  window.location.assign(url);
}
