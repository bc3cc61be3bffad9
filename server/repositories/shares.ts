/**
 * Share links, invitations and external shares. Every query is scoped by the firm
 * database, except the token look-ups of the public share routes (the token names its firm).
 */
import { sql, type Insertable, type Updateable } from 'kysely';
import type {
  ExternalShareRow,
  ExternalSharesTable,
  ShareInvitationRow,
  ShareInvitationsTable,
  ShareLinkRow,
  ShareLinksTable,
} from '../db/schemaSharing';
import type { FileRow, FolderRow, UserRow } from '../db/schema';
import type { Executor } from './types';

/** A link with its creator's names. */
export type ShareLinkWithCreator = ShareLinkRow & {
  creator_first: string | null;
  creator_last: string | null;
};

function linksWithCreator(db: Executor) {
  return db
    .selectFrom('share_links')
    .leftJoin('users', 'users.id', 'share_links.created_by')
    .selectAll('share_links')
    .select(['users.first_name as creator_first', 'users.last_name as creator_last']);
}

/** Inserts a share link. */
export async function insertLink(db: Executor, row: Insertable<ShareLinksTable>): Promise<void> {
  await db.insertInto('share_links').values(row).execute();
}

/** The link with this id in this firm, if any. */
export function findLink(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<ShareLinkWithCreator | undefined> {
  return linksWithCreator(db)
    .where('share_links.database_id', '=', databaseId)
    .where('share_links.id', '=', id)
    .executeTakeFirst();
}

/** The link whose token has this sha256, in any firm (public token look-up). */
export function findLinkByTokenHash(
  db: Executor,
  tokenHash: string,
): Promise<ShareLinkWithCreator | undefined> {
  return linksWithCreator(db).where('share_links.token_hash', '=', tokenHash).executeTakeFirst();
}

/** The links of these ids in this firm (any state). */
export function findLinksByIds(
  db: Executor,
  databaseId: string,
  ids: string[],
): Promise<ShareLinkWithCreator[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return linksWithCreator(db)
    .where('share_links.database_id', '=', databaseId)
    .where('share_links.id', 'in', ids)
    .execute();
}

/** The links of one item that are not revoked, newest first. */
export function listLinksOfEntity(
  db: Executor,
  databaseId: string,
  entityType: 'file' | 'folder',
  entityId: string,
): Promise<ShareLinkWithCreator[]> {
  return linksWithCreator(db)
    .where('share_links.database_id', '=', databaseId)
    .where('share_links.entity_type', '=', entityType)
    .where('share_links.entity_id', '=', entityId)
    .where('share_links.revoked_at', 'is', null)
    .orderBy('share_links.created_at', 'desc')
    .orderBy('share_links.id', 'desc')
    .execute();
}

/** The links a user created in a firm (any state), newest first. */
export function linksByCreator(
  db: Executor,
  databaseId: string,
  creatorId: string,
): Promise<ShareLinkWithCreator[]> {
  return linksWithCreator(db)
    .where('share_links.database_id', '=', databaseId)
    .where('share_links.created_by', '=', creatorId)
    .orderBy('share_links.created_at', 'desc')
    .orderBy('share_links.id', 'desc')
    .execute();
}

/** Updates a link. */
export async function updateLink(
  db: Executor,
  databaseId: string,
  id: string,
  patch: Updateable<ShareLinksTable>,
): Promise<void> {
  await db
    .updateTable('share_links')
    .set(patch)
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

// ---- invitations --------------------------------------------------------------------------------

/** Inserts an invitation. */
export async function insertInvitation(
  db: Executor,
  row: Insertable<ShareInvitationsTable>,
): Promise<void> {
  await db.insertInto('share_invitations').values(row).execute();
}

/** The invitation whose token has this sha256, in any firm (public token look-up). */
export function findInvitationByTokenHash(
  db: Executor,
  tokenHash: string,
): Promise<ShareInvitationRow | undefined> {
  return db
    .selectFrom('share_invitations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** One invitation of a link in this firm, if any. */
export function findInvitation(
  db: Executor,
  databaseId: string,
  linkId: string,
  id: string,
): Promise<ShareInvitationRow | undefined> {
  return db
    .selectFrom('share_invitations')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('link_id', '=', linkId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The invitations of some links, oldest first. */
export function invitationsOfLinks(db: Executor, linkIds: string[]): Promise<ShareInvitationRow[]> {
  if (linkIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('share_invitations')
    .selectAll()
    .where('link_id', 'in', linkIds)
    .orderBy('sent_at')
    .orderBy('id')
    .execute();
}

/** Updates an invitation. */
export async function updateInvitation(
  db: Executor,
  id: string,
  patch: Updateable<ShareInvitationsTable>,
): Promise<void> {
  await db.updateTable('share_invitations').set(patch).where('id', '=', id).execute();
}

// ---- external shares ----------------------------------------------------------------------------

/** An external share with its user's names and e-mail. */
export type ExternalShareWithUser = ExternalShareRow & {
  user_first: string | null;
  user_last: string | null;
  user_email: string | null;
  user_username: string | null;
};

function sharesWithUser(db: Executor) {
  return db
    .selectFrom('external_shares')
    .leftJoin('users', 'users.id', 'external_shares.user_id')
    .selectAll('external_shares')
    .select([
      'users.first_name as user_first',
      'users.last_name as user_last',
      'users.email as user_email',
      'users.username as user_username',
    ]);
}

/** Inserts an external share. */
export async function insertShare(
  db: Executor,
  row: Insertable<ExternalSharesTable>,
): Promise<void> {
  await db.insertInto('external_shares').values(row).execute();
}

/** The external share with this id in this firm (removed or not), if any. */
export function findShare(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<ExternalShareWithUser | undefined> {
  return sharesWithUser(db)
    .where('external_shares.database_id', '=', databaseId)
    .where('external_shares.id', '=', id)
    .executeTakeFirst();
}

/** The user's share through a link that is not removed, if any. */
export function activeShareOf(
  db: Executor,
  linkId: string,
  userId: string,
): Promise<ExternalShareRow | undefined> {
  return db
    .selectFrom('external_shares')
    .selectAll()
    .where('link_id', '=', linkId)
    .where('user_id', '=', userId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
}

/** The shares of some links that are not removed, oldest first. */
export function activeSharesOfLinks(
  db: Executor,
  linkIds: string[],
): Promise<ExternalShareWithUser[]> {
  if (linkIds.length === 0) return Promise.resolve([]);
  return sharesWithUser(db)
    .where('external_shares.link_id', 'in', linkIds)
    .where('external_shares.removed_at', 'is', null)
    .orderBy('external_shares.created_at')
    .orderBy('external_shares.id')
    .execute();
}

/** Every share of some links (removed ones too), newest first. */
export function sharesOfLinks(db: Executor, linkIds: string[]): Promise<ExternalShareWithUser[]> {
  if (linkIds.length === 0) return Promise.resolve([]);
  return sharesWithUser(db)
    .where('external_shares.link_id', 'in', linkIds)
    .orderBy('external_shares.created_at', 'desc')
    .orderBy('external_shares.id', 'desc')
    .execute();
}

/** Every share of a user in a firm (removed ones too), oldest first. */
export function sharesOfUser(
  db: Executor,
  databaseId: string,
  userId: string,
): Promise<ExternalShareRow[]> {
  return db
    .selectFrom('external_shares')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Ends every share of a link that is not removed yet.
 * @returns the shares ended (with their users), for their history events
 */
export async function removeSharesOfLink(
  db: Executor,
  linkId: string,
  removedAt: string,
): Promise<ExternalShareWithUser[]> {
  const shares = await activeSharesOfLinks(db, [linkId]);
  if (shares.length > 0) {
    await db
      .updateTable('external_shares')
      .set({ removed_at: removedAt })
      .where('link_id', '=', linkId)
      .where('removed_at', 'is', null)
      .execute();
  }
  return shares;
}

/** Updates an external share. */
export async function updateShare(
  db: Executor,
  id: string,
  patch: Updateable<ExternalSharesTable>,
): Promise<void> {
  await db.updateTable('external_shares').set(patch).where('id', '=', id).execute();
}

// ---- contents of shared folders -------------------------------------------------------------------

/** The ids among `folderIds` that carry folder permissions (restricted folders). */
export async function restrictedAmong(
  db: Executor,
  databaseId: string,
  folderIds: string[],
): Promise<string[]> {
  if (folderIds.length === 0) return [];
  const rows = await db
    .selectFrom('folder_permissions')
    .select('folder_id')
    .distinct()
    .where('database_id', '=', databaseId)
    .where('folder_id', 'in', folderIds)
    .execute();
  return rows.map((r) => r.folder_id);
}

/**
 * The live contents of a folder for a shared list: folders that are not archived and carry no
 * folder permission, and ready files that are not archived, each ordered by name.
 */
export async function sharedFolderContents(
  db: Executor,
  databaseId: string,
  folderId: string,
): Promise<{ folders: FolderRow[]; files: FileRow[] }> {
  const [folders, files] = await Promise.all([
    db
      .selectFrom('folders')
      .selectAll()
      .where('database_id', '=', databaseId)
      .where('parent_id', '=', folderId)
      .where('archived_at', 'is', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('folder_permissions')
              .select(sql<number>`1`.as('one'))
              .whereRef('folder_permissions.folder_id', '=', 'folders.id'),
          ),
        ),
      )
      .orderBy('name_key')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('files')
      .selectAll()
      .where('database_id', '=', databaseId)
      .where('folder_id', '=', folderId)
      .where('status', '=', 'ready')
      .where('archived_at', 'is', null)
      .orderBy('name_key')
      .orderBy('id')
      .execute(),
  ]);
  return { folders, files };
}

/**
 * The user whose e-mail is this lowercased address, when exactly one has it (e-mail is not unique
 * among users; a sign-in by address must not pick one of several).
 */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, '=', email)
    .limit(2)
    .execute();
  return rows.length === 1 ? rows[0] : undefined;
}

/** Whether a user with this lowercased username or e-mail exists. */
export async function userExistsForEmail(db: Executor, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb('username_key', '=', email), eb(sql`lower(email)`, '=', email)]))
    .executeTakeFirst();
  return row !== undefined;
}
