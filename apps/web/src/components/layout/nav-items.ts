import { ChartColumn, type LucideIcon, Plug, Route, ShoppingCart } from "lucide-react";

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

/** docs/product.md#layout, in order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Buy Data", to: "/", icon: ShoppingCart },
  { label: "Connect to Proxies", to: "/connect", icon: Plug },
  { label: "Smart Routing", to: "/smart-routings", icon: Route },
  { label: "Usage", to: "/usage", icon: ChartColumn },
];
