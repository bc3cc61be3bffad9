/**
 * The folder list's keys beyond the rows' own (Enter, F2, Space and the arrows on a focused row):
 * Delete archives the selection, or the focused row when nothing is selected, with the usual Undo
 * toast; F2 renames the one selected item when the focus is not on a row. Keys typed in a text
 * field (the inline rename) are left alone, and nothing happens for a read-only member.
 */
import type { KeyboardEvent } from 'react';
import { useStore } from 'react-redux';
import type { AppStore } from '@src/store/store';
import { isTextField } from '../notifications/useUndoShortcut';
import { organiseEvents } from '../organise/organiseEvents';
import {
  selectCanOrganise,
  selectRename,
  selectSelectedItems,
} from '../organise/organiseSelectors';
import { organiseActions } from '../organise/organiseSlice';
import { selectEntityRows } from './entitiesSelectors';

const useAppStore = useStore.withTypes<AppStore>();

/** The id of the row (`data-entity-id`) that is `target` itself, if it is one. */
function focusedRowId(target: EventTarget | null): string | undefined {
  return target instanceof HTMLElement && target.getAttribute('role') === 'row'
    ? target.dataset.entityId
    : undefined;
}

/**
 * The folder list's keydown handler for Delete and F2 (see the module comment).
 *
 * @returns a handler for the list's onKeyDown; it calls preventDefault on the keys it used
 */
export function useListShortcuts(): (event: KeyboardEvent<HTMLElement>) => void {
  const store = useAppStore();
  return (event) => {
    if (event.defaultPrevented || isTextField(event.target)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const state = store.getState();
    if (!selectCanOrganise(state) || selectRename(state).itemId !== null) return;
    const selected = selectSelectedItems(state);
    if (event.key === 'Delete') {
      const rowId = focusedRowId(event.target);
      const row = rowId ? selectEntityRows(state).find((item) => item.id === rowId) : undefined;
      const items =
        selected.length > 0
          ? selected.map(({ id, type }) => ({ id, type }))
          : row
            ? [{ id: row.id, type: row.type }]
            : [];
      if (items.length === 0) return;
      event.preventDefault();
      store.dispatch(organiseEvents.archiveRequested({ items }));
    } else if (event.key === 'F2' && selected.length === 1) {
      event.preventDefault();
      store.dispatch(organiseActions.renameStarted({ id: selected[0]!.id }));
    }
  };
}
