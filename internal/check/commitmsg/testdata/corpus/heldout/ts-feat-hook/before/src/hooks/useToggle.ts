import { useCallback, useState } from "react";

export function useToggle(initial = false): [boolean, () => void] {
  const [on, set] = useState(initial);
  return [on, useCallback(() => set((v) => !v), [])];
}
