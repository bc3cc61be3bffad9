/**
 * Folder tree slice (flag folderTreeView): the folder tree pane beside the folder list. It holds
 * the subfolders of each folder loaded so far (read lazily, one folder at a time, when its node is
 * expanded, with the folder picker's loader) and which folders are expanded. The open folder's
 * ancestors are expanded when its breadcrumbs arrive (so after a reload too), and the loaded levels
 * follow the same events the folder list follows: a folder created, renamed, moved, copied,
 * archived, restored or deleted.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { ROOT_FOLDER_ID } from '@common/constants';
import { nameKey } from '@common/names';
import type { EntityDto, FolderDto } from '@common/entities';
import { entitiesActions } from '../entities/entitiesSlice';
import { organiseEvents, type ItemsChanged } from '../organise/organiseEvents';
import type { PickerFolder, PickerLevel } from '../organise/organiseSlice';
import { sessionActions } from '../session/sessionSlice';

/** The folder tree's state. */
export interface FolderTreeState {
  /** The subfolders of each folder read so far, by parent id ('' for the root). */
  levels: Record<string, PickerLevel>;
  /** The expanded folders (a set; '' is the root). */
  expanded: Record<string, true>;
}

/** Nothing loaded; the root expanded. */
export const initialFolderTreeState: FolderTreeState = {
  levels: {},
  expanded: { [ROOT_FOLDER_ID]: true },
};

/** The tree's order of subfolders (the server's): case-insensitive name, then name, then id. */
function compareTreeFolders(a: PickerFolder, b: PickerFolder): number {
  const keyA = nameKey(a.name);
  const keyB = nameKey(b.name);
  if (keyA !== keyB) return keyA < keyB ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
}

/** Puts a folder into its parent's loaded level at its place (replacing it if there). */
function insertFolder(state: FolderTreeState, parentId: string, folder: PickerFolder): void {
  const level = state.levels[parentId];
  if (level?.status !== 'succeeded') return;
  const folders = level.folders.filter((candidate) => candidate.id !== folder.id);
  const index = folders.findIndex((candidate) => compareTreeFolders(folder, candidate) < 0);
  folders.splice(index < 0 ? folders.length : index, 0, { id: folder.id, name: folder.name });
  level.folders = folders;
}

/** Removes folders from every loaded level. */
function removeFolders(state: FolderTreeState, ids: ReadonlySet<string>): void {
  if (ids.size === 0) return;
  for (const level of Object.values(state.levels)) {
    if (level.folders.some((folder) => ids.has(folder.id))) {
      level.folders = level.folders.filter((folder) => !ids.has(folder.id));
    }
  }
}

/** The folder entities among `entities`. */
function foldersOf(entities: readonly EntityDto[]): FolderDto[] {
  return entities.filter((entity): entity is FolderDto => entity.type === 'folder');
}

/**
 * Applies an organising change to the loaded levels: renamed folders change name (and place),
 * folders moved leave their level and join the target's, copies and restored folders join their
 * parent's, archived and deleted ones leave. A restored folder whose parent is not known is left
 * to `refreshRequested` (see the saga).
 */
function applyItemsChanged(state: FolderTreeState, change: ItemsChanged): void {
  const folderResults = change.results.filter((result) => result.type === 'folder');
  switch (change.change) {
    case 'renamed':
      for (const entity of foldersOf(change.entities)) {
        for (const [parentId, level] of Object.entries(state.levels)) {
          if (level.folders.some((folder) => folder.id === entity.id)) {
            insertFolder(state, parentId, { id: entity.id, name: entity.name });
          }
        }
      }
      return;
    case 'moved': {
      removeFolders(state, new Set(folderResults.map((result) => result.id)));
      if (change.targetFolderId === undefined) return;
      for (const result of folderResults) {
        insertFolder(state, change.targetFolderId, { id: result.id, name: result.name });
      }
      return;
    }
    case 'copied':
    case 'restored':
      for (const entity of foldersOf(change.entities)) {
        insertFolder(state, entity.parent_id, { id: entity.id, name: entity.name });
      }
      if (change.change === 'restored') {
        for (const result of folderResults) {
          if (result.restored_to_root) {
            insertFolder(state, ROOT_FOLDER_ID, { id: result.id, name: result.name });
          }
        }
      }
      return;
    case 'archived':
    case 'destroyed':
      removeFolders(state, new Set(folderResults.map((result) => result.id)));
      return;
    default:
      return;
  }
}

const folderTreeSlice = createSlice({
  name: 'folderTree',
  initialState: initialFolderTreeState,
  reducers: {
    /**
     * The tree needs a folder's subfolders (its node was expanded, or it is an open folder's
     * ancestor). With `refresh`, a level already loaded is read again. The saga decides.
     */
    levelRequested(_state, _action: PayloadAction<{ parentId: string; refresh?: boolean }>) {},
    /** The saga started reading a level (a level already shown stays shown meanwhile). */
    levelLoadStarted(state, action: PayloadAction<{ parentId: string }>) {
      const known = state.levels[action.payload.parentId];
      state.levels[action.payload.parentId] = {
        status: 'loading',
        folders: known?.folders ?? [],
        error: null,
      };
    },
    /** A folder's subfolders arrived (every page). */
    levelLoaded(state, action: PayloadAction<{ parentId: string; folders: PickerFolder[] }>) {
      state.levels[action.payload.parentId] = {
        status: 'succeeded',
        folders: action.payload.folders,
        error: null,
      };
    },
    /** A folder's subfolders could not be read. */
    levelFailed(state, action: PayloadAction<{ parentId: string; message: string }>) {
      state.levels[action.payload.parentId] = {
        status: 'failed',
        folders: [],
        error: action.payload.message,
      };
    },
    /** The user expanded or collapsed nodes: the expanded folders now ('' is the root). */
    expandedChanged(state, action: PayloadAction<{ ids: readonly string[] }>) {
      const expanded: Record<string, true> = {};
      for (const id of action.payload.ids) expanded[id] = true;
      state.expanded = expanded;
    },
    /** Every loaded level should be read again (a restore put folders back where not known). */
    refreshRequested() {},
  },
  extraReducers: (builder) => {
    builder
      .addCase(entitiesActions.folderLoaded, (state, action) => {
        // The open folder's ancestors (and the root) are expanded, so it shows in the tree.
        const { folder, breadcrumbs } = action.payload;
        state.expanded[ROOT_FOLDER_ID] = true;
        for (const crumb of breadcrumbs) {
          if (crumb.id !== folder.id) state.expanded[crumb.id] = true;
        }
      })
      .addCase(entitiesActions.folderCreated, (state, action) => {
        const { folder } = action.payload;
        insertFolder(state, folder.parent_id, { id: folder.id, name: folder.name });
      })
      .addCase(organiseEvents.itemsChanged, (state, action) =>
        applyItemsChanged(state, action.payload),
      )
      .addCase(sessionActions.signedOut, () => initialFolderTreeState)
      .addCase(sessionActions.expired, () => initialFolderTreeState)
      .addCase(sessionActions.databaseSwitched, () => initialFolderTreeState);
  },
});

/** Event creators of the folder tree slice. */
export const folderTreeActions = folderTreeSlice.actions;
/** The folder tree slice's reducer. */
export const folderTreeReducer = folderTreeSlice.reducer;
