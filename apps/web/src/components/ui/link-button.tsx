import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button, buttonClassName } from "./button.tsx";

/** A link styled as a button; while `disabled` it is a disabled button (nothing to follow). */
export function LinkButton({
  to,
  disabled = false,
  className,
  children,
}: {
  to: string;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  if (disabled) {
    return (
      <Button disabled className={className}>
        {children}
      </Button>
    );
  }
  return (
    <Link to={to} className={buttonClassName("primary", className)}>
      {children}
    </Link>
  );
}
