/**
 * The list and statistics queries (Archive, Favorites, Recent pages; folder and firm
 * statistics). Every query is scoped by the firm database. The lists read positions first (only
 * the columns their order needs, through their indexes), so a page costs a constant number of
 * queries: positions, a count, then the rows of the page by id.
 */
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  type StringReference,
} from 'kysely';
import type { DB, FilesTable, FoldersTable } from '../db/schema';
import type { FolderFilter } from './permissions';
import type { Executor } from './types';

/** A position in the Archive list: newest archive first, then id descending. */
export interface ArchivedPosition {
  archived_at: string;
  id: string;
  type: 'folder' | 'file';
}

/** A position in a user's favorites or recent items: newest first, then key descending. */
export interface TimePosition {
  /** ISO UTC time (favorite's updated_at, recent item's at). */
  at: string;
  /** The favorite row's id, or the recent item's entity id. */
  id: string;
}

/** A row of the Favorites or Recent list: which item, and its list position. */
export interface ListedItem extends TimePosition {
  entity_type: 'folder' | 'file';
  entity_id: string;
  /** The recent item's action (Recent list only). */
  action?: string;
}

/**
 * The items archived themselves (archived_root_id = id; not those archived with a folder), newest
 * archive first, as positions: after `after` (keyset) or from `offset`, at most `limit`. Reads
 * the partial `*_archive_list` indexes, offset + limit entries per table at most.
 */
export async function listArchivedPositions(
  db: Executor,
  databaseId: string,
  after: ArchivedPosition | null,
  offset: number,
  limit: number,
  visible: FolderFilter = null,
): Promise<ArchivedPosition[]> {
  const take = offset + limit;
  const arm = async (table: 'folders' | 'files'): Promise<ArchivedPosition[]> => {
    let query = db
      .selectFrom(table)
      .select(['archived_at', 'id'])
      .where('database_id', '=', databaseId)
      .whereRef('archived_root_id', '=', 'id')
      .where('archived_at', 'is not', null)
      .$if(visible !== null, (q) => q.where(visible!(table === 'folders' ? 'id' : 'folder_id')));
    if (after) {
      query = query.where((eb) =>
        eb(eb.refTuple('archived_at', 'id'), '<', eb.tuple(after.archived_at, after.id)),
      );
    }
    const rows = await query
      .orderBy('archived_at', 'desc')
      .orderBy('id', 'desc')
      .limit(take)
      .execute();
    const type = table === 'folders' ? 'folder' : 'file';
    return rows.map((r) => ({ archived_at: r.archived_at!, id: r.id, type }));
  };
  const [folders, files] = await Promise.all([arm('folders'), arm('files')]);
  // Code-unit order: for fixed-format ISO times and UUIDs every collation the indexes use agrees.
  const newestFirst = (a: ArchivedPosition, b: ArchivedPosition): number => {
    if (a.archived_at !== b.archived_at) return a.archived_at < b.archived_at ? 1 : -1;
    return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  };
  return [...folders, ...files].sort(newestFirst).slice(offset, take);
}

/** Number of items archived themselves in a firm database. */
export async function countArchivedRoots(
  db: Executor,
  databaseId: string,
  visible: FolderFilter = null,
): Promise<number> {
  const count = async (table: 'folders' | 'files') => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('database_id', '=', databaseId)
      .whereRef('archived_root_id', '=', 'id')
      .where('archived_at', 'is not', null)
      .$if(visible !== null, (q) => q.where(visible!(table === 'folders' ? 'id' : 'folder_id')))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const [folders, files] = await Promise.all([count('folders'), count('files')]);
  return folders + files;
}

/**
 * "The listed item is live": a folder (`fo`) or a ready file (`fi`) of the row, not archived, and
 * visible to the session (`visible`). Favorites and recent items join both tables the same way.
 */
function liveItem(
  eb: ExpressionBuilder<DB & { fo: FoldersTable; fi: FilesTable }, 'fo' | 'fi'>,
  visible: FolderFilter,
): Expression<SqlBool> {
  return eb.or([
    eb.and([
      eb('fo.id', 'is not', null),
      eb('fo.archived_at', 'is', null),
      ...(visible ? [visible('fo.id')] : []),
    ]),
    eb.and([
      eb('fi.id', 'is not', null),
      eb('fi.archived_at', 'is', null),
      eb('fi.status', '=', 'ready'),
      ...(visible ? [visible('fi.folder_id')] : []),
    ]),
  ]);
}

