/**
 * Integrations, integration keys, key uses and single-sign-on tokens (migration 0009). Only
 * Kysely; rules live in server/services/integrations.ts and sso.ts.
 */
import type { Insertable } from 'kysely';
import type {
  IntegrationKeyRow,
  IntegrationKeyUsesTable,
  IntegrationKeysTable,
  SsoTokenRow,
  SsoTokensTable,
} from '../db/schema';
import type { Executor } from './types';

/** A firm database with its integration switch (enabled 0 when there is no row). */
export interface IntegrationRow {
  database_id: string;
  database_name: string;
  description: string | null;
  enabled: number;
  updated_at: string | null;
}

/**
 * The databases where the user is an administrator, with their integration switch, by name;
 * firms disabled by an operator are left out.
 */
export function integrationsAdministeredBy(
  db: Executor,
  userId: string,
): Promise<IntegrationRow[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('databases', 'databases.id', 'memberships.database_id')
    .leftJoin('integrations', 'integrations.database_id', 'databases.id')
    .select((eb) => [
      'databases.id as database_id',
      'databases.name as database_name',
      'databases.description as description',
      eb.fn.coalesce('integrations.enabled', eb.lit(0)).as('enabled'),
      'integrations.updated_at as updated_at',
    ])
    .where('memberships.user_id', '=', userId)
    .where('memberships.role', '=', 'admin')
    .where('databases.disabled_at', 'is', null)
    .orderBy('databases.name')
    .orderBy('databases.id')
    .execute();
}

/** One database's integration switch, or undefined when the database does not exist. */
export function integrationOf(
  db: Executor,
  databaseId: string,
): Promise<IntegrationRow | undefined> {
  return db
    .selectFrom('databases')
    .leftJoin('integrations', 'integrations.database_id', 'databases.id')
    .select((eb) => [
      'databases.id as database_id',
      'databases.name as database_name',
      'databases.description as description',
      eb.fn.coalesce('integrations.enabled', eb.lit(0)).as('enabled'),
      'integrations.updated_at as updated_at',
    ])
    .where('databases.id', '=', databaseId)
    .executeTakeFirst();
}

/** True when the database's integrations are enabled. */
export async function integrationsEnabled(db: Executor, databaseId: string): Promise<boolean> {
  const row = await db
    .selectFrom('integrations')
    .select('enabled')
    .where('database_id', '=', databaseId)
    .executeTakeFirst();
  return row?.enabled === 1;
}

/** Sets a database's integration switch (inserting its row the first time). */
export async function upsertIntegration(
  db: Executor,
  row: { database_id: string; enabled: number; updated_by: string; at: string },
): Promise<void> {
  await db
    .insertInto('integrations')
    .values({
      database_id: row.database_id,
      enabled: row.enabled,
      updated_by: row.updated_by,
      created_at: row.at,
      updated_at: row.at,
    })
    .onConflict((oc) =>
      oc.column('database_id').doUpdateSet({
        enabled: row.enabled,
        updated_by: row.updated_by,
        updated_at: row.at,
      }),
    )
    .execute();
}

/** An integration key with its user's names. */
export interface IntegrationKeyWithUser extends IntegrationKeyRow {
  username: string;
  first_name: string;
  last_name: string;
}

/**
 * A firm's keys, optionally of one partner app and/or one user, oldest first.
 * @param filter.partnerAppId only this partner's keys
 * @param filter.userId only this user's keys
 */
export function keysOfDatabase(
  db: Executor,
  databaseId: string,
  filter: { partnerAppId?: string; userId?: string } = {},
): Promise<IntegrationKeyWithUser[]> {
  let query = db
    .selectFrom('integration_keys')
    .innerJoin('users', 'users.id', 'integration_keys.user_id')
    .selectAll('integration_keys')
    .select(['users.username', 'users.first_name', 'users.last_name'])
    .where('integration_keys.database_id', '=', databaseId);
  if (filter.partnerAppId !== undefined) {
    query = query.where('integration_keys.partner_app_id', '=', filter.partnerAppId);
  }
  if (filter.userId !== undefined)
    query = query.where('integration_keys.user_id', '=', filter.userId);
  return query.orderBy('integration_keys.created_at').orderBy('integration_keys.id').execute();
}

