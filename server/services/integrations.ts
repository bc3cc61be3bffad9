/**
 * Integrations and partner integration user keys (SPEC sections 1, 3 and 7
 * "Integrations", "Integration user keys"). Administrators only (assertAdmin).
 *
 * - A firm database's integrations are enabled or disabled by one of its administrators
 *   (databaseId; a database the user is not a member of answers 404). While disabled, none of the
 *   firm's keys or sign-in tokens work (checked at every use, and unused tokens are removed at once).
 * - A key belongs to one user of the firm for one partner app (partner_app_id): the partner signs
 *   that user in with it (server/services/sso.ts). A key is `dsk_` + 256 random bits (base64url); it
 *   is returned once, when created or rotated. The server keeps its sha256 (hex) and its first 12
 *   characters (`prefix`) to tell keys apart. Rotating replaces the secret (the old key is refused
 *   from then on, and unused tokens it issued are removed); deleting removes the key, its uses and
 *   its tokens.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  INTEGRATION_KEY_PREFIX,
  INTEGRATION_KEY_VISIBLE_CHARS,
  type CreatedIntegrationKeyDto,
  type IntegrationDto,
  type IntegrationKeyDto,
  type IntegrationKeysResponse,
  type IntegrationsResponse,
} from '@common/integrations';
import { conflict, forbidden, notFound } from '../errors';
import { newId } from '../ids';
import { displayName } from '../presenters';
import {
  deleteKeys,
  deleteUnusedSsoTokens,
  findKeyById,
  insertKey,
  integrationOf,
  integrationsAdministeredBy,
  keysOfDatabase,
  replaceKeySecret,
  upsertIntegration,
  type IntegrationKeyWithUser,
  type IntegrationRow,
} from '../repositories/integrations';
import { findUserById, roleIn } from '../repositories/users';
import { ADMIN_ONLY_MESSAGE, assertAdmin } from './access';
import type { RequestContext, Services } from './context';

/** Message when a user already has a key for a partner app (rotate it instead). */
export const KEY_EXISTS_MESSAGE =
  'This user already has a key for this partner app. Rotate or delete it instead.';

/** The sha256 (hex) under which a key or token is stored. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new key and what is stored of it. */
function newKeySecret(): { key: string; key_hash: string; key_prefix: string } {
  const key = INTEGRATION_KEY_PREFIX + randomBytes(32).toString('base64url');
  return {
    key,
    key_hash: secretHash(key),
    key_prefix: key.slice(0, INTEGRATION_KEY_VISIBLE_CHARS),
  };
}

function integrationDto(row: IntegrationRow): IntegrationDto {
  return {
    databaseId: row.database_id,
    databaseName: row.database_name,
    description: row.description,
    enabled: Number(row.enabled) === 1,
    updatedAt: row.updated_at,
  };
}

function keyDto(row: IntegrationKeyWithUser): IntegrationKeyDto {
  return {
    id: row.id,
    userId: row.user_id,
    userName: displayName(row.first_name, row.last_name),
    username: row.username,
    partnerAppId: row.partner_app_id,
    prefix: row.key_prefix,
    createdAt: row.created_at,
    rotatedAt: row.rotated_at,
    lastUsedAt: row.last_used_at,
    lastUsedIp: row.last_used_ip,
  };
}

/**
 * GET REST/private/integrations: the integration switch of every firm database the session's user
 * administers, by name.
 * @throws AppError 403 `admin_only` unless the session is an administrator's
 */
export async function listIntegrations(
  services: Services,
  ctx: RequestContext,
): Promise<IntegrationsResponse> {
  assertAdmin(ctx);
  const rows = await integrationsAdministeredBy(services.db, ctx.userId);
  return { integrations: rows.map(integrationDto) };
}

/**
 * POST REST/private/integrations/enable and /disable: switches a firm database's integrations.
 * Disabling stops its keys and tokens at once (unused tokens are removed in the same transaction;
 * every use checks the switch).
 * @param databaseId a firm database the session's user administers
 * @returns the database's switch as it now stands
 * @throws AppError 403 `admin_only` for a non-administrator (of the session's firm or of that
 *   database), 404 when the user is not a member of that database
 */
export async function setIntegrationEnabled(
  services: Services,
  ctx: RequestContext,
  databaseId: string,
  enabled: boolean,
): Promise<IntegrationDto> {
  assertAdmin(ctx);
  const role = await roleIn(services.db, ctx.userId, databaseId);
  if (!role) throw notFound();
  if (role !== 'admin') throw forbidden(ADMIN_ONLY_MESSAGE, 'admin_only');
  const at = new Date(services.clock()).toISOString();
  return services.db.transaction().execute(async (trx) => {
    await upsertIntegration(trx, {
      database_id: databaseId,
      enabled: enabled ? 1 : 0,
      updated_by: ctx.userId,
      at,
    });
    if (!enabled) await deleteUnusedSsoTokens(trx, { databaseId });
    const row = await integrationOf(trx, databaseId);
    if (!row) throw notFound();
    return integrationDto(row);
  });
}

