/**
 * How a list of files and folders is laid out: rows ('list') or thumbnail cards ('grid'). The list
 * that renders its items provides it, so that an item's icon or thumbnail takes the size of the
 * layout without every row passing it down.
 */
import { createContext, useContext } from 'react';

/** The layouts of an item list. */
export type ListLayout = 'list' | 'grid';

/** The layout of the list an item is rendered in ('list' outside any list). */
export const ListLayoutContext = createContext<ListLayout>('list');

/** The layout of the enclosing list. */
export function useListLayout(): ListLayout {
  return useContext(ListLayoutContext);
}
