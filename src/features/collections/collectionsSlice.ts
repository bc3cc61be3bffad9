/**
 * Collections slice: the Archive, Favorites and Recent pages. Each
 * page is a list loaded page by page with the server's keyset cursor (`next_cursor`), newest first,
 * and kept up to date by `organise/itemsChanged`: a restored or deleted item leaves the Archive, an
 * unfavorited one leaves Favorites, renames and favorite stars change rows in place. What only the
 * server can order (an item archived, favorited or touched anew goes to the top) is refetched by
 * the collections saga (`topRefreshed`).
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_PAGE_SIZE } from '@common/constants';
import type { CursorPage } from '@common/api';
import type {
  ArchivedEntityDto,
  BreadcrumbDto,
  EntityDto,
  RecentEntityDto,
} from '@common/entities';
import type { Status } from '@src/store/status';
import { organiseEvents, type ItemsChanged } from '../organise/organiseEvents';
import { sessionActions } from '../session/sessionSlice';

/** The three lists of this slice. */
export type CollectionKind = 'archive' | 'favorites' | 'recent';

/** The item type of each list. */
export interface CollectionItemTypes {
  archive: ArchivedEntityDto;
  favorites: EntityDto;
  recent: RecentEntityDto;
}

/** Status and error of one request. */
export interface RequestState {
  status: Status;
  error: string | null;
}

/** One paged list. */
export interface CollectionList<T extends EntityDto = EntityDto> {
  /** The loaded items, in the server's order. */
  items: T[];
  /** How many items the list holds on the server (as last answered, kept in step with removals). */
  total: number;
  /** The last page number loaded (0 before the first). */
  page: number;
  pageSize: number;
  /** The cursor of the next page; null when the last page is loaded. */
  nextCursor: string | null;
  /** Loading the first page. */
  list: RequestState;
  /** Loading the next page at the end of the list. */
  more: RequestState;
  /**
   * Items taken out of the loaded pages since they loaded, less those put in at the top: the
   * `skip` of POST entities/archived (flag archivePaging) so an offset read skips nothing.
   */
  skip: number;
}

/** A folder's path for the "where" of a row: names from the top-level folder down to it. */
export interface FolderPath {
  status: Status;
  names: string[];
}

/** The collections slice's state. */
export interface CollectionsState {
  archive: CollectionList<ArchivedEntityDto>;
  favorites: CollectionList<EntityDto>;
  recent: CollectionList<RecentEntityDto>;
  /** Archive page: the ids of the selected rows, in the order they were selected. */
  selected: string[];
  /** Archive page: the row last toggled, where a Shift-click range starts. */
  anchor: string | null;
  /** Ids with a restore, delete or favorite request in flight (their rows' actions wait). */
  pending: string[];
  /** Paths of parent folders by folder id, for the "where" of Recent and Favorites rows. */
  paths: Record<string, FolderPath>;
}

const idle: RequestState = { status: 'idle', error: null };

/** A list before its page opened. */
export function emptyList<T extends EntityDto>(): CollectionList<T> {
  return {
    items: [],
    total: 0,
    page: 0,
    pageSize: DEFAULT_PAGE_SIZE,
    nextCursor: null,
    list: idle,
    more: idle,
    skip: 0,
  };
}

/** The state before any page opened. */
export const initialCollectionsState: CollectionsState = {
  archive: emptyList(),
  favorites: emptyList(),
  recent: emptyList(),
  selected: [],
  anchor: null,
  pending: [],
  paths: {},
};

/** A page of one list, as the saga reports it. */
export type CollectionPageLoaded = {
  [K in CollectionKind]: {
    kind: K;
    /** The page number that was asked for (the guard against stale answers). */
    pageNumber: number;
    page: CursorPage<CollectionItemTypes[K]>;
  };
}[CollectionKind];

/** The first page of a list read again after a change that puts items at its top. */
export type CollectionTopRefreshed = {
  [K in CollectionKind]: { kind: K; page: CursorPage<CollectionItemTypes[K]> };
}[CollectionKind];

/** The list of a kind, typed loosely for the helpers that treat every list alike. */
function listOf(state: CollectionsState, kind: CollectionKind): CollectionList {
  return state[kind];
}

/** Removes the items with these ids; returns how many were loaded. */
function removeItems(list: CollectionList, ids: ReadonlySet<string>): number {
  const before = list.items.length;
  list.items = list.items.filter((item) => !ids.has(item.id));
  const removed = before - list.items.length;
  list.total = Math.max(list.items.length, list.total - removed);
  list.skip += removed;
  return removed;
}

