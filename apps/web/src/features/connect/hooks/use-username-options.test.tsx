import { renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { STORAGE_KEYS } from "../../../lib/storage-keys.ts";
import { useUsernameOptions } from "./use-username-options.ts";

function optionsAt(search: string) {
  let router: ReturnType<typeof createMemoryRouter> | undefined;
  const wrapper = ({ children }: { children: ReactNode }) => {
    router ??= createMemoryRouter([{ path: "/connect", element: children }], {
      initialEntries: [`/connect${search}`],
    });
    return <RouterProvider router={router} />;
  };
  return renderHook(() => useUsernameOptions(), { wrapper }).result;
}

describe("the sticky and intelligence toggles", () => {
  it("follow ?ss=false&ai=false in the link over what this browser stored", () => {
    window.localStorage.setItem(STORAGE_KEYS.stickySession, "true");
    window.localStorage.setItem(STORAGE_KEYS.intelligence, "true");
    const options = optionsAt("?ss=false&ai=false");
    expect(options.current.sticky).toBe(false);
    expect(options.current.intelligence).toBe(false);
    expect(options.current.sessionId).toBeNull();
  });

  it("follow the stored flags when the link says nothing, and ?ss=true when it does", () => {
    window.localStorage.setItem(STORAGE_KEYS.intelligence, "true");
    const stored = optionsAt("");
    expect(stored.current.intelligence).toBe(true);
    expect(stored.current.sticky).toBe(false);
    const linked = optionsAt("?ss=true");
    expect(linked.current.sticky).toBe(true);
  });
});
