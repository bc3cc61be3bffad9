/**
 * Entities slice: the folder view. The open folder, its breadcrumbs, the loaded pages of its
 * contents (folders first, then files, as the server orders them), and the create-folder dialog.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_PAGE_SIZE, ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import type { CursorPage, Page } from '@common/api';
import type { BreadcrumbDto, EntityDto, FolderDto } from '@common/entities';
import type { CurrentUserDto } from '@common/session';
import type { Status } from '@src/store/status';
import { folderOpened } from '../folderEvents';
import { organiseEvents, type ItemsChanged } from '../organise/organiseEvents';
import { sessionActions } from '../session/sessionSlice';
import { versionsActions } from '../versions/versionsSlice';
import { uploadsActions } from '../uploads/uploadsSlice';
import { DEFAULT_FOLDER_SORT, type FolderSort } from '@common/sort';
import { compareEntities } from './entityOrder';

/** The open folder's id and name ('' and 'Root' for the root, SPEC section 2). */
export interface FolderSummary {
  id: string;
  name: string;
}

/** Status and error of one request. */
export interface RequestState {
  status: Status;
  error: string | null;
}

/** The create-folder dialog. */
export interface CreateFolderState extends RequestState {
  dialog: 'open' | 'closed';
  /** The final name of the last folder created (the server may have made it unique). */
  createdName: string | null;
  /** The id of the last folder created, which the list scrolls into view. */
  createdId: string | null;
}

/** The user's remembered sort of the folder view (server-side preference, with the current user). */
export interface SortPreferenceState {
  status: Status;
  /** The remembered sort; null until known. */
  value: FolderSort | null;
}

/** The remembered sort the current user came with, if the server sent one. */
function rememberedSort(user: CurrentUserDto | null): SortPreferenceState {
  const sort = user?.preferences?.folder_sort;
  return sort ? { status: 'succeeded', value: sort } : { status: 'idle', value: null };
}

/** The entities slice's state. */
export interface EntitiesState {
  /** The open folder. */
  folder: FolderSummary;
  /** Loading the open folder's details and breadcrumbs (not needed for the root). */
  details: RequestState;
  /** From the top-level folder down to the open folder; empty for the root. */
  breadcrumbs: BreadcrumbDto[];
  /** The loaded items, in list order. */
  items: EntityDto[];
  /** How many items the folder holds on the server. */
  total: number;
  /** The last page loaded (0 before the first). */
  page: number;
  /**
   * The server's keyset cursor after the last loaded page (`next_cursor`): the next page is read
   * after it, as fast as the first whatever its depth; null when the server sent none.
   */
  nextCursor: string | null;
  pageSize: number;
  /** Loading the first page. */
  list: RequestState;
  /** Loading the next page at the end of the list. */
  more: RequestState;
  createFolder: CreateFolderState;
  /** How the list is sorted: the address's sort, else the user's remembered one, else by name. */
  sort: FolderSort;
  /** Whether `sort` came from the address (`?sort=&order=`). */
  sortFromAddress: boolean;
  sortPreference: SortPreferenceState;
}

const idle: RequestState = { status: 'idle', error: null };

/** The root folder as the view starts (SPEC section 2: "starts as a root folder"). */
const ROOT_FOLDER: FolderSummary = { id: ROOT_FOLDER_ID, name: ROOT_FOLDER_NAME };

/** The state before any folder is opened. */
export const initialEntitiesState: EntitiesState = {
  folder: ROOT_FOLDER,
  details: idle,
  breadcrumbs: [],
  items: [],
  total: 0,
  page: 0,
  nextCursor: null,
  pageSize: DEFAULT_PAGE_SIZE,
  list: idle,
  more: idle,
  createFolder: {
    dialog: 'closed',
    status: 'idle',
    error: null,
    createdName: null,
    createdId: null,
  },
  sort: DEFAULT_FOLDER_SORT,
  sortFromAddress: false,
  sortPreference: { status: 'idle', value: null },
};

/**
 * Inserts or replaces an item at its place in list order. An item that sorts after the last
 * loaded one while more pages remain is not inserted (it arrives with its page); the total grows
 * for a new item either way.
 */
function upsertItem(state: EntitiesState, item: EntityDto): void {
  const existing = state.items.findIndex((candidate) => candidate.id === item.id);
  if (existing >= 0) {
    state.items.splice(existing, 1);
    state.total -= 1;
  }
  const index = state.items.findIndex(
    (candidate) => compareEntities(item, candidate, state.sort) < 0,
  );
  const allLoaded = state.items.length >= state.total;
  if (index >= 0) state.items.splice(index, 0, item);
  else if (allLoaded) state.items.push(item);
  state.total += 1;
}

