/**
 * Single sign-on through partner integration keys (SPEC section 7 "Private users
 * and auth": GET private/auth/generate_token, POST private/auth/login with token).
 *
 * 1. The partner app calls GET /api/rest/private/auth/generate_token with one of the firm's user
 *    keys (`Authorization: Bearer <key>`) and gets a single-use token for that key's user, valid
 *    SSO_TOKEN_TTL_SECONDS (60 s by default). The server keeps the token's sha256 only.
 * 2. The browser posts the token to POST /api/auth/login (or /api/rest/private/auth/login) and is
 *    signed in with the same cookie session as a password sign-in (auth.ts openSession), in the
 *    key's firm database. A user signed in through the configured partner (SSO_PARTNER_APP_ID) has
 *    its sso flag set and gets the 480-minute session (auth.ts).
 *
 * Every use of a key (token generation, token sign-in; refused ones too) is recorded with its time,
 * IP and user agent in integration_key_uses. Nothing here works while the firm's integrations are
 * disabled, for a disabled user, or for a user who is no longer a member of the key's firm (a
 * lockout after wrong passwords stops only the source that guessed, never the key).
 */
import { randomBytes } from 'node:crypto';
import type { GenerateTokenResponse } from '@common/integrations';
import type { CurrentUserDto } from '@common/session';
import { AppError, forbidden, unauthorized } from '../errors';
import { newId } from '../ids';
import {
  claimSsoToken,
  deleteSsoTokensExpiredBefore,
  findKeyById,
  findKeyByHash,
  insertKeyUse,
  insertSsoToken,
  integrationsEnabled,
  markUserSso,
  touchKey,
} from '../repositories/integrations';
import type { Executor } from '../repositories/types';
import { findUserById, roleIn } from '../repositories/users';
import { openSession, type ClientInfo } from './auth';
import type { Services } from './context';
import { secretHash } from './integrations';

/** Answer to a missing, unknown, rotated or deleted key. */
export const INVALID_KEY_MESSAGE = 'Invalid integration key.';
/** Answer to a valid key of a firm whose integrations are disabled. */
export const INTEGRATIONS_DISABLED_MESSAGE = 'Integrations are disabled for this firm.';
/** Answer to a valid key whose user is disabled or no longer a member of the firm. */
export const USER_UNAVAILABLE_MESSAGE = "This key's user cannot sign in to this firm.";
/** Answer to an unknown, used, expired or otherwise unusable sign-in token. */
export const INVALID_TOKEN_MESSAGE = 'This sign-in link is invalid or has expired.';

/** Why a key use was refused, or 'ok'. */
type UseOutcome = 'ok' | 'integrations_disabled' | 'user_unavailable';

/**
 * The key of an `Authorization: Bearer <key>` header value, or null when the header is missing or
 * malformed.
 */
export function bearerKey(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S{1,200})\s*$/i.exec(header);
  return match ? match[1]! : null;
}

async function recordUse(
  db: Executor,
  services: Services,
  key: { id: string; database_id: string },
  action: 'generate_token' | 'token_login',
  outcome: UseOutcome,
  client: ClientInfo,
): Promise<void> {
  const at = new Date(services.clock()).toISOString();
  await insertKeyUse(db, {
    id: newId(),
    key_id: key.id,
    database_id: key.database_id,
    action,
    outcome,
    used_at: at,
    ip: client.ip,
    user_agent: client.userAgent,
  });
  if (outcome === 'ok') await touchKey(db, key.id, at, client.ip);
}

/**
 * Why a key's user may not sign in now, or 'ok': the firm's integrations are disabled, or the user
 * is disabled or no longer a member of the key's firm. A lockout after wrong passwords does not
 * count: it stops only the source that guessed (lockout.ts), never the partner's key.
 */
async function checkUse(
  db: Executor,
  services: Services,
  key: { database_id: string; user_id: string },
): Promise<UseOutcome> {
  if (!(await integrationsEnabled(db, key.database_id))) return 'integrations_disabled';
  const user = await findUserById(db, key.user_id);
  if (!user || user.disabled_at !== null || !(await roleIn(db, user.id, key.database_id))) {
    return 'user_unavailable';
  }
  return 'ok';
}

