/** API base URL: VITE_API_URL when the API lives elsewhere, else the page's own origin (decision 001). */
export const API_BASE_URL: string = (import.meta.env.VITE_API_URL ?? "").replace(/\/+$/, "");