/**
 * Applies changed items in place: the server's whole items when it sent them (fields the list adds,
 * such as `parent_path` or `recent_at`, are kept), else the favorite flag or the move's target.
 */
function updateItems(list: CollectionList, changed: ItemsChanged): void {
  const byId = new Map(changed.entities.map((entity) => [entity.id, entity]));
  const resultIds = new Set(changed.results.map((result) => result.id));
  list.items = list.items.map((item) => {
    const entity = byId.get(item.id);
    if (entity && entity.type === item.type) return { ...item, ...entity };
    if (!resultIds.has(item.id)) return item;
    if (changed.change === 'favorited' || changed.change === 'unfavorited') {
      return { ...item, favorite: changed.change === 'favorited' };
    }
    if (changed.change === 'moved' && changed.targetFolderId !== undefined) {
      return item.type === 'folder'
        ? { ...item, parent_id: changed.targetFolderId }
        : { ...item, folder_id: changed.targetFolderId };
    }
    if (changed.change === 'renamed') {
      const result = changed.results.find((candidate) => candidate.id === item.id);
      return result ? { ...item, name: result.name } : item;
    }
    return item;
  });
}

/** Which lists lose the changed items themselves for each change. */
const REMOVED_FROM: Partial<Record<ItemsChanged['change'], readonly CollectionKind[]>> = {
  restored: ['archive'],
  destroyed: ['archive', 'favorites', 'recent'],
  archived: ['favorites', 'recent'],
  unfavorited: ['favorites'],
};