/** The key with this hash, if any. */
export function findKeyByHash(
  db: Executor,
  keyHash: string,
): Promise<IntegrationKeyRow | undefined> {
  return db
    .selectFrom('integration_keys')
    .selectAll()
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** The key with this id, if any. */
export function findKeyById(db: Executor, id: string): Promise<IntegrationKeyRow | undefined> {
  return db.selectFrom('integration_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts a key. */
export async function insertKey(
  db: Executor,
  row: Insertable<IntegrationKeysTable>,
): Promise<void> {
  await db.insertInto('integration_keys').values(row).execute();
}

/** Replaces a key's hash and prefix (rotation); the old key no longer matches any row. */
export async function replaceKeySecret(
  db: Executor,
  id: string,
  secret: { key_hash: string; key_prefix: string; rotated_at: string },
): Promise<void> {
  await db.updateTable('integration_keys').set(secret).where('id', '=', id).execute();
}

/** Notes a key's last use. */
export async function touchKey(
  db: Executor,
  id: string,
  at: string,
  ip: string | null,
): Promise<void> {
  await db
    .updateTable('integration_keys')
    .set({ last_used_at: at, last_used_ip: ip })
    .where('id', '=', id)
    .execute();
}

/** Deletes keys by id (their uses and tokens go with them). @returns how many were deleted */
export async function deleteKeys(db: Executor, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  await db.deleteFrom('sso_tokens').where('key_id', 'in', ids).execute();
  await db.deleteFrom('integration_key_uses').where('key_id', 'in', ids).execute();
  const result = await db.deleteFrom('integration_keys').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Records one use of a key. */
export async function insertKeyUse(
  db: Executor,
  row: Insertable<IntegrationKeyUsesTable>,
): Promise<void> {
  await db.insertInto('integration_key_uses').values(row).execute();
}

/** Inserts a single-sign-on token. */
export async function insertSsoToken(db: Executor, row: Insertable<SsoTokensTable>): Promise<void> {
  await db.insertInto('sso_tokens').values(row).execute();
}

/**
 * Claims a token once: marks it used if it is unused and unexpired (the guarded update makes it
 * single-use under concurrent sign-ins).
 * @returns the token row when this call claimed it, else undefined
 */
export async function claimSsoToken(
  db: Executor,
  id: string,
  nowIso: string,
): Promise<SsoTokenRow | undefined> {
  const result = await db
    .updateTable('sso_tokens')
    .set({ used_at: nowIso })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return db.selectFrom('sso_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Removes unused tokens of one key (rotation) or of one database (integrations disabled). */
export async function deleteUnusedSsoTokens(
  db: Executor,
  scope: { keyId: string } | { databaseId: string },
): Promise<void> {
  let query = db.deleteFrom('sso_tokens').where('used_at', 'is', null);
  query =
    'keyId' in scope
      ? query.where('key_id', '=', scope.keyId)
      : query.where('database_id', '=', scope.databaseId);
  await query.execute();
}

/** Removes tokens that expired before `nowIso` (used or not). */
export async function deleteSsoTokensExpiredBefore(db: Executor, nowIso: string): Promise<void> {
  await db.deleteFrom('sso_tokens').where('expires_at', '<=', nowIso).execute();
}

/** Sets a user's single-sign-on flag (users.sso = 1) when it is not set yet. */
export async function markUserSso(db: Executor, userId: string, at: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ sso: 1, updated_at: at })
    .where('id', '=', userId)
    .where('sso', '=', 0)
    .execute();
}
