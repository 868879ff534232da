import {
  ChartColumn,
  type LucideIcon,
  Plug,
  Route,
  ShieldCheck,
  ShoppingCart,
  Users,
  Webhook,
} from "lucide-react";

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Active on its own path only (the default), or on the pages below it too. */
  end?: boolean;
}

/** docs/product.md#layout, in order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Buy Data", to: "/", icon: ShoppingCart },
  { label: "Connect to Proxies", to: "/connect", icon: Plug },
  { label: "Smart Routing", to: "/smart-routings", icon: Route },
  { label: "Usage", to: "/usage", icon: ChartColumn },
  { label: "Sub-users", to: "/subusers", icon: Users },
  { label: "Webhooks", to: "/webhooks", icon: Webhook },
];

/** Shown to operators only, after the customer items: the way into the operator's console. */
export const OPERATOR_CONSOLE_ITEM: NavItem = { label: "Operator console", to: "/admin", icon: ShieldCheck };
