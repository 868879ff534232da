import { Link } from "react-router";
import { buttonClassName } from "../../../components/ui/button.tsx";
import { AdminPageHeader, AdminScreen } from "./admin-card.tsx";

/** An /admin/… path the console has no page for. */
export function AdminNotFound() {
  return (
    <AdminScreen>
      <AdminPageHeader title="Page not found" description="The console has no page at this address." />
      <Link to="/admin" className={buttonClassName("primary")}>
        Go to the Overview
      </Link>
    </AdminScreen>
  );
}