/**
 * GET REST/private/auth/generate_token: a single-use sign-in token for the key's user.
 * @param key the partner's key from `Authorization: Bearer`, or null when none was sent
 * @returns the token (shown only here) with its end (ISO UTC) and lifetime in seconds
 * @throws AppError 401 `invalid_key` for a missing, unknown, rotated or deleted key; 403
 *   `integrations_disabled` while the firm's integrations are disabled; 403 `user_unavailable`
 *   when the key's user is disabled or no longer a member. Refused uses of a known key are
 *   recorded too.
 */
export async function generateToken(
  services: Services,
  key: string | null,
  client: ClientInfo,
): Promise<GenerateTokenResponse> {
  if (!key) throw unauthorized(INVALID_KEY_MESSAGE, 'invalid_key');
  const keyRow = await findKeyByHash(services.db, secretHash(key));
  if (!keyRow) throw unauthorized(INVALID_KEY_MESSAGE, 'invalid_key');
  const now = services.clock();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + services.config.ssoTokenTtlMs).toISOString();
  const outcome = await services.db.transaction().execute(async (trx) => {
    const checked = await checkUse(trx, services, keyRow);
    await recordUse(trx, services, keyRow, 'generate_token', checked, client);
    if (checked !== 'ok') return checked;
    await deleteSsoTokensExpiredBefore(trx, new Date(now).toISOString());
    await insertSsoToken(trx, {
      id: secretHash(token),
      key_id: keyRow.id,
      database_id: keyRow.database_id,
      user_id: keyRow.user_id,
      partner_app_id: keyRow.partner_app_id,
      created_at: new Date(now).toISOString(),
      expires_at: expiresAt,
      used_at: null,
    });
    return checked;
  });
  if (outcome === 'integrations_disabled') {
    throw forbidden(INTEGRATIONS_DISABLED_MESSAGE, 'integrations_disabled');
  }
  if (outcome === 'user_unavailable') throw forbidden(USER_UNAVAILABLE_MESSAGE, 'user_unavailable');
  return { token, expiresAt, expiresIn: Math.round(services.config.ssoTokenTtlMs / 1000) };
}

/**
 * POST /api/auth/login and POST REST/private/auth/login with a token: claims the token (once) and
 * opens a session for its user in the key's firm database. Through the configured partner
 * (SSO_PARTNER_APP_ID) the user's sso flag is set first, so the session is the 480-minute one and
 * current-user reports sso: true.
 * @param replacedToken the session cookie the request carried, if any (ended on success)
 * @returns the cookie token (to set, never stored) and the current user
 * @throws AppError 401 `invalid_token` for an unknown, used or expired token, and when the firm's
 *   integrations were disabled, the key rotated or deleted, or the user disabled or removed since
 *   the token was issued (one answer for all)
 */
export async function loginWithToken(
  services: Services,
  token: string,
  client: ClientInfo,
  replacedToken?: string,
): Promise<{ token: string; user: CurrentUserDto }> {
  const invalid = () => unauthorized(INVALID_TOKEN_MESSAGE, 'invalid_token');
  const nowIso = new Date(services.clock()).toISOString();
  const signedIn = await services.db.transaction().execute(async (trx) => {
    const claimed = await claimSsoToken(trx, secretHash(token), nowIso);
    if (!claimed) return null;
    const key = await findKeyById(trx, claimed.key_id);
    if (!key) return null;
    const outcome = await checkUse(trx, services, claimed);
    await recordUse(trx, services, key, 'token_login', outcome, client);
    if (outcome !== 'ok') return { refused: true as const };
    const partnerSso = services.config.ssoPartnerAppId === claimed.partner_app_id;
    if (partnerSso) await markUserSso(trx, claimed.user_id, nowIso);
    const user = await findUserById(trx, claimed.user_id);
    if (!user) return { refused: true as const };
    return { refused: false as const, user, databaseId: claimed.database_id };
  });
  if (!signedIn || signedIn.refused) throw invalid();
  try {
    return await openSession(services, signedIn.user, signedIn.databaseId, client, replacedToken);
  } catch (error) {
    if (error instanceof AppError && error.status === 401) throw invalid();
    throw error;
  }
}
