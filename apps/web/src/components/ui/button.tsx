import type { ButtonHTMLAttributes } from "react";
import { classNames } from "../../lib/class-names.ts";

export type ButtonVariant = "primary" | "secondary" | "ghost";

const base =
  "inline-flex items-center justify-center gap-2 rounded-lg text-sm font-semibold transition-colors " +
  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 " +
  "disabled:cursor-not-allowed disabled:opacity-50";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-indigo-600 px-4 py-2.5 text-white shadow-sm hover:bg-indigo-700 disabled:hover:bg-indigo-600",
  secondary:
    "border border-slate-300 bg-white px-4 py-2.5 text-slate-700 shadow-sm hover:bg-slate-50 disabled:hover:bg-white",
  ghost: "p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900",
};

/** Shared look for <button> and for links styled as buttons. */
export function buttonClassName(variant: ButtonVariant = "primary", extra?: string): string {
  return classNames(base, variants[variant], extra);
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
}

export function Button({ variant = "primary", className, type = "button", ...props }: ButtonProps) {
  return <button type={type} className={buttonClassName(variant, className)} {...props} />;
}