const collectionsSlice = createSlice({
  name: 'collections',
  initialState: initialCollectionsState,
  reducers: {
    /** A page (route /archive, /favorites or /recent) opened: load its first page afresh. */
    opened(state, action: PayloadAction<{ kind: CollectionKind }>) {
      const { kind } = action.payload;
      Object.assign(listOf(state, kind), emptyList(), { list: { status: 'loading', error: null } });
      if (kind === 'archive') {
        state.selected = [];
        state.anchor = null;
      }
    },
    /** A page of a list arrived. */
    pageLoaded(state, action: PayloadAction<CollectionPageLoaded>) {
      const { kind, pageNumber, page } = action.payload;
      const list = listOf(state, kind);
      if (pageNumber !== list.page + 1) return;
      if (pageNumber === 1 ? list.list.status !== 'loading' : list.more.status !== 'loading') {
        return;
      }
      const known = new Set(list.items.map((item) => item.id));
      for (const item of page.items as EntityDto[]) {
        if (!known.has(item.id)) list.items.push(item);
      }
      list.total = Math.max(page.total, list.items.length);
      list.page = pageNumber;
      list.pageSize = page.page_size;
      list.nextCursor = page.next_cursor;
      if (pageNumber === 1) list.list = { status: 'succeeded', error: null };
      else list.more = { status: 'succeeded', error: null };
    },
    /** A page could not be loaded. */
    pageLoadFailed(
      state,
      action: PayloadAction<{ kind: CollectionKind; pageNumber: number; message: string }>,
    ) {
      const { kind, pageNumber, message } = action.payload;
      const list = listOf(state, kind);
      if (pageNumber !== list.page + 1) return;
      if (pageNumber === 1) list.list = { status: 'failed', error: message };
      else list.more = { status: 'failed', error: message };
    },
    /** The end of a list was reached (or "Try again" pressed): load the next page if any. */
    nextPageRequested(state, action: PayloadAction<{ kind: CollectionKind }>) {
      const list = listOf(state, action.payload.kind);
      if (list.list.status !== 'succeeded' || list.more.status === 'loading') return;
      if (list.nextCursor === null) return;
      list.more = { status: 'loading', error: null };
    },
    /**
     * The first page was read again after a change that puts items at the top (an item archived,
     * favorited or touched): its items come first, the other loaded items follow in their order.
     */
    topRefreshed(state, action: PayloadAction<CollectionTopRefreshed>) {
      const { kind, page } = action.payload;
      const list = listOf(state, kind);
      if (list.list.status !== 'succeeded') return;
      const top = page.items as EntityDto[];
      const topIds = new Set(top.map((item) => item.id));
      const knownIds = new Set(list.items.map((item) => item.id));
      const added = top.filter((item) => !knownIds.has(item.id)).length;
      list.items = [...top, ...list.items.filter((item) => !topIds.has(item.id))];
      list.total = Math.max(page.total, list.items.length);
      list.skip -= added;
      if (list.page === 0) list.page = 1;
    },
    /** Archive page: a row's checkbox was toggled. */
    selectionToggled(state, action: PayloadAction<{ id: string }>) {
      const { id } = action.payload;
      state.selected = state.selected.includes(id)
        ? state.selected.filter((selected) => selected !== id)
        : [...state.selected, id];
      state.anchor = id;
    },
    /**
     * Archive page: a Shift-click selects every loaded row from the last toggled one to this one
     * (both included), keeping what was selected; without an anchor it toggles the row alone.
     */
    rangeSelected(state, action: PayloadAction<{ id: string }>) {
      const { id } = action.payload;
      const ids = state.archive.items.map((item) => item.id);
      const from = state.anchor === null ? -1 : ids.indexOf(state.anchor);
      const to = ids.indexOf(id);
      if (to < 0) return;
      if (from < 0) {
        if (!state.selected.includes(id)) state.selected.push(id);
        state.anchor = id;
        return;
      }
      const chosen = new Set(state.selected);
      for (const rangeId of ids.slice(Math.min(from, to), Math.max(from, to) + 1)) {
        if (!chosen.has(rangeId)) state.selected.push(rangeId);
      }
      state.anchor = id;
    },
    /** Archive page: "select all" selects every loaded row. */
    allSelected(state) {
      state.selected = state.archive.items.map((item) => item.id);
    },
    /** Archive page: the selection was cleared. */
    selectionCleared(state) {
      state.selected = [];
      state.anchor = null;
    },
    /** A row needs its parent folder's path (the saga reads the breadcrumbs once per folder). */
    folderPathNeeded(state, action: PayloadAction<{ folderId: string }>) {
      const { folderId } = action.payload;
      if (!state.paths[folderId]) state.paths[folderId] = { status: 'loading', names: [] };
    },
    /** A folder's path arrived. */
    folderPathLoaded(state, action: PayloadAction<{ folderId: string; crumbs: BreadcrumbDto[] }>) {
      const { folderId, crumbs } = action.payload;
      state.paths[folderId] = { status: 'succeeded', names: crumbs.map((crumb) => crumb.name) };
    },
    /** A folder's path could not be read (e.g. the folder is archived). */
    folderPathFailed(state, action: PayloadAction<{ folderId: string }>) {
      state.paths[action.payload.folderId] = { status: 'failed', names: [] };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(organiseEvents.restoreRequested, (state, action) => {
        state.pending.push(...action.payload.items.map((item) => item.id));
      })
      .addCase(organiseEvents.destroyRequested, (state, action) => {
        state.pending.push(...action.payload.items.map((item) => item.id));
      })
      .addCase(organiseEvents.favoriteRequested, (state, action) => {
        state.pending.push(action.payload.item.id);
      })
      .addCase(organiseEvents.actionFailed, (state) => {
        state.pending = [];
      })
      .addCase(organiseEvents.itemsChanged, (state, action) => {
        const changed = action.payload;
        const ids = new Set([
          ...changed.entities.map((entity) => entity.id),
          ...changed.results.map((result) => result.id),
        ]);
        const removedFrom = REMOVED_FROM[changed.change] ?? [];
        for (const kind of ['archive', 'favorites', 'recent'] as const) {
          const list = listOf(state, kind);
          if (removedFrom.includes(kind)) removeItems(list, ids);
          else updateItems(list, changed);
        }
        if (removedFrom.includes('archive')) {
          state.selected = state.selected.filter((id) => !ids.has(id));
        }
        state.pending = state.pending.filter((id) => !ids.has(id));
        if (changed.change === 'renamed' || changed.change === 'moved') {
          // A renamed or moved folder changes the paths below it: read them again when needed.
          state.paths = {};
        }
      })
      .addCase(sessionActions.signedOut, () => initialCollectionsState)
      .addCase(sessionActions.expired, () => initialCollectionsState)
      .addCase(sessionActions.databaseSwitched, () => initialCollectionsState);
  },
});

/** Event creators of the collections slice. */
export const collectionsActions = collectionsSlice.actions;
/** The collections slice's reducer. */
export const collectionsReducer = collectionsSlice.reducer;
