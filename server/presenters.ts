/**
 * Row → JSON presenters (DESIGN.md section 3). Only these functions decide what leaves the server:
 * no password hashes, storage keys, session ids or other users' favorite entries.
 */
import type { FavoriteEntry, FileDto, FolderDto } from '@common/entities';
import type { HistoryAttributes, HistoryEventDto } from '@common/history';
import type { HistoryRow } from './db/schema';
import type { FileWithCreator } from './repositories/files';
import type { FolderWithCreator } from './repositories/folders';

/** Display name from first and last names. */
export function displayName(
  first: string | null | undefined,
  last: string | null | undefined,
): string {
  return [first, last].filter(Boolean).join(' ').trim();
}

/** The current user's favorite entry for an item, if any (rows hold enabled as 0/1). */
export interface FavoriteRow {
  entity_id: string;
  user_id: string;
  enabled: number;
}

function favoritesOf(id: string, favorites: FavoriteRow[]): FavoriteEntry[] {
  return favorites
    .filter((f) => f.entity_id === id)
    .map((f) => ({ user_id: f.user_id, enabled: Number(f.enabled) === 1 }));
}

/** A folder as JSON; `favorites` are the current user's entries only. */
export function presentFolder(
  row: FolderWithCreator,
  extras: { favorites?: FavoriteRow[]; color?: string | null } = {},
): FolderDto {
  const favorites = favoritesOf(row.id, extras.favorites ?? []);
  return {
    id: row.id,
    type: 'folder',
    name: row.name,
    parent_id: row.parent_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: row.created_by,
    created_by_name: displayName(row.creator_first, row.creator_last),
    archived_at: row.archived_at,
    favorite: favorites.some((f) => f.enabled),
    favorites,
    color: extras.color ?? null,
  };
}

/**
 * A file as JSON; `favorites` are the current user's entries only; `thumbnails` the sha256 values
 * with a stored thumbnail (repositories/renditions.ts `sha256WithThumbnail`; none when absent).
 * The storage key stays inside.
 */
export function presentFile(
  row: FileWithCreator,
  extras: { favorites?: FavoriteRow[]; thumbnails?: ReadonlySet<string> } = {},
): FileDto {
  const favorites = favoritesOf(row.id, extras.favorites ?? []);
  return {
    id: row.id,
    type: 'file',
    name: row.name,
    extension: row.extension,
    folder_id: row.folder_id,
    size: Number(row.size),
    content_type: row.content_type,
    status: row.status,
    sha256: row.sha256 ?? null,
    created_by: row.created_by,
    created_by_name: displayName(row.creator_first, row.creator_last),
    database_id: row.database_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    archived_at: row.archived_at,
    favorite: favorites.some((f) => f.enabled),
    favorites,
    thumbnail: row.sha256 ? (extras.thumbnails?.has(row.sha256) ?? false) : false,
  };
}

/** A history event as JSON (IP and user agent stay inside: they are for audits, not lists). */
export function presentHistoryEvent(
  row: Pick<
    HistoryRow,
    | 'id'
    | 'entity_type'
    | 'entity_id'
    | 'action'
    | 'user_id'
    | 'user_name'
    | 'attributes'
    | 'created_at'
  >,
): HistoryEventDto {
  let attributes: HistoryAttributes;
  try {
    attributes = JSON.parse(row.attributes) as HistoryAttributes;
  } catch {
    attributes = {};
  }
  return {
    id: row.id,
    entity_type: row.entity_type as HistoryEventDto['entity_type'],
    entity_id: row.entity_id,
    action: row.action as HistoryEventDto['action'],
    user_id: row.user_id,
    user_name: row.user_name,
    attributes,
    created_at: row.created_at,
  };
}
