/**
 * The statistics of a folder or a file the details panel shows (SPEC section 4): counts and sizes in bytes per type.
 */
import type { FileCategory } from './files';

/** One category's count and bytes (categories of SPEC section 3, common/files.ts). */
export interface TypeStatDto {
  category: FileCategory;
  count: number;
  /** Bytes. */
  size: number;
}

/** GET /api/rest/folders/{id}/stats: the live tree under a folder (recursive). */
export interface FolderStatsDto {
  folder_id: string;
  folders: number;
  files: number;
  /** Bytes of all live files in the tree. */
  size: number;
  by_type: TypeStatDto[];
}

/** GET /api/rest/files/stats: the whole firm database's live files. */
export interface FileStatsDto {
  files: number;
  folders: number;
  /** Bytes. */
  size: number;
  archived_files: number;
}