/** The columns a favorite and a recent item share: whose row it is, and which item it lists. */
interface ListedRow {
  database_id: string;
  user_id: string;
  entity_type: string;
  entity_id: string;
}

/** A column of the listed row `l`, typed as text (the columns compared with values). */
const listedColumn = (column: keyof ListedRow) => sql.ref<string>(`l.${column}`);

/**
 * A user's rows of a list (`from`: favorites or recent items, aliased `l`) in a firm database,
 * joined to their items (folder `fo` or file `fi`), live items only (see {@link liveItem}).
 */
function liveListedQuery<L extends ListedRow>(
  from: SelectQueryBuilder<DB & { l: L }, 'l', object>,
  databaseId: string,
  userId: string,
  visible: FolderFilter,
) {
  return from
    .leftJoin('folders as fo', (j) =>
      j
        .onRef('fo.id', '=', 'l.entity_id')
        .on(listedColumn('entity_type'), '=', 'folder')
        .onRef('fo.database_id', '=', 'l.database_id'),
    )
    .leftJoin('files as fi', (j) =>
      j
        .onRef('fi.id', '=', 'l.entity_id')
        .on(listedColumn('entity_type'), '=', 'file')
        .onRef('fi.database_id', '=', 'l.database_id'),
    )
    .where(listedColumn('database_id'), '=', databaseId)
    .where(listedColumn('user_id'), '=', userId)
    .where((eb) => liveItem(eb, visible));
}

/**
 * One page of a list kept newest first: ordered by `at` then `id` (two column references),
 * descending, after `after` (keyset on the same pair) or from `offset`, at most `limit`.
 */
function newestFirstPage<D, TB extends keyof D, O>(
  query: SelectQueryBuilder<D, TB, O>,
  at: StringReference<D, TB>,
  id: StringReference<D, TB>,
  after: TimePosition | null,
  offset: number,
  limit: number,
): SelectQueryBuilder<D, TB, O> {
  const atRef = sql.ref<string>(at);
  const idRef = sql.ref<string>(id);
  return query
    .$if(after !== null, (q) =>
      q.where((eb) => eb(eb.tuple(atRef, idRef), '<', eb.tuple(after!.at, after!.id))),
    )
    .orderBy(atRef, 'desc')
    .orderBy(idRef, 'desc')
    .limit(limit)
    .offset(offset);
}

/** A listed row read as a {@link ListedItem} (its entity type narrowed to folder or file). */
function listedItem(row: Omit<ListedItem, 'entity_type'> & { entity_type: string }): ListedItem {
  return { ...row, entity_type: row.entity_type === 'folder' ? 'folder' : 'file' };
}

/** A user's enabled favorites joined to their items, live items only. */
function favoritesQuery(db: Executor, databaseId: string, userId: string, visible: FolderFilter) {
  const enabled = db.selectFrom('favorites as l').where('l.enabled', '=', 1);
  return liveListedQuery(enabled, databaseId, userId, visible);
}

/**
 * A user's enabled favorites whose item is live, newest favorite first (updated_at, then the
 * favorite's id, descending): after `after` or from `offset`, at most `limit`.
 */
export async function listFavoriteItems(
  db: Executor,
  databaseId: string,
  userId: string,
  after: TimePosition | null,
  offset: number,
  limit: number,
  visible: FolderFilter = null,
): Promise<ListedItem[]> {
  const query = favoritesQuery(db, databaseId, userId, visible).select([
    'l.updated_at as at',
    'l.id',
    'l.entity_type',
    'l.entity_id',
  ]);
  const rows = await newestFirstPage(query, 'l.updated_at', 'l.id', after, offset, limit).execute();
  return rows.map(listedItem);
}