/** Removes the loaded rows with these ids; the total shrinks by the rows removed. */
function removeItems(state: EntitiesState, ids: readonly string[]): void {
  const gone = new Set(ids);
  const before = state.items.length;
  state.items = state.items.filter((item) => !gone.has(item.id));
  state.total = Math.max(state.items.length, state.total - (before - state.items.length));
}

/** The folder an item is in ('' for the root). */
function parentOf(item: EntityDto): string {
  return item.type === 'folder' ? item.parent_id : item.folder_id;
}

/**
 * Updates the open folder's rows after an organising action (organise/itemsChanged): renamed,
 * favorited and coloured rows change in place (a rename moves the row to its place in list
 * order); rows moved away, archived or deleted leave the list; rows moved, copied or restored
 * into the open folder (an undo puts them back) are inserted at their place.
 */
function applyItemsChanged(state: EntitiesState, change: ItemsChanged): void {
  const current = state.folder.id;
  const { entities, results } = change;
  switch (change.change) {
    case 'renamed':
    case 'favorited':
    case 'unfavorited':
      for (const entity of entities) {
        if (entity.id === current && change.change === 'renamed') {
          state.folder.name = entity.name;
          const crumb = state.breadcrumbs.find((candidate) => candidate.id === entity.id);
          if (crumb) crumb.name = entity.name;
        }
        const index = state.items.findIndex((item) => item.id === entity.id);
        if (index < 0) continue;
        if (change.change === 'renamed') upsertItem(state, entity);
        else state.items[index] = entity;
      }
      return;
    case 'colored': {
      const ids = new Set(results.map((result) => result.id));
      const color = !change.color || change.color === 'default' ? null : change.color;
      for (const item of state.items) {
        if (item.type === 'folder' && ids.has(item.id)) item.color = color;
      }
      return;
    }
    case 'moved':
      if (change.targetFolderId === current) {
        for (const entity of entities) upsertItem(state, entity);
      } else {
        removeItems(
          state,
          results.map((result) => result.id),
        );
      }
      return;
    case 'copied':
    case 'restored':
      for (const entity of entities) {
        if (parentOf(entity) === current) upsertItem(state, entity);
      }
      return;
    case 'archived':
    case 'destroyed':
      removeItems(
        state,
        results.map((result) => result.id),
      );
      return;
  }
}

