// The folder list follows organise/itemsChanged (rows leave, come back, change in place) and reads
// the next page after the server's keyset cursor.
import { describe, expect, it } from '@jest/globals';
import type { CursorPage } from '@common/api';
import type { EntityDto } from '@common/entities';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
  type EntitiesState,
} from '@src/features/entities/entitiesSlice';
import { organiseEvents, type ItemsChanged } from '@src/features/organise/organiseEvents';
import { makeFile, makeFolder } from '../../fixtures';

const rows: EntityDto[] = [
  makeFolder({ id: 'a', name: 'Alpha', parent_id: 'top' }),
  makeFolder({ id: 'b', name: 'Beta', parent_id: 'top' }),
  makeFile({ id: 'c', name: 'Call.pdf', folder_id: 'top' }),
];

function loaded(total = rows.length, nextCursor: string | null = null): EntitiesState {
  const opened = entitiesReducer(
    initialEntitiesState,
    entitiesActions.folderOpened({ folderId: 'top' }),
  );
  const page: CursorPage<EntityDto> = {
    items: rows,
    page: 1,
    page_size: 3,
    total,
    next_cursor: nextCursor,
  };
  return entitiesReducer(opened, entitiesActions.pageLoaded({ folderId: 'top', page }));
}

function change(
  state: EntitiesState,
  payload: Partial<ItemsChanged> & Pick<ItemsChanged, 'change'>,
) {
  return entitiesReducer(
    state,
    organiseEvents.itemsChanged({ entities: [], results: [], ...payload }),
  );
}
const ids = (state: EntitiesState) => state.items.map((item) => item.id);

describe('entities slice and organise changes', () => {
  it('keeps the next_cursor of the last page', () => {
    expect(loaded(10, 'cur-3').nextCursor).toBe('cur-3');
    expect(loaded().nextCursor).toBeNull();
  });

  it('archived and moved-away rows leave the list and the total', () => {
    let state = loaded(10);
    state = change(state, {
      change: 'archived',
      results: [{ id: 'a', type: 'folder', name: 'Alpha' }],
    });
    state = change(state, {
      change: 'moved',
      targetFolderId: 'elsewhere',
      results: [{ id: 'c', type: 'file', name: 'Call.pdf', prev_parent_id: 'top' }],
    });
    expect(ids(state)).toEqual(['b']);
    expect(state.total).toBe(8);
  });

  it('rows moved or restored into the open folder come back at their place', () => {
    let state = change(loaded(), {
      change: 'archived',
      results: [{ id: 'a', type: 'folder', name: 'Alpha' }],
    });
    state = change(state, { change: 'restored', entities: [rows[0]!] });
    expect(ids(state)).toEqual(['a', 'b', 'c']);
    state = change(state, {
      change: 'moved',
      targetFolderId: 'top',
      entities: [makeFile({ id: 'n', name: 'Budget.xlsx', folder_id: 'top' })],
    });
    expect(ids(state)).toEqual(['a', 'b', 'n', 'c']);
    expect(state.total).toBe(4);
  });

  it('a restore into another folder leaves the list alone', () => {
    const state = change(loaded(), {
      change: 'restored',
      entities: [makeFolder({ id: 'z', name: 'Zed', parent_id: '' })],
    });
    expect(ids(state)).toEqual(['a', 'b', 'c']);
  });

  it('a rename moves the row to its place; a favorite changes it in place', () => {
    let state = change(loaded(), {
      change: 'renamed',
      entities: [{ ...rows[0]!, name: 'Zulu' }],
    });
    expect(state.items.map((item) => item.name)).toEqual(['Beta', 'Zulu', 'Call.pdf']);
    state = change(state, { change: 'favorited', entities: [{ ...rows[2]!, favorite: true }] });
    expect(state.items[2]!.favorite).toBe(true);
  });

  it('renaming the open folder renames its title', () => {
    const state = change(loaded(), {
      change: 'renamed',
      entities: [makeFolder({ id: 'top', name: 'Top (renamed)' })],
    });
    expect(state.folder.name).toBe('Top (renamed)');
  });

  it('colours folders; default clears the colour', () => {
    let state = change(loaded(), {
      change: 'colored',
      color: 'dark_green',
      results: [{ id: 'a', type: 'folder', name: 'Alpha', prev_color: 'default' }],
    });
    expect(state.items[0]).toMatchObject({ color: 'dark_green' });
    state = change(state, {
      change: 'colored',
      color: 'default',
      results: [{ id: 'a', type: 'folder', name: 'Alpha' }],
    });
    expect(state.items[0]).toMatchObject({ color: null });
  });

  it('a copy into the open folder is listed', () => {
    const state = change(loaded(), {
      change: 'copied',
      targetFolderId: 'top',
      entities: [makeFolder({ id: 'a2', name: 'Alpha (1)', parent_id: 'top' })],
    });
    expect(ids(state)).toEqual(['a', 'a2', 'b', 'c']);
  });
});
