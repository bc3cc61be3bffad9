/**
 * Share tokens (SPEC section 7 "Shares"; docs/architecture.md "Sharing"): a link and each
 * invitation have their own random 32-byte token (base64url, 256 bits); only its sha256 (hex) is
 * stored. The link's token is answered once, as the copyable URL, when the link is created; an
 * invitation's token only travels in its e-mail. A re-sent invitation gets a new token and the old
 * one stops working. An expired link answers 410 and gives no access any more.
 */
import { createHash, randomBytes } from 'node:crypto';
import { INVITATION_PATH, SHARING_MESSAGES } from '@common/sharing';
import type { ShareInvitationRow } from '../db/schemaSharing';
import { AppError, notFound } from '../errors';
import { findFile } from '../repositories/files';
import { findFolder } from '../repositories/folders';
import {
  findInvitationByTokenHash,
  findLink,
  findLinkByTokenHash,
  type ShareLinkWithCreator,
} from '../repositories/shares';
import type { Executor } from '../repositories/types';
import type { Services } from './context';
import { type TypedItemRef } from './historyEvents';

/** sha256 (hex) of a token: what the tables store. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new random token: 32 bytes, base64url (43 characters, 256 bits). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The public address of a token's invitation page. */
export function invitationUrl(services: Services, token: string): string {
  return `${services.config.publicUrl}${INVITATION_PATH}/${token}`;
}

/** The item of a link in its firm, live, or undefined (archived, deleted). */
async function liveItemOfLink(
  db: Executor,
  link: Pick<ShareLinkWithCreator, 'database_id' | 'entity_type' | 'entity_id'>,
): Promise<TypedItemRef | undefined> {
  if (link.entity_type === 'folder') {
    const folder = await findFolder(db, link.database_id, link.entity_id);
    if (!folder || folder.archived_at !== null) return undefined;
    return { type: 'folder', id: folder.id, name: folder.name };
  }
  const file = await findFile(db, link.database_id, link.entity_id);
  if (!file || file.archived_at !== null || file.status !== 'ready') return undefined;
  return { type: 'file', id: file.id, name: file.name };
}

/** 410: the link has expired. */
export function linkExpired(): AppError {
  return new AppError(410, 'link_expired', SHARING_MESSAGES.linkExpired);
}

/** A token resolved to its link (and invitation, for an invitation token). */
export interface ResolvedToken {
  kind: 'invitation' | 'link';
  link: ShareLinkWithCreator;
  invitation: ShareInvitationRow | null;
  item: TypedItemRef;
}

/**
 * Resolves an invitation or link token.
 * @throws AppError 404 `link_not_found` for an unknown, cancelled or revoked token or an item no
 *   longer there; 410 `link_expired` for an expired link
 */
export async function resolveToken(
  db: Executor,
  now: number,
  token: string,
): Promise<ResolvedToken> {
  const missing = () => notFound(SHARING_MESSAGES.linkNotFound, 'link_not_found');
  if (!token) throw missing();
  const hash = tokenHash(token);
  const invitation = (await findInvitationByTokenHash(db, hash)) ?? null;
  let link: ShareLinkWithCreator | undefined;
  if (invitation) {
    if (invitation.state === 'cancelled') throw missing();
    link = await findLink(db, invitation.database_id, invitation.link_id);
  } else {
    link = await findLinkByTokenHash(db, hash);
  }
  if (!link || link.revoked_at !== null) throw missing();
  if (Date.parse(link.expires_at) <= now) throw linkExpired();
  const item = await liveItemOfLink(db, link);
  if (!item) throw missing();
  return { kind: invitation ? 'invitation' : 'link', link, invitation, item };
}