const entitiesSlice = createSlice({
  name: 'entities',
  initialState: initialEntitiesState,
  reducers: {
    /**
     * The user clicked a column header: the sort is remembered (the saga saves it) and the address
     * changes, which opens the folder again in that sort.
     */
    sortChosen(state, action: PayloadAction<{ sort: FolderSort }>) {
      state.sortPreference = { status: 'succeeded', value: action.payload.sort };
    },
    /** The open folder's details and breadcrumbs arrived. */
    folderLoaded(
      state,
      action: PayloadAction<{ folder: FolderDto; breadcrumbs: BreadcrumbDto[] }>,
    ) {
      const { folder, breadcrumbs } = action.payload;
      if (folder.id !== state.folder.id) return;
      state.folder = { id: folder.id, name: folder.name };
      state.breadcrumbs = breadcrumbs;
      state.details = { status: 'succeeded', error: null };
    },
    /** The open folder could not be read (e.g. it does not exist). */
    folderLoadFailed(state, action: PayloadAction<{ folderId: string; message: string }>) {
      if (action.payload.folderId !== state.folder.id) return;
      state.details = { status: 'failed', error: action.payload.message };
    },
    /** A page of the open folder's contents arrived. */
    pageLoaded(
      state,
      action: PayloadAction<{ folderId: string; page: Page<EntityDto> | CursorPage<EntityDto> }>,
    ) {
      const { folderId, page } = action.payload;
      if (folderId !== state.folder.id || page.page !== state.page + 1) return;
      // Files recorded while the first page was on its way: the page may have been read before
      // they were, so each one the page lacks goes in at its place once the page is in.
      const early = page.page === 1 ? state.items : [];
      if (page.page === 1) state.items = [];
      const known = new Set(state.items.map((item) => item.id));
      for (const item of page.items) {
        if (!known.has(item.id)) state.items.push(item);
      }
      state.total = Math.max(page.total, state.items.length);
      state.page = page.page;
      state.nextCursor = 'next_cursor' in page ? page.next_cursor : null;
      state.pageSize = page.page_size;
      if (page.page === 1) state.list = { status: 'succeeded', error: null };
      else state.more = { status: 'succeeded', error: null };
      const onPage = new Set(page.items.map((item) => item.id));
      for (const item of early) if (!onPage.has(item.id)) upsertItem(state, item);
    },
    /** A page could not be loaded. */
    pageLoadFailed(
      state,
      action: PayloadAction<{ folderId: string; page: number; message: string }>,
    ) {
      const { folderId, page, message } = action.payload;
      if (folderId !== state.folder.id) return;
      if (page === 1) state.list = { status: 'failed', error: message };
      else state.more = { status: 'failed', error: message };
    },
    /** The end of the list was reached (or "Try again" pressed): load the next page if any. */
    nextPageRequested(state) {
      if (state.list.status !== 'succeeded' || state.more.status === 'loading') return;
      if (state.items.length >= state.total) return;
      state.more = { status: 'loading', error: null };
    },
    /** The user opened the "New folder" dialog. */
    createFolderDialogOpened(state) {
      state.createFolder = {
        dialog: 'open',
        status: 'idle',
        error: null,
        createdName: null,
        createdId: null,
      };
    },
    /** The user closed the dialog without creating. */
    createFolderDialogClosed(state) {
      state.createFolder.dialog = 'closed';
      state.createFolder.error = null;
      if (state.createFolder.status !== 'loading') state.createFolder.status = 'idle';
    },
    /** The dialog was submitted with a valid name. */
    folderCreateRequested(state, _action: PayloadAction<{ name: string; parentId: string }>) {
      state.createFolder.status = 'loading';
      state.createFolder.error = null;
    },
    /** The server created the folder (its name may have a counter added). */
    folderCreated(state, action: PayloadAction<{ folder: FolderDto }>) {
      const { folder } = action.payload;
      state.createFolder = {
        dialog: 'closed',
        status: 'succeeded',
        error: null,
        createdName: folder.name,
        createdId: folder.id,
      };
      if (folder.parent_id === state.folder.id && state.list.status === 'succeeded') {
        upsertItem(state, folder);
      }
    },
    /** The server refused or could not be reached; payload is the message. */
    folderCreateFailed(state, action: PayloadAction<{ message: string }>) {
      state.createFolder.status = 'failed';
      state.createFolder.error = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(folderOpened, (state, action) => {
        const { folderId } = action.payload;
        const isRoot = folderId === ROOT_FOLDER_ID;
        const known = state.breadcrumbs.find((crumb) => crumb.id === folderId);
        const sameFolder = state.folder.id === folderId;
        const keepDetails = sameFolder && state.details.status === 'succeeded';
        // No sort said (undefined, e.g. "Try again"): the same folder keeps its sort.
        const keepSort = action.payload.sort === undefined && sameFolder;
        const sort = keepSort
          ? state.sort
          : (action.payload.sort ?? state.sortPreference.value ?? DEFAULT_FOLDER_SORT);
        return {
          ...initialEntitiesState,
          createFolder: { ...initialEntitiesState.createFolder },
          folder: isRoot
            ? ROOT_FOLDER
            : {
                id: folderId,
                name: sameFolder ? state.folder.name : (known?.name ?? ''),
              },
          breadcrumbs: isRoot ? [] : sameFolder ? state.breadcrumbs : [],
          details:
            isRoot || keepDetails
              ? { status: 'succeeded', error: null }
              : { status: 'loading', error: null },
          list: { status: 'loading', error: null },
          sort,
          sortFromAddress: keepSort ? state.sortFromAddress : Boolean(action.payload.sort),
          sortPreference: state.sortPreference,
        };
      })
      // Also while the first page loads: a file uploaded right after the folder opened can be
      // recorded before the page answers, yet be missing from it (read before the record).
      .addCase(uploadsActions.fileRecorded, (state, action) => {
        const { file } = action.payload;
        const listed = state.list.status === 'succeeded' || state.list.status === 'loading';
        if (file.folder_id === state.folder.id && listed) upsertItem(state, file);
      })
      // A restored version changed the file's size, sha256 and update time.
      .addCase(versionsActions.restoreSucceeded, (state, action) => {
        const { file } = action.payload;
        if (file.folder_id === state.folder.id && state.list.status === 'succeeded') {
          upsertItem(state, file);
        }
      })
      .addCase(organiseEvents.itemsChanged, (state, action) => {
        if (state.list.status === 'succeeded') applyItemsChanged(state, action.payload);
      })
      .addCase(sessionActions.currentUserLoaded, (state, action) => {
        state.sortPreference = rememberedSort(action.payload);
      })
      .addCase(sessionActions.signedIn, (state, action) => {
        state.sortPreference = rememberedSort(action.payload);
      })
      .addCase(sessionActions.signedOut, () => initialEntitiesState)
      .addCase(sessionActions.expired, () => initialEntitiesState)
      .addCase(sessionActions.databaseSwitched, (_state, action) => ({
        ...initialEntitiesState,
        sortPreference: rememberedSort(action.payload),
      }));
  },
});

/** Event creators of the entities slice. */
/** The slice's actions, with the folder view's shared `folderOpened` (folderEvents.ts). */
export const entitiesActions = { ...entitiesSlice.actions, folderOpened };
/** The entities slice's reducer. */
export const entitiesReducer = entitiesSlice.reducer;
