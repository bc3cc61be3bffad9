/**
 * An in-memory copy of each firm's folder tree (autocomplete within 2× of the raw
 * full-text query): every folder's parent and name, the folder permissions and the teams'
 * members, so that a hit's path and whether a restricted folder hides it cost microseconds
 * instead of a recursive query.
 *
 * Exactness: triggers raise the firm's folder tree version in the transaction of every change the
 * copy holds (migration 0017), and a read passes the version its own statement saw beside its rows.
 * Versions only grow, and a copy is stored under the version its reader saw before it read the
 * rows, so a copy whose version is at least the one a read saw holds everything that read saw (or
 * newer): paths and visibility are never older than the hits they decorate. Another version reloads
 * the firm's copy first.
 *
 * Memory: a firm with more than {@link FOLDER_TREE_MAX_FOLDERS} folders is not copied (its reads
 * take the recursive query), and at most {@link FOLDER_TREE_MAX_TOTAL_FOLDERS} folders are kept
 * over all firms, the least recently used firms' copies dropped first.
 */
import type { Kysely } from 'kysely';
import { ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import type { SearchPathItem } from '@common/search';
import type { DB } from '../db/schema';
import { treeFolders, treePermissions, treeTeamMembers } from '../repositories/folderTree';
import type { Executor } from '../repositories/types';

/** Most folders of a firm that are copied (about 200 bytes each with their paths). */
export const FOLDER_TREE_MAX_FOLDERS = 100_000;

/**
 * Most folders kept over all firms (about 40 MB); past it the least recently used firms' copies
 * are dropped.
 */
export const FOLDER_TREE_MAX_TOTAL_FOLDERS = 200_000;

/** One firm's folder tree as copied at (or after) `version`. Never changed once loaded. */
export interface FolderTree {
  version: number;
  /** Folder id → its parent's id ('' for a top-level folder) and its name. */
  folders: Map<string, { parentId: string; name: string }>;
  /** Restricted folder id → the users and teams its permissions let in. */
  restricted: Map<string, { users: Set<string>; teams: Set<string> }>;
  /** User id → the ids of the teams the user belongs to. */
  teamsOf: Map<string, Set<string>>;
  /** Paths already made ({@link pathOf}), by folder id: shared, never changed. */
  paths: Map<string, readonly SearchPathItem[]>;
  /** Hidden roots already worked out ({@link hiddenRootsIn}), by user id. */
  hiddenRoots: Map<string, ReadonlySet<string>>;
}

/** A firm's copy, or the version at which it had too many folders to copy. */
type Entry = FolderTree | { version: number; tooLarge: true };

/** The folders an entry holds. */
const sizeOf = (entry: Entry) => ('tooLarge' in entry ? 0 : entry.folders.size);

/** The copies of one database's firms (one per database handle, see {@link folderTreeCacheFor}). */
export class FolderTreeCache {
  private readonly entries = new Map<string, Entry>();

  /** Folders held over all firms. */
  private total = 0;

  /**
   * @param maxFolders most folders of a firm that are copied
   * @param maxTotalFolders most folders kept over all firms
   */
  constructor(
    private readonly maxFolders = FOLDER_TREE_MAX_FOLDERS,
    private readonly maxTotalFolders = FOLDER_TREE_MAX_TOTAL_FOLDERS,
  ) {}

  /** Folders held over all firms (tests). */
  get heldFolders(): number {
    return this.total;
  }

  /**
   * A firm's tree at least as new as `version`, read anew when the copy is older (or missing), or
   * null when the firm has more folders than the cache copies.
   * @param version the firm's folder tree version that the caller's own read saw
   */
  async tree(db: Executor, databaseId: string, version: number): Promise<FolderTree | null> {
    let entry = this.entries.get(databaseId);
    if (!entry || entry.version < version) {
      entry = await this.load(db, databaseId, version);
    }
    // Most recently used last; the oldest dropped while over the total.
    this.drop(databaseId);
    this.entries.set(databaseId, entry);
    this.total += sizeOf(entry);
    for (const oldest of this.entries.keys()) {
      if (this.total <= this.maxTotalFolders || oldest === databaseId) break;
      this.drop(oldest);
    }
    return 'tooLarge' in entry ? null : entry;
  }

  private drop(databaseId: string): void {
    const entry = this.entries.get(databaseId);
    if (!entry) return;
    this.total -= sizeOf(entry);
    this.entries.delete(databaseId);
  }

  private async load(db: Executor, databaseId: string, version: number): Promise<Entry> {
    const folderRows = await treeFolders(db, databaseId, this.maxFolders);
    if (!folderRows) return { version, tooLarge: true };
    const [permissions, members] = await Promise.all([
      treePermissions(db, databaseId),
      treeTeamMembers(db, databaseId),
    ]);
    const folders = new Map(folderRows.map((f) => [f.id, { parentId: f.parent_id, name: f.name }]));
    const restricted = new Map<string, { users: Set<string>; teams: Set<string> }>();
    for (const p of permissions) {
      let who = restricted.get(p.folder_id);
      if (!who) {
        who = { users: new Set(), teams: new Set() };
        restricted.set(p.folder_id, who);
      }
      (p.permissionable_type === 'team' ? who.teams : who.users).add(p.permissionable_id);
    }
    const teamsOf = new Map<string, Set<string>>();
    for (const m of members) {
      const teams = teamsOf.get(m.user_id) ?? new Set<string>();
      teams.add(m.team_id);
      teamsOf.set(m.user_id, teams);
    }
    return { version, folders, restricted, teamsOf, paths: new Map(), hiddenRoots: new Map() };
  }
}

const caches = new WeakMap<Kysely<DB>, FolderTreeCache>();

/** The folder tree cache of a database handle (one per handle, made on first use). */
export function folderTreeCacheFor(db: Kysely<DB>): FolderTreeCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new FolderTreeCache();
    caches.set(db, cache);
  }
  return cache;
}

