/**
 * Details slice: the entity side panel (SPEC section 2 "Entity side panel"). Any list opens it for one item with `details/panelOpened`; the panel loads the item and its
 * path (GET folders/{id} or files/{id}, and the breadcrumbs), shows its details and actions, and,
 * when the fileStats flag is on, a folder's statistics (GET folders/{id}/stats). The root folder
 * (id '') shows the firm-wide statistics instead (GET files/stats and files/stats/by_type), which
 * the Recent page also shows.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { ROOT_FOLDER_ID } from '@common/constants';
import type { BreadcrumbDto, EntityDto, EntityRef } from '@common/entities';
import type { FileStatsDto, FolderStatsDto, TypeStatDto } from '@common/stats';
import type { Status } from '@src/store/status';
import { organiseEvents } from '../organise/organiseEvents';
import { sessionActions } from '../session/sessionSlice';
import { uploadsActions } from '../uploads/uploadsSlice';
import { versionsActions } from '../versions/versionsSlice';

/** Loading state of one request. */
export interface DetailsRequest {
  status: Status;
  error: string | null;
}

/** The firm-wide statistics (files/stats and files/stats/by_type). */
export interface FirmStatsState extends DetailsRequest {
  totals: FileStatsDto | null;
  byType: TypeStatDto[];
}

/** The details slice's state. */
export interface DetailsState {
  /** The item the panel shows; null when it is closed. */
  target: EntityRef | null;
  /** The item as the server answered it (null while loading, and for the root). */
  entity: EntityDto | null;
  /** The folders above the item, top-level first (empty for an item in the root). */
  path: BreadcrumbDto[];
  /** Loading the item and its path. */
  load: DetailsRequest;
  /** The folder's statistics (flag fileStats; folders only). */
  stats: DetailsRequest & { data: FolderStatsDto | null };
  /** The firm's statistics (flag fileStats). */
  firm: FirmStatsState;
}

const idle: DetailsRequest = { status: 'idle', error: null };

const initialDetailsState: DetailsState = {
  target: null,
  entity: null,
  path: [],
  load: idle,
  stats: { ...idle, data: null },
  firm: { ...idle, totals: null, byType: [] },
};

const detailsSlice = createSlice({
  name: 'details',
  initialState: initialDetailsState,
  reducers: {
    panelOpened(state, action: PayloadAction<EntityRef>) {
      const target = { id: action.payload.id, type: action.payload.type };
      const same = state.target?.id === target.id && state.entity?.id === target.id;
      state.target = target;
      if (target.id === ROOT_FOLDER_ID) {
        // The root has no item to read: the panel shows its name and the firm's statistics.
        state.entity = null;
        state.path = [];
        state.load = { status: 'succeeded', error: null };
        state.stats = { ...idle, data: null };
        return;
      }
      if (!same) {
        state.entity = null;
        state.path = [];
      }
      state.load = { status: 'loading', error: null };
      state.stats = { ...idle, data: same ? state.stats.data : null };
    },
    panelClosed(state) {
      state.target = null;
      state.entity = null;
      state.path = [];
      state.load = idle;
      state.stats = { ...idle, data: null };
    },
    /** The item and its path arrived. */
    entityLoaded(state, action: PayloadAction<{ entity: EntityDto; path: BreadcrumbDto[] }>) {
      const { entity, path } = action.payload;
      if (state.target?.id !== entity.id) return;
      state.entity = entity;
      state.path = path;
      state.load = { status: 'succeeded', error: null };
    },
    /** The item could not be read (gone, archived, another firm's). */
    entityLoadFailed(state, action: PayloadAction<{ id: string; message: string }>) {
      if (state.target?.id !== action.payload.id) return;
      state.load = { status: 'failed', error: action.payload.message };
    },
    /** The saga starts reading the folder's statistics. */
    statsRequested(state, action: PayloadAction<{ folderId: string }>) {
      if (state.target?.id !== action.payload.folderId) return;
      state.stats.status = 'loading';
      state.stats.error = null;
    },
    /** The folder's statistics arrived. */
    statsLoaded(state, action: PayloadAction<{ stats: FolderStatsDto }>) {
      const { stats } = action.payload;
      if (state.target?.id !== stats.folder_id) return;
      state.stats = { status: 'succeeded', error: null, data: stats };
    },
    /** The folder's statistics could not be read. */
    statsLoadFailed(state, action: PayloadAction<{ folderId: string; message: string }>) {
      if (state.target?.id !== action.payload.folderId) return;
      state.stats = { status: 'failed', error: action.payload.message, data: null };
    },
    /** A view shows the firm's statistics (the Recent page, the root's panel): read them. */
    firmStatsRequested(state) {
      state.firm.status = 'loading';
      state.firm.error = null;
    },
    /** The firm's statistics arrived. */
    firmStatsLoaded(state, action: PayloadAction<{ totals: FileStatsDto; byType: TypeStatDto[] }>) {
      state.firm = { status: 'succeeded', error: null, ...action.payload };
    },
    /** The firm's statistics could not be read. */
    firmStatsLoadFailed(state, action: PayloadAction<{ message: string }>) {
      state.firm.status = 'failed';
      state.firm.error = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(organiseEvents.itemsChanged, (state, action) => {
        const target = state.target;
        if (!target || !state.entity) return;
        const changed = action.payload;
        const gone = changed.change === 'destroyed' || changed.change === 'archived';
        if (gone && changed.results.some((result) => result.id === target.id)) {
          // The item left the live tree: the panel closes (the toast offers the undo).
          return { ...initialDetailsState, firm: state.firm };
        }
        const entity = changed.entities.find(
          (candidate) => candidate.id === target.id && candidate.type === target.type,
        );
        if (entity) {
          state.entity = entity;
          return;
        }
        const result = changed.results.find((candidate) => candidate.id === target.id);
        if (!result) return;
        if (changed.change === 'favorited' || changed.change === 'unfavorited') {
          state.entity.favorite = changed.change === 'favorited';
        } else if (changed.change === 'renamed') {
          state.entity.name = result.name;
        }
      })
      // A new version (an upload, a restore) of the file shown: its size and dates changed.
      .addCase(uploadsActions.fileRecorded, (state, action) => {
        if (state.target?.id === action.payload.file.id && state.entity) {
          state.entity = action.payload.file;
        }
      })
      .addCase(versionsActions.restoreSucceeded, (state, action) => {
        if (state.target?.id === action.payload.file.id && state.entity) {
          state.entity = action.payload.file;
        }
      })
      .addCase(sessionActions.signedOut, () => initialDetailsState)
      .addCase(sessionActions.expired, () => initialDetailsState)
      .addCase(sessionActions.databaseSwitched, () => initialDetailsState);
  },
});

export const detailsActions = detailsSlice.actions;
export const detailsReducer = detailsSlice.reducer;
