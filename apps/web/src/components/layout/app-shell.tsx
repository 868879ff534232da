import * as Dialog from "@radix-ui/react-dialog";
import { Menu, X } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { BrandLogo } from "../ui/brand-logo.tsx";
import { Button } from "../ui/button.tsx";
import type { NavItem } from "./nav-items.ts";
import { SideNav } from "./side-nav.tsx";

const SKIP_LINK_CLASSES =
  "sr-only rounded-lg bg-indigo-700 px-4 py-2 text-sm font-semibold text-white shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60] focus:outline-none focus:ring-2 focus:ring-indigo-300 focus:ring-offset-2";

/**
 * The dashboard frame (docs/product.md#layout): a fixed sidebar from the lg breakpoint, a drawer behind a
 * hamburger below it, and a top bar whose actions the app composes (docs, support, profile).
 * `navItems` and `home` default to the customer dashboard's; the operator's console passes its own.
 */
export function AppShell({
  actions,
  navItems,
  home = "/",
  children,
}: {
  actions: ReactNode;
  navItems?: readonly NavItem[];
  home?: string;
  children: ReactNode;
}) {
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();

  // Any navigation (links, back button) closes the mobile drawer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not an input
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <div className="min-h-dvh bg-slate-50">
      {/* Solid and dark, not white: it opens over the white sidebar, where a white chip had no visible edge. */}
      <a href="#main-content" className={SKIP_LINK_CLASSES}>
        Skip to content
      </a>
      <aside className="fixed inset-y-0 left-0 hidden w-64 flex-col border-r border-slate-200 bg-white lg:flex">
        <div className="flex h-16 items-center px-6">
          <Link
            to={home}
            className="rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            <BrandLogo />
          </Link>
        </div>
        <div className="flex-1 overflow-y-auto px-3 py-4">
          <SideNav items={navItems} />
        </div>
      </aside>

      <Dialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40 lg:hidden" />
          <Dialog.Content
            className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white shadow-xl focus:outline-none lg:hidden"
            data-testid="mobile-sidebar"
          >
            <div className="flex h-16 items-center justify-between px-4">
              <Dialog.Title asChild>
                <span>
                  <BrandLogo />
                  <span className="sr-only"> navigation</span>
                </span>
              </Dialog.Title>
              <Dialog.Description className="sr-only">Pages of the dashboard</Dialog.Description>
              <Dialog.Close asChild>
                <Button variant="ghost" aria-label="Close menu">
                  <X aria-hidden="true" className="size-5" />
                </Button>
              </Dialog.Close>
            </div>
            <div className="flex-1 overflow-y-auto px-3 py-2">
              <SideNav items={navItems} onNavigate={() => setMenuOpen(false)} />
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>

      <div className="flex min-h-dvh flex-col lg:pl-64">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b border-slate-200 bg-white/90 px-4 backdrop-blur lg:px-8">
          <Button
            variant="ghost"
            className="shrink-0 lg:hidden"
            aria-label="Open menu"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(true)}
          >
            <Menu aria-hidden="true" className="size-5" />
          </Button>
          <Link
            to={home}
            className="shrink-0 rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 lg:hidden"
          >
            <BrandLogo compactWord />
          </Link>
          {/* min-w-0: on a phone the actions shrink into the bar rather than push the account menu off it. */}
          <div className="ml-auto flex min-w-0 items-center gap-1 sm:gap-2">{actions}</div>
        </header>
        <main
          id="main-content"
          tabIndex={-1}
          className="flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8 lg:py-8"
        >
          {children}
        </main>
      </div>
    </div>
  );
}
