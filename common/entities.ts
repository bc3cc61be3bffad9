/**
 * Folders and files as the API shows them (SPEC section 3 field lists, snake_case; timestamps ISO 8601 in UTC, sizes in bytes), and the requests that create, rename, move or copy them.
 */
import type { HistoryAction } from './history';

/** One user's favorite entry on a file or folder. */
export interface FavoriteEntry {
  user_id: string;
  enabled: boolean;
}

/** A folder as the API answers it. `parent_id` is '' for the root. */
export interface FolderDto {
  id: string;
  type: 'folder';
  name: string;
  parent_id: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  created_by_name: string;
  archived_at: string | null;
  /** Derived: true when the current user has an enabled favorite entry. */
  favorite: boolean;
  favorites: FavoriteEntry[];
  /** The current user's colour for this folder, or null. */
  color: string | null;
}

/** Upload state of a file row: pending until the object is verified, then ready. */
export type FileStatus = 'pending' | 'ready';

/** A file as the API answers it. */
export interface FileDto {
  id: string;
  type: 'file';
  /** Full display name including the extension, e.g. "Statement.pdf". */
  name: string;
  /** The part after the last dot, lowercased; '' when there is none. */
  extension: string;
  folder_id: string;
  size: number;
  content_type: string;
  status: FileStatus;
  /**
   * Hex sha256 of the stored bytes: known when the upload is recorded for files up to the multipart
   * threshold (and checked against the client's), computed in the background just after for larger
   * ones; null until then.
   */
  sha256: string | null;
  created_by: string;
  created_by_name: string;
  database_id: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  favorite: boolean;
  favorites: FavoriteEntry[];
  /**
   * A first-page thumbnail is stored (GET files/{id}/thumbnail answers it): document imaging
   * derived one from these bytes (docs/architecture.md "Document imaging").
   */
  thumbnail: boolean;
}

export type EntityDto = FolderDto | FileDto;

/** One breadcrumb, root first. */
export interface BreadcrumbDto {
  id: string;
  name: string;
  type: 'breadcrumb';
}

/** POST /api/rest/folders. */
export interface CreateFolderRequest {
  name: string;
  /** '' or absent for the root. */
  parent_id?: string;
}

/** GET /api/rest/folders/name_list?parent_id: the names in a folder (folders and files). */
export interface NameListDto {
  parent_id: string;
  names: string[];
}

/** A file or folder named by the client (bulk bodies, DESIGN.md section 3). */
export interface EntityRef {
  id: string;
  type: 'file' | 'folder';
}

/**
 * PATCH /api/rest/folders/{id} and PATCH /api/rest/files/{id}: rename and/or move one item.
 * For a file the extension is kept: a new name that does not end in the file's extension gets it
 * appended ("Jan" → "Jan.pdf"). The unique-name rule applies in the target folder.
 */
export interface UpdateEntityRequest {
  name?: string;
  /** New parent folder ('' for the root): moves the item, as POST bulk/move does for one. */
  parent_id?: string;
}

/** POST /api/rest/folders/{id}/copy: copies the folder tree into `parent_id` (default: same parent). */
export interface CopyFolderRequest {
  parent_id?: string;
}

/** An archived item on the Archive page: the item plus the folder it was archived from. */
export type ArchivedEntityDto = EntityDto & {
  /** The path of the parent it was archived from ('' for the root), for display. */
  parent_path: string;
};

/** An item of the Recent page: the item and the user's last action on it. */
export type RecentEntityDto = EntityDto & {
  /** When the current user last created, opened or changed it (ISO UTC). */
  recent_at: string;
  /** The history action of that last touch (create, rename, move, preview, download…). */
  recent_action: HistoryAction;
};

/** POST /api/rest/entities/archived?page&skip body (archivePaging flag). */
export interface ArchivedPageRequest {
  /** Keyset cursor from the previous page's `next_cursor`. */
  cursor?: string;
  page_size?: number;
}