/**
 * GET REST/private/integrations/userkey?partner_app_id: the keys of the session's firm, oldest
 * first (never the keys themselves).
 * @param partnerAppId only this partner app's keys, when given
 * @throws AppError 403 `admin_only`
 */
export async function listKeys(
  services: Services,
  ctx: RequestContext,
  partnerAppId: string | undefined,
): Promise<IntegrationKeysResponse> {
  assertAdmin(ctx);
  const rows = await keysOfDatabase(services.db, ctx.databaseId, { partnerAppId });
  return { keys: rows.map(keyDto) };
}

/** The key of a user for a partner app in the session's firm, with its user's names. */
async function keyOf(
  services: Services,
  ctx: RequestContext,
  userId: string,
  partnerAppId: string,
): Promise<IntegrationKeyWithUser | undefined> {
  const rows = await keysOfDatabase(services.db, ctx.databaseId, { partnerAppId, userId });
  return rows[0];
}

/**
 * POST REST/private/integrations/userkey?partner_app_id: creates a user's key for a partner app in
 * the session's firm. The answer is the only time the key is shown.
 * @param userId one of the firm's users (default: the session's user)
 * @throws AppError 403 `admin_only`; 404 when the user is not a member of the session's firm; 409
 *   `key_exists` when the user already has a key for that partner app
 */
export async function createKey(
  services: Services,
  ctx: RequestContext,
  partnerAppId: string,
  userId: string = ctx.userId,
): Promise<CreatedIntegrationKeyDto> {
  assertAdmin(ctx);
  const user = await findUserById(services.db, userId);
  if (!user || !(await roleIn(services.db, userId, ctx.databaseId))) throw notFound();
  if (await keyOf(services, ctx, userId, partnerAppId)) {
    throw conflict(KEY_EXISTS_MESSAGE, 'key_exists');
  }
  const secret = newKeySecret();
  const id = newId();
  try {
    await insertKey(services.db, {
      id,
      database_id: ctx.databaseId,
      user_id: userId,
      partner_app_id: partnerAppId,
      key_hash: secret.key_hash,
      key_prefix: secret.key_prefix,
      created_by: ctx.userId,
      created_at: new Date(services.clock()).toISOString(),
      rotated_at: null,
      last_used_at: null,
      last_used_ip: null,
    });
  } catch (error) {
    // A concurrent create of the same (firm, user, partner) lost the unique constraint.
    if (await keyOf(services, ctx, userId, partnerAppId)) {
      throw conflict(KEY_EXISTS_MESSAGE, 'key_exists');
    }
    throw error;
  }
  const row = await keyOf(services, ctx, userId, partnerAppId);
  if (!row || row.id !== id) throw conflict(KEY_EXISTS_MESSAGE, 'key_exists');
  return { ...keyDto(row), key: secret.key };
}

/**
 * POST REST/private/integrations/users/{id}?partner_app_id: rotates a user's key for a partner app.
 * The old key is refused from then on and the unused tokens it issued are removed; the new key is
 * shown once.
 * @param userId the user whose key it is ({id} of the route)
 * @throws AppError 403 `admin_only`; 404 when that user has no such key in the session's firm
 */
export async function rotateKey(
  services: Services,
  ctx: RequestContext,
  userId: string,
  partnerAppId: string,
): Promise<CreatedIntegrationKeyDto> {
  assertAdmin(ctx);
  const existing = await keyOf(services, ctx, userId, partnerAppId);
  if (!existing) throw notFound();
  const secret = newKeySecret();
  const rotatedAt = new Date(services.clock()).toISOString();
  await services.db.transaction().execute(async (trx) => {
    await replaceKeySecret(trx, existing.id, {
      key_hash: secret.key_hash,
      key_prefix: secret.key_prefix,
      rotated_at: rotatedAt,
    });
    await deleteUnusedSsoTokens(trx, { keyId: existing.id });
  });
  const row = await findKeyById(services.db, existing.id);
  if (!row) throw notFound();
  return {
    ...keyDto({ ...existing, ...row }),
    key: secret.key,
  };
}

/**
 * DELETE REST/private/integrations/users/{id}?partner_app_id: deletes a user's keys in the
 * session's firm (of one partner app when partner_app_id is given, else all), with their uses and
 * tokens. A deleted key is refused from then on.
 * @param userId the user whose keys they are ({id} of the route)
 * @throws AppError 403 `admin_only`; 404 when the user has no such key in the session's firm
 */
export async function deleteUserKeys(
  services: Services,
  ctx: RequestContext,
  userId: string,
  partnerAppId: string | undefined,
): Promise<void> {
  assertAdmin(ctx);
  const rows = await keysOfDatabase(services.db, ctx.databaseId, { partnerAppId, userId });
  if (rows.length === 0) throw notFound();
  await services.db.transaction().execute(async (trx) => {
    await deleteKeys(
      trx,
      rows.map((row) => row.id),
    );
  });
}