/**
 * The restricted folders of a tree that a user may not see: no permission names the user or one
 * of the user's teams (as access.ts hiddenRoots decides from the database). Worked out once per
 * user and tree.
 */
export function hiddenRootsIn(tree: FolderTree, userId: string): ReadonlySet<string> {
  let hidden = tree.hiddenRoots.get(userId);
  if (hidden) return hidden;
  const teams = tree.teamsOf.get(userId);
  const roots = new Set<string>();
  for (const [folderId, who] of tree.restricted) {
    const allowed = who.users.has(userId) || [...who.teams].some((t) => teams?.has(t) === true);
    if (!allowed) roots.add(folderId);
  }
  hidden = roots;
  tree.hiddenRoots.set(userId, hidden);
  return hidden;
}

/** The path item of the root: every path starts with it. */
export const ROOT_PATH_ITEM: SearchPathItem = { id: ROOT_FOLDER_ID, name: ROOT_FOLDER_NAME };

/**
 * The path of a folder, or of the items it holds: Root, then its ancestors from the top-level
 * folder down to the folder itself (just Root for the root ''); null when a folder on the way is
 * not in the tree (the caller then asks the database). Made once per folder and tree, then shared:
 * callers must not change it.
 */
export function pathOf(tree: FolderTree, folderId: string): readonly SearchPathItem[] | null {
  return pathWithin(tree, folderId, 0);
}

/** {@link pathOf} with the depth so far, so that a cycle cannot recurse forever. */
function pathWithin(
  tree: FolderTree,
  folderId: string,
  depth: number,
): readonly SearchPathItem[] | null {
  if (depth > tree.folders.size) return null;
  if (folderId === ROOT_FOLDER_ID) return [ROOT_PATH_ITEM];
  const made = tree.paths.get(folderId);
  if (made) return made;
  const folder = tree.folders.get(folderId);
  if (!folder) return null;
  const parent = pathWithin(tree, folder.parentId, depth + 1);
  if (!parent) return null;
  const path = [...parent, { id: folderId, name: folder.name }];
  tree.paths.set(folderId, path);
  return path;
}

/**
 * Whether a folder lies in a hidden subtree: it or one of its ancestors is among `hiddenRoots`.
 * A folder not in the tree counts as hidden (never shown by mistake).
 */
export function hiddenIn(
  tree: FolderTree,
  folderId: string,
  hiddenRoots: ReadonlySet<string>,
): boolean {
  if (hiddenRoots.size === 0) return false;
  let steps = 0;
  for (let id = folderId; id !== ROOT_FOLDER_ID; steps += 1) {
    if (hiddenRoots.has(id)) return true;
    const folder = tree.folders.get(id);
    if (!folder || steps > tree.folders.size) return true;
    id = folder.parentId;
  }
  return false;
}
