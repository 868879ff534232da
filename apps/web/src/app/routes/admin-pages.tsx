import { type ComponentType, lazy } from "react";
import { Route, Routes } from "react-router";
import { AdminNotFound } from "../../features/admin/components/admin-not-found.tsx";

/** A console page's route module, fetched when the page is first opened. */
const page = (load: () => Promise<{ Component: ComponentType }>) =>
  lazy(() => load().then((module) => ({ default: module.Component })));

const Overview = page(() => import("./admin-overview.tsx"));
const Customers = page(() => import("./admin-customers.tsx"));
const Customer = page(() => import("./admin-customer.tsx"));
const Orders = page(() => import("./admin-orders.tsx"));
const Order = page(() => import("./admin-order.tsx"));
const Deals = page(() => import("./admin-deals.tsx"));
const Payouts = page(() => import("./admin-payouts.tsx"));
const Network = page(() => import("./admin-network.tsx"));
const Exits = page(() => import("./admin-exits.tsx"));
const Margins = page(() => import("./admin-margins.tsx"));
const Policy = page(() => import("./admin-policy.tsx"));
const Audit = page(() => import("./admin-audit.tsx"));

/** The console's pages under /admin, each its own chunk; rendered only behind the console's gate. */
export default function AdminPages() {
  return (
    <Routes>
      <Route index element={<Overview />} />
      <Route path="customers" element={<Customers />} />
      <Route path="customers/:id" element={<Customer />} />
      <Route path="orders" element={<Orders />} />
      <Route path="orders/:id" element={<Order />} />
      <Route path="deals" element={<Deals />} />
      <Route path="payouts" element={<Payouts />} />
      <Route path="network" element={<Network />} />
      <Route path="exits" element={<Exits />} />
      <Route path="margins" element={<Margins />} />
      <Route path="policy" element={<Policy />} />
      <Route path="audit" element={<Audit />} />
      <Route path="*" element={<AdminNotFound />} />
    </Routes>
  );
}
