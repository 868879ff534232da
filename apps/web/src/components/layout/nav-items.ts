import type { Permission } from "@bytetoll/contracts";
import {
  ChartColumn,
  type LucideIcon,
  Plug,
  Route,
  ShieldCheck,
  ShoppingCart,
  UserCog,
  Users,
  Webhook,
} from "lucide-react";

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Active on its own path only (the default), or on the pages below it too. */
  end?: boolean;
  /** Shown only to roles that have it (docs/product.md#team-members). */
  permission?: Permission;
}

/** docs/product.md#layout, in order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Buy Data", to: "/", icon: ShoppingCart },
  { label: "Connect to Proxies", to: "/connect", icon: Plug },
  { label: "Smart Routing", to: "/smart-routings", icon: Route, permission: "credentials:read" },
  { label: "Usage", to: "/usage", icon: ChartColumn, permission: "usage:read" },
  { label: "Sub-users", to: "/subusers", icon: Users, permission: "subusers:write" },
  { label: "Webhooks", to: "/webhooks", icon: Webhook, permission: "webhooks:write" },
  { label: "Team", to: "/team", icon: UserCog, permission: "team:write" },
];

/** Shown to operators only, after the customer items: the way into the operator's console. */
export const OPERATOR_CONSOLE_ITEM: NavItem = { label: "Operator console", to: "/admin", icon: ShieldCheck };
