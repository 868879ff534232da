import {
  ArrowLeft,
  Gauge,
  Handshake,
  Network,
  Receipt,
  Scale,
  ScrollText,
  Server,
  ShieldBan,
  Users,
  Wallet,
} from "lucide-react";
import type { NavItem } from "../../../components/layout/nav-items.ts";

/** The console's sidebar, in the order an operator's day goes; each section stays highlighted on
 * its detail pages. */
export const ADMIN_NAV_ITEMS: readonly NavItem[] = [
  { label: "Overview", to: "/admin", icon: Gauge },
  { label: "Customers", to: "/admin/customers", icon: Users, end: false },
  { label: "Orders", to: "/admin/orders", icon: Receipt, end: false },
  { label: "Deals", to: "/admin/deals", icon: Handshake, end: false },
  { label: "Payouts", to: "/admin/payouts", icon: Wallet, end: false },
  { label: "Network", to: "/admin/network", icon: Network, end: false },
  { label: "Exits", to: "/admin/exits", icon: Server, end: false },
  { label: "Margins", to: "/admin/margins", icon: Scale, end: false },
  { label: "Policy", to: "/admin/policy", icon: ShieldBan, end: false },
  { label: "Audit log", to: "/admin/audit", icon: ScrollText, end: false },
  { label: "Back to dashboard", to: "/", icon: ArrowLeft },
];
