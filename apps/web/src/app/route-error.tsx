import { isRouteErrorResponse, useRouteError } from "react-router";

/**
 * Last-resort screen when a route fails to render or its code cannot be loaded (for example after
 * a deploy replaced the chunks). Kept dependency-free because it ships in the entry bundle.
 */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <div className="flex min-h-dvh items-center justify-center bg-slate-50 px-4">
      <div
        role="alert"
        className="max-w-md space-y-4 rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm"
      >
        <h1 className="text-xl font-semibold text-slate-900">Something went wrong</h1>
        <p className="text-sm text-slate-500">Please reload the page. {detail}</p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-lg bg-indigo-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-indigo-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          Reload
        </button>
      </div>
    </div>
  );
}
