import type { ReactNode } from "react";
import { classNames } from "../../lib/class-names.ts";

/** A box whose content may be wider than it (a table, a code block) and scrolls sideways. It takes
 * keyboard focus and has a name, so a keyboard user can reach and scroll it (WCAG 2.1.1). */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: scrolling by keyboard needs focus on the box itself
      tabIndex={0}
      className={classNames(
        "overflow-x-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
        className,
      )}
    >
      {children}
    </section>
  );
}
