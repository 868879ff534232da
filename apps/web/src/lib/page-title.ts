import { useEffect } from "react";

const PRODUCT_NAME = "ByteToll";

/** "Usage · ByteToll": the screen's name first, so browser tabs and history tell screens apart. */
export function pageTitle(screen: string): string {
  return `${screen} · ${PRODUCT_NAME}`;
}

/** Sets the document title while the screen is shown. */
export function usePageTitle(screen: string): void {
  useEffect(() => {
    document.title = pageTitle(screen);
  }, [screen]);
}