/** Number of a user's enabled favorites whose item is live. */
export async function countFavoriteItems(
  db: Executor,
  databaseId: string,
  userId: string,
  visible: FolderFilter = null,
): Promise<number> {
  const row = await favoritesQuery(db, databaseId, userId, visible)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A user's recent items joined to their items, live items only. */
function recentQuery(db: Executor, databaseId: string, userId: string, visible: FolderFilter) {
  return liveListedQuery(db.selectFrom('recent_items as l'), databaseId, userId, visible);
}

/**
 * A user's recent items whose item is live, newest touch first (at, then entity id,
 * descending): after `after` or from `offset`, at most `limit`.
 */
export async function listRecentItems(
  db: Executor,
  databaseId: string,
  userId: string,
  after: TimePosition | null,
  offset: number,
  limit: number,
  visible: FolderFilter = null,
): Promise<ListedItem[]> {
  const query = recentQuery(db, databaseId, userId, visible).select([
    'l.at',
    'l.entity_id as id',
    'l.entity_type',
    'l.entity_id',
    'l.action',
  ]);
  const rows = await newestFirstPage(query, 'l.at', 'l.entity_id', after, offset, limit).execute();
  return rows.map(listedItem);
}

/** Number of a user's recent items whose item is live. */
export async function countRecentItems(
  db: Executor,
  databaseId: string,
  userId: string,
  visible: FolderFilter = null,
): Promise<number> {
  const row = await recentQuery(db, databaseId, userId, visible)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The chains of ancestors of some folders, by one recursive query: for each folder id, its
 * ancestors and itself from the top-level folder down ({id, name}; the root is not included).
 * Ids not found (and '') answer no entry.
 */
export async function folderChains(
  db: Executor,
  databaseId: string,
  folderIds: string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  const wanted = [...new Set(folderIds.filter((id) => id !== ''))];
  const chains = new Map<string, { id: string; name: string }[]>();
  if (wanted.length === 0) return chains;
  const rows = await db
    .withRecursive('chain(start_id, id, name, parent_id, depth)', (qb) =>
      qb
        .selectFrom('folders')
        .select(['id as start_id', 'id', 'name', 'parent_id', sql<number>`0`.as('depth')])
        .where('database_id', '=', databaseId)
        .where('id', 'in', wanted)
        .unionAll((u) =>
          u
            .selectFrom('folders as f')
            .innerJoin('chain', 'chain.parent_id', 'f.id')
            .select([
              'chain.start_id',
              'f.id',
              'f.name',
              'f.parent_id',
              (eb) => eb('chain.depth', '+', 1).as('depth'),
            ])
            .where('f.database_id', '=', databaseId)
            .where('chain.depth', '<', 1000),
        ),
    )
    .selectFrom('chain')
    .select(['start_id', 'id', 'name', 'depth'])
    .execute();
  const byStart = new Map<string, { id: string; name: string; depth: number }[]>();
  for (const row of rows) {
    const list = byStart.get(row.start_id) ?? [];
    list.push({ id: row.id, name: row.name, depth: Number(row.depth) });
    byStart.set(row.start_id, list);
  }
  for (const [id, list] of byStart) {
    list.sort((a, b) => b.depth - a.depth);
    chains.set(
      id,
      list.map((c) => ({ id: c.id, name: c.name })),
    );
  }
  return chains;
}

/**
 * The display path of some folders ("Clients / Smith family / 2026"), from {@link folderChains};
 * a folder not found (or the root '') has no entry.
 */
export async function folderPaths(
  db: Executor,
  databaseId: string,
  ids: string[],
): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (const [id, chain] of await folderChains(db, databaseId, ids)) {
    paths.set(id, chain.map((c) => c.name).join(' / '));
  }
  return paths;
}

/** Count and bytes of files per extension. */
export interface ExtensionStat {
  extension: string;
  count: number;
  size: number;
}

/**
 * Which rows belong to a folder's tree: the live rows under a live folder, or, under an archived
 * folder, the rows archived with it (same archived_root_id).
 */
export type TreeScope = { live: true } | { live: false; archivedRootId: string };

function treeQuery(
  db: Executor,
  databaseId: string,
  folderId: string,
  scope: TreeScope,
  exclude: readonly string[],
) {
  return db.withRecursive('tree(id)', (qb) =>
    qb
      .selectFrom('folders')
      .select('id')
      .where('database_id', '=', databaseId)
      .where('id', '=', folderId)
      .unionAll((u) => {
        const step = u
          .selectFrom('folders as f')
          .innerJoin('tree', 'tree.id', 'f.parent_id')
          .select('f.id')
          .where('f.database_id', '=', databaseId)
          .$if(exclude.length > 0, (q) => q.where('f.id', 'not in', exclude));
        return scope.live
          ? step.where('f.archived_at', 'is', null)
          : step.where('f.archived_root_id', '=', scope.archivedRootId);
      }),
  );
}

/**
 * Statistics of a folder's tree (recursive): its subfolders (the folder itself not counted) and
 * its ready files per extension. Two queries whatever the tree size. The descent stops at the
 * folders in `exclude` (restricted folders hidden from the session): their subtrees are not counted.
 */
export async function folderTreeStats(
  db: Executor,
  databaseId: string,
  folderId: string,
  scope: TreeScope,
  exclude: readonly string[] = [],
): Promise<{ folders: number; byExtension: ExtensionStat[] }> {
  const [folderRow, fileRows] = await Promise.all([
    treeQuery(db, databaseId, folderId, scope, exclude)
      .selectFrom('tree')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    treeQuery(db, databaseId, folderId, scope, exclude)
      .selectFrom('files')
      .select((eb) => [
        'files.extension',
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>('files.size').as('bytes'),
      ])
      .where('files.database_id', '=', databaseId)
      .where('files.status', '=', 'ready')
      .where('files.folder_id', 'in', (eb) => eb.selectFrom('tree').select('tree.id'))
      .where((eb) =>
        scope.live
          ? eb('files.archived_at', 'is', null)
          : eb('files.archived_root_id', '=', scope.archivedRootId),
      )
      .groupBy('files.extension')
      .execute(),
  ]);
  return {
    folders: Math.max(0, Number(folderRow.n) - 1),
    byExtension: fileRows.map((r) => ({
      extension: r.extension,
      count: Number(r.n),
      size: Number(r.bytes ?? 0),
    })),
  };
}

/** A firm database's live ready files per extension (those in visible folders). */
export async function firmFileStatsByExtension(
  db: Executor,
  databaseId: string,
  visible: FolderFilter = null,
): Promise<ExtensionStat[]> {
  const rows = await db
    .selectFrom('files')
    .select((eb) => [
      'extension',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('size').as('bytes'),
    ])
    .where('database_id', '=', databaseId)
    .where('status', '=', 'ready')
    .where('archived_at', 'is', null)
    .$if(visible !== null, (q) => q.where(visible!('folder_id')))
    .groupBy('extension')
    .execute();
  return rows.map((r) => ({
    extension: r.extension,
    count: Number(r.n),
    size: Number(r.bytes ?? 0),
  }));
}

/**
 * A firm database's totals: live folders, live ready files and their bytes, archived files; with
 * `visible`, only those outside the session's hidden subtrees.
 */
export async function firmTotals(
  db: Executor,
  databaseId: string,
  visible: FolderFilter = null,
): Promise<{ folders: number; files: number; size: number; archivedFiles: number }> {
  const [folders, files] = await Promise.all([
    db
      .selectFrom('folders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('database_id', '=', databaseId)
      .where('archived_at', 'is', null)
      .$if(visible !== null, (q) => q.where(visible!('id')))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('files')
      .select((eb) => [
        eb.fn
          .sum<number>(eb.case().when('archived_at', 'is', null).then(1).else(0).end())
          .as('live'),
        eb.fn
          .sum<number>(eb.case().when('archived_at', 'is', null).then(eb.ref('size')).else(0).end())
          .as('bytes'),
        eb.fn
          .sum<number>(eb.case().when('archived_at', 'is not', null).then(1).else(0).end())
          .as('archived'),
      ])
      .where('database_id', '=', databaseId)
      .where('status', '=', 'ready')
      .$if(visible !== null, (q) => q.where(visible!('folder_id')))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    folders: Number(folders.n),
    files: Number(files.live ?? 0),
    size: Number(files.bytes ?? 0),
    archivedFiles: Number(files.archived ?? 0),
  };
}
