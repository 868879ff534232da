import { NavLink } from "react-router";
import { classNames } from "../../lib/class-names.ts";
import { NAV_ITEMS, type NavItem } from "./nav-items.ts";

/** The navigation list; shared by the desktop sidebar and the mobile drawer. */
export function SideNav({
  items = NAV_ITEMS,
  onNavigate,
}: {
  items?: readonly NavItem[];
  onNavigate?: () => void;
}) {
  return (
    <nav aria-label="Main">
      <ul className="space-y-1">
        {items.map(({ label, to, icon: Icon, end = true }) => (
          <li key={to}>
            <NavLink
              to={to}
              // docs/product.md#routes-and-layout: exact matching, so Buy Data (/) is not active on every page.
              end={end}
              onClick={onNavigate}
              className={({ isActive }) =>
                classNames(
                  "flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors",
                  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
                  isActive
                    ? "bg-indigo-50 text-indigo-700"
                    : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
                )
              }
            >
              <Icon aria-hidden="true" className="size-4 shrink-0" />
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
