/**
 * Whether `flag` has been true at any render of the component so far: a part loaded on demand
 * (a dialog's chunk) stays mounted once it has been needed, so it can play its closing animation
 * and keep its own state.
 */
import { useState } from 'react';

/** True from the first render where `flag` is true on. */
export function useOnceTrue(flag: boolean): boolean {
  const [seen, setSeen] = useState(flag);
  if (flag && !seen) setSeen(true);
  return seen || flag;
}
