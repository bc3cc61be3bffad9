// The selection model of the folder page (organise slice and selectors): plain click, Ctrl/Cmd
// toggle, Shift range from the anchor, select all, clear; and what resets or trims it.
import { describe, expect, it } from '@jest/globals';
import type { EntityDto } from '@common/entities';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
} from '@src/features/entities/entitiesSlice';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import {
  selectSelectAllState,
  selectSelectedCount,
  selectSelectedItems,
} from '@src/features/organise/organiseSelectors';
import {
  initialOrganiseState,
  organiseActions,
  organiseReducer,
  type OrganiseState,
  type SelectModifier,
} from '@src/features/organise/organiseSlice';
import type { RootState } from '@src/store/rootReducer';
import { makeFile, makeFolder, makePage } from '../../fixtures';

const ids = ['a', 'b', 'c', 'd', 'e', 'f'];

function click(state: OrganiseState, id: string, modifier: SelectModifier = 'none') {
  return organiseReducer(state, organiseActions.rowClicked({ id, modifier, orderedIds: ids }));
}
const selected = (state: OrganiseState) => Object.keys(state.selection.ids).sort();

describe('selection model', () => {
  it('a plain click selects only that row and sets the anchor', () => {
    let state = click(initialOrganiseState, 'b');
    state = click(state, 'd');
    expect(selected(state)).toEqual(['d']);
    expect(state.selection.anchorId).toBe('d');
  });

  it('Ctrl/Cmd-click toggles a row and keeps the others', () => {
    let state = click(initialOrganiseState, 'b');
    state = click(state, 'd', 'toggle');
    state = click(state, 'f', 'toggle');
    expect(selected(state)).toEqual(['b', 'd', 'f']);
    state = click(state, 'd', 'toggle');
    expect(selected(state)).toEqual(['b', 'f']);
    expect(state.selection.anchorId).toBe('d');
  });

  it('Shift-click selects the range from the anchor, downwards and upwards', () => {
    let state = click(initialOrganiseState, 'b');
    state = click(state, 'e', 'range');
    expect(selected(state)).toEqual(['b', 'c', 'd', 'e']);
    // The anchor stays: a second Shift-click re-draws the range from it.
    state = click(state, 'a', 'range');
    expect(selected(state)).toEqual(['a', 'b']);
    expect(state.selection.anchorId).toBe('b');
  });

  it('Shift-click after a Ctrl-click ranges from the toggled row', () => {
    let state = click(initialOrganiseState, 'a');
    state = click(state, 'c', 'toggle');
    state = click(state, 'e', 'range');
    expect(selected(state)).toEqual(['c', 'd', 'e']);
  });

  it('Shift-click without an anchor selects just that row', () => {
    const state = click(initialOrganiseState, 'c', 'range');
    expect(selected(state)).toEqual(['c']);
    expect(state.selection.anchorId).toBe('c');
  });

  it('select all, then clear', () => {
    let state = organiseReducer(initialOrganiseState, organiseActions.allSelected({ ids }));
    expect(selected(state)).toEqual(ids);
    state = organiseReducer(state, organiseActions.selectionCleared());
    expect(selected(state)).toEqual([]);
    expect(state.selection.anchorId).toBeNull();
  });

  it('opening a folder clears the selection and the rename', () => {
    let state = click(initialOrganiseState, 'a');
    state = organiseReducer(state, organiseActions.renameStarted({ id: 'a' }));
    state = organiseReducer(state, entitiesActions.folderOpened({ folderId: 'x' }));
    expect(selected(state)).toEqual([]);
    expect(state.rename.itemId).toBeNull();
  });

  it('items moved away, archived or deleted leave the selection; renamed ones stay', () => {
    let state = organiseReducer(initialOrganiseState, organiseActions.allSelected({ ids }));
    state = organiseReducer(
      state,
      organiseEvents.itemsChanged({
        change: 'archived',
        entities: [],
        results: [
          { id: 'a', type: 'file', name: 'a' },
          { id: 'b', type: 'file', name: 'b' },
        ],
      }),
    );
    state = organiseReducer(
      state,
      organiseEvents.itemsChanged({
        change: 'moved',
        entities: [],
        results: [{ id: 'c', type: 'file', name: 'c' }],
        targetFolderId: 'elsewhere',
      }),
    );
    state = organiseReducer(
      state,
      organiseEvents.itemsChanged({
        change: 'renamed',
        entities: [makeFile({ id: 'd', name: 'D.pdf' })],
        results: [],
      }),
    );
    expect(selected(state)).toEqual(['d', 'e', 'f']);
  });
});

describe('selection selectors', () => {
  const rows: EntityDto[] = [
    makeFolder({ id: 'a', name: 'A' }),
    makeFolder({ id: 'b', name: 'B' }),
    makeFile({ id: 'c', name: 'C.pdf' }),
  ];
  function rootState(organise: OrganiseState): RootState {
    const opened = entitiesReducer(
      initialEntitiesState,
      entitiesActions.folderOpened({ folderId: '' }),
    );
    const entities = entitiesReducer(
      opened,
      entitiesActions.pageLoaded({ folderId: '', page: makePage(rows) }),
    );
    return { entities, organise } as RootState;
  }

  it('the selected items come in list order with their type and name', () => {
    let organise = click(initialOrganiseState, 'c');
    organise = organiseReducer(
      organise,
      organiseActions.rowClicked({ id: 'a', modifier: 'toggle', orderedIds: ['a', 'b', 'c'] }),
    );
    const state = rootState(organise);
    expect(selectSelectedItems(state)).toEqual([
      { id: 'a', type: 'folder', name: 'A' },
      { id: 'c', type: 'file', name: 'C.pdf' },
    ]);
    expect(selectSelectedCount(state)).toBe(2);
    expect(selectSelectAllState(state)).toBe('some');
  });

  it('the header checkbox state: none, some, all', () => {
    expect(selectSelectAllState(rootState(initialOrganiseState))).toBe('none');
    const all = organiseReducer(
      initialOrganiseState,
      organiseActions.allSelected({ ids: ['a', 'b', 'c'] }),
    );
    expect(selectSelectAllState(rootState(all))).toBe('all');
  });
});
