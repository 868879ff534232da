import type { Upstream } from "@bytetoll/contracts";
import { Plus } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { formatMoney } from "../../../lib/format.ts";
import { useDeleteExit, useExits, useTestExit, useUpdateExit } from "../api/exits.ts";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { ADMIN_TOASTER_ID } from "./admin-toaster.tsx";
import { StatusBadge } from "./badges.tsx";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { type Column, DataTable } from "./data-table.tsx";
import { ExitFormDialog } from "./exit-form-dialog.tsx";
import { formatBytes } from "./network-figures.ts";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

type Pending = { kind: "disable" | "enable" | "delete"; exit: Upstream };

function TestResult({ exit }: { exit: Upstream }) {
  const test = useTestExit();
  const result = test.data;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        className="px-3 py-1.5"
        aria-label={`Test ${exit.name}`}
        disabled={test.isPending}
        onClick={() => test.mutate(exit.id)}
      >
        {test.isPending ? "Testing…" : "Test"}
      </Button>
      <span role="status" className="text-xs">
        {test.isError
          ? errorMessage(test.error)
          : result
            ? result.ok
              ? `OK · ${result.ip}${result.country ? ` (${result.country})` : ""} · ${result.connect_ms} ms`
              : `Failed: ${result.error}`
            : null}
      </span>
    </span>
  );
}

/** /admin/exits: every exit with its state, last hour and cost; add, edit, disable, delete, test. */
export function ExitsPage() {
  const exits = useExits();
  const [editing, setEditing] = useState<Upstream | "new" | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const columns: readonly Column<Upstream>[] = [
    {
      header: "Exit",
      wrap: true,
      cell: (exit) => (
        <div className="sm:max-w-64">
          <p className="font-medium text-slate-900">{exit.name}</p>
          <p className="font-mono text-xs break-all text-slate-500">{exit.url}</p>
        </div>
      ),
    },
    {
      header: "Pool",
      cell: (exit) =>
        `${exit.pool === "mobile" ? "Mobile" : "Datacenter"}${exit.countries.length ? ` · ${exit.countries.join(" ")}` : ""}`,
    },
    { header: "State", cell: (exit) => <StatusBadge status={exit.state} /> },
    {
      header: "Last hour",
      numeric: true,
      cell: (exit) =>
        `${formatBytes(exit.last_hour.bytes)} · ${exit.last_hour.connects} (${exit.last_hour.failures} failed)`,
    },
    {
      header: "Cost",
      numeric: true,
      cell: (exit) => (exit.source === "environment" ? "—" : `${formatMoney(exit.cost_per_gb_usd)}/GB`),
    },
    { header: "Weight", numeric: true, cell: (exit) => exit.weight },
    {
      header: "Actions",
      cell: (exit) =>
        exit.source === "environment" ? (
          <span className="text-xs text-slate-500">From the environment (read-only)</span>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              className="px-3 py-1.5"
              aria-label={`Edit ${exit.name}`}
              onClick={() => setEditing(exit)}
            >
              Edit
            </Button>
            <Button
              variant="secondary"
              className="px-3 py-1.5"
              aria-label={`${exit.enabled ? "Disable" : "Enable"} ${exit.name}`}
              onClick={() => setPending({ kind: exit.enabled ? "disable" : "enable", exit })}
            >
              {exit.enabled ? "Disable" : "Enable"}
            </Button>
            <Button
              variant="secondary"
              className="px-3 py-1.5 text-red-700"
              aria-label={`Delete ${exit.name}`}
              onClick={() => setPending({ kind: "delete", exit })}
            >
              Delete
            </Button>
            <TestResult exit={exit} />
          </div>
        ),
    },
  ];

  return (
    <AdminScreen>
      <AdminPageHeader
        title="Exits"
        description="The upstream suppliers traffic leaves through, what they cost and what they carried in the last hour."
        actions={
          <Button onClick={() => setEditing("new")}>
            <Plus aria-hidden="true" className="size-4" />
            Add exit
          </Button>
        }
      />
      <AdminCard title="All exits">
        {exits.isPending ? (
          <LoadingRows rows={4} label="Loading exits" />
        ) : exits.isError ? (
          <StateMessage error onRetry={() => void exits.refetch()}>
            {errorMessage(exits.error)}
          </StateMessage>
        ) : exits.data.length === 0 ? (
          <StateMessage>No exits yet. Add the first one.</StateMessage>
        ) : (
          <DataTable caption="Exits" columns={columns} rows={exits.data} rowKey={(exit) => exit.id} />
        )}
      </AdminCard>
      {editing ? (
        <ExitFormDialog exit={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {pending ? <ExitActionDialog pending={pending} onClose={() => setPending(null)} /> : null}
    </AdminScreen>
  );
}

const ACTION_TEXT = {
  disable: {
    label: "Disable exit",
    consequence:
      "New connections stop going through it on every gateway within seconds; tunnels open now go on.",
  },
  enable: {
    label: "Enable exit",
    consequence: "Every gateway starts sending new connections through it again within seconds.",
  },
  delete: {
    label: "Delete exit",
    consequence:
      "It is removed for good: no new connection goes through it; tunnels open now go on. Its past usage stays in the margins.",
  },
} as const;

function ExitActionDialog({ pending, onClose }: { pending: Pending; onClose: () => void }) {
  const update = useUpdateExit();
  const remove = useDeleteExit();
  const { kind, exit } = pending;
  const mutation = kind === "delete" ? remove : update;
  const done = () => {
    toast.success(`${ACTION_TEXT[kind].label.split(" ")[0]}d “${exit.name}”`, {
      toasterId: ADMIN_TOASTER_ID,
    });
    onClose();
  };
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={`${ACTION_TEXT[kind].label.split(" ")[0]} “${exit.name}”`}
      consequence={ACTION_TEXT[kind].consequence}
      confirmLabel={ACTION_TEXT[kind].label}
      danger={kind !== "enable"}
      pending={mutation.isPending}
      error={mutation.error}
      onConfirm={() =>
        kind === "delete"
          ? remove.mutate(exit.id, { onSuccess: done })
          : update.mutate({ id: exit.id, body: { enabled: kind === "enable" } }, { onSuccess: done })
      }
      testId="exit-action-dialog"
    />
  );
}
