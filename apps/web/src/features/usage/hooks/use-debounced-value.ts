import { useEffect, useState } from "react";

/** `value`, but only once it has stayed the same for `delayMs` (docs/product.md#states: period changes wait 500 ms). */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
