/** The state of a list read from the server, and the helpers feature slices share for it. */
import type { Status } from './status';

/** A list read from the server: its request's status, the failure text, and the items. */
export interface ListState<T> {
  status: Status;
  error: string | null;
  items: T[];
}

/** A list before it is read. */
export function emptyList<T>(): ListState<T> {
  return { status: 'idle', error: null, items: [] };
}

/** Replaces the item with the same id in place, or appends it (Immer drafts). */
export function upsertById<T extends { id: string }>(items: T[], item: T): void {
  const index = items.findIndex((candidate) => candidate.id === item.id);
  if (index === -1) items.push(item);
  else items[index] = item;
}

/** A dialog's request is on its way: 'loading', without the last failure. */
export function dialogSaving(state: { status: Status; error: string | null }): void {
  state.status = 'loading';
  state.error = null;
}
