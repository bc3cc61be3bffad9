/**
 * Requests and answers of organising: favorites, colours, and the bulk actions with their per-item results (SPEC section 4).
 */
import type { EntityDto, EntityRef } from './entities';

/** PATCH /api/rest/{folders|files}/{id}/favorite. */
export interface FavoriteRequest {
  enabled: boolean;
}

/** PATCH /api/rest/colors: the current user's colour of one folder; 'default' clears it. */
export interface ColorRequest {
  folder_id: string;
  /** A key of FOLDER_COLORS (common/constants.ts). */
  color: FolderColorKey;
}

/** Keys of the folder colour palette (SPEC section 9), see FOLDER_COLORS. */
export type FolderColorKey =
  | 'default'
  | 'grey'
  | 'dark_red'
  | 'light_red'
  | 'dark_orange'
  | 'light_orange'
  | 'dark_yellow'
  | 'light_yellow'
  | 'dark_green'
  | 'light_green'
  | 'dark_blue'
  | 'light_blue'
  | 'dark_purple'
  | 'light_purple'
  | 'dark_pink'
  | 'light_pink';

/** POST /api/rest/bulk/archive, /restore and /destroy: at most BULK_MAX_ITEMS items. */
export interface BulkRequest {
  items: EntityRef[];
}

/** POST /api/rest/bulk/move. */
export interface BulkMoveRequest extends BulkRequest {
  /** Target folder, '' for the root. */
  folder_id: string;
}

/** POST /api/rest/bulk/color (folders only; files in `items` are refused with 400). */
export interface BulkColorRequest extends BulkRequest {
  color: FolderColorKey;
}

/**
 * What a bulk call did to one item, with what its undo needs: the parent it was moved from, the
 * colour it had, whether a restore had to put it in the root.
 */
export interface BulkItemResult extends EntityRef {
  name: string;
  /** bulk/move: the parent before the move ('' for the root). */
  prev_parent_id?: string;
  /** bulk/color: the user's colour before the change. */
  prev_color?: FolderColorKey;
  /** bulk/restore and restore: the parent was archived or gone, so the item went to the root. */
  restored_to_root?: boolean;
}

/** Answer of every bulk call (and of single archive/restore, with one item). */
export interface BulkResultDto {
  /** Items changed (an item already in the wanted state is answered unchanged and counted). */
  count: number;
  items: BulkItemResult[];
}

/** Answer of POST /api/rest/{folders|files}/{id}/restore. */
export interface RestoreResultDto {
  item: EntityDto;
  /** True when the item's parent was archived or gone, so it was restored to the root. */
  restored_to_root: boolean;
}
