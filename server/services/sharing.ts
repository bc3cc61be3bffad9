/**
 * Share links, invitations, guest sign-up and sign-in, accepting and ending shares (issue 7; SPEC
 * sections 1, 3, 4 and 7 "Shares"; docs/architecture.md "Sharing").
 *
 * - Tokens: a link and each invitation have their own random 32-byte token (base64url, 256 bits);
 *   only its sha256 (hex) is stored. The link's token is answered once, as the copyable URL, when
 *   the link is created; an invitation's token only travels in its e-mail. A re-sent invitation
 *   gets a new token and the old one stops working.
 * - Expiry: default now + SHARE_LINK_DEFAULT_DAYS, at most SHARE_LINK_MAX_DAYS. An expired link
 *   answers 410 and gives no access any more (accepted shares included).
 * - Password: optional, scrypt-hashed; SHARE_PASSWORD_MAX_FAILURES wrong ones in a row lock the
 *   link for SHARE_PASSWORD_LOCK_MINUTES (429; the attempt reaching the limit is answered locked).
 * - Accepting (sign-up, sign-in or accept) creates an external share for the user: access to the
 *   item, checked on every request by sharingAccess.ts. Guests are users with a 'guest'
 *   membership in the link's firm.
 * - History, in the transaction of the change: share_link create per invited e-mail (invite
 *   sent), share_link delete per cancelled invitation (invite cancelled; a revoked link cancels
 *   its open invitations), external_share create when a share is accepted (invite accepted, by the
 *   accepting user) and delete when one is removed (access removed; a revoked link removes its
 *   shares).
 * - Mail goes out after the transaction commits; a failed send keeps the invitation ('sent') and
 *   the answer says `mail_failed: true`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isValidEmail } from '../../common/email';
import { formatMessage } from '../../common/messages';
import { passwordProblem } from '../../common/passwordPolicy';
import {
  INVITATION_PATH,
  SHARED_LANDING,
  SHARING_MESSAGES,
  type CreateShareLinkRequest,
  type InvitationDto,
  type InvitationInfoDto,
  type InvitationState,
  type SharedByMeState,
  type SharedEntityDto,
  type SharedSigninRequest,
  type SharedSignupRequest,
  type SharedSignupResponse,
  type ShareEntityType,
  type ShareLinkDto,
} from '../../common/sharing';
import { PRODUCT_NAME } from '../../common/constants';
import type { ExternalShareRow, ShareInvitationRow } from '../db/schemaSharing';
import { AppError, badRequest, conflict, forbidden, notFound } from '../errors';
import { newId } from '../ids';
import { hashPassword, verifyPassword } from '../passwords';
import { displayName } from '../presenters';
import { findFile, findFilesByIds } from '../repositories/files';
import { findFolder, findFoldersByIds } from '../repositories/folders';
import {
  activeShareOf,
  activeSharesOfLinks,
  addLinkPasswordFailure,
  findInvitation,
  findInvitationByTokenHash,
  findLink,
  findLinkByTokenHash,
  findShare,
  findUserByEmail,
  insertInvitation,
  insertLink,
  insertShare,
  invitationsOfLinks,
  linksByCreator,
  listLinksOfEntity,
  removeSharesOfLink,
  sharesOfLinks,
  updateInvitation,
  updateLink,
  updateShare,
  userExistsForEmail,
  type ExternalShareWithUser,
  type ShareLinkWithCreator,
} from '../repositories/shares';
import type { Executor } from '../repositories/types';
import {
  allMembershipsOfUser,
  databaseNames,
  findUserById,
  findUserByUsernameKey,
  insertMembership,
  insertUser,
} from '../repositories/users';
import { accessibleFile, accessibleFolder, type Access } from './access';
import { openSession, verifyCredentials, type ClientInfo } from './auth';
import type { RequestContext, Services } from './context';
import {
  recordInviteAccepted,
  recordInviteCancelled,
  recordInviteSent,
  recordLinkReissued,
  recordShareRemoved,
  type TypedItemRef,
} from './historyEvents';
import { mailerFor } from './mail';
import {
  linkLive,
  listSharedEntities,
  presentShareItems,
  presentSharedFile,
  presentSharedFolder,
  type UserShare,
} from './sharingAccess';

const DAY_MS = 86_400_000;
/** Clock skew allowed on a requested expiry at the maximum, in ms. */
const EXPIRY_SLACK_MS = 60_000;
/** Most recipients one request may name. */
export const MAX_RECIPIENTS = 50;

/** sha256 (hex) of a token: what the tables store. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new random token: 32 bytes, base64url (43 characters, 256 bits). */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The public address of a token's invitation page. */
function invitationUrl(services: Services, token: string): string {
  return `${services.config.publicUrl}${INVITATION_PATH}/${token}`;
}

/** A sent invitation to mail after the transaction: its address and its token. */
interface Outgoing {
  email: string;
  token: string;
}

/** What a change that sends invitations answers besides its link. */
export interface MailOutcome {
  /** True when at least one e-mail could not be sent (the invitations are kept). */
  mailFailed: boolean;
  /** The send errors, for the route to log. */
  mailErrors: unknown[];
}

// ---- items ----------------------------------------------------------------------------------------

/**
 * The item a share names, checked for the session (role, firm, folder permissions).
 * @throws AppError 404 when it is not visible (or is the root), 403 for a read-only member writing
 */
async function itemFor(
  db: Executor,
  ctx: RequestContext,
  type: ShareEntityType,
  id: string,
  access: Access,
  options: { allowArchived?: boolean } = {},
): Promise<TypedItemRef> {
  if (type === 'folder') {
    const folder = await accessibleFolder(db, ctx, id, access, options);
    if (!folder) throw notFound();
    return { type, id: folder.id, name: folder.name };
  }
  const file = await accessibleFile(db, ctx, id, access, options);
  return { type, id: file.id, name: file.name };
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

// ---- presenting -----------------------------------------------------------------------------------

/** An invitation's state as shown: 'expired' when still open after its link's expiry. */
function invitationState(row: ShareInvitationRow, link: ShareLinkWithCreator, now: number) {
  if (row.state === 'sent' && !linkLive(link, now)) return 'expired' as InvitationState;
  return row.state;
}

/** Links as the share dialog shows them, with their invitations and accepted shares. */
async function presentLinks(
  services: Services,
  links: ShareLinkWithCreator[],
): Promise<ShareLinkDto[]> {
  if (links.length === 0) return [];
  const ids = links.map((l) => l.id);
  const databaseId = links[0]!.database_id;
  const [invitations, shares, folders, files] = await Promise.all([
    invitationsOfLinks(services.db, ids),
    activeSharesOfLinks(services.db, ids),
    findFoldersByIds(
      services.db,
      databaseId,
      links.filter((l) => l.entity_type === 'folder').map((l) => l.entity_id),
    ),
    findFilesByIds(
      services.db,
      databaseId,
      links.filter((l) => l.entity_type === 'file').map((l) => l.entity_id),
    ),
  ]);
  const names = new Map<string, string>([
    ...folders.map((f) => [f.id, f.name] as const),
    ...files.map((f) => [f.id, f.name] as const),
  ]);
  const now = services.clock();
  return links.map((link) => ({
    id: link.id,
    entity_type: link.entity_type,
    entity_id: link.entity_id,
    entity_name: names.get(link.entity_id) ?? '',
    created_by_name: displayName(link.creator_first, link.creator_last),
    created_at: link.created_at,
    expires_at: link.expires_at,
    allow_download: link.allow_download === 1,
    has_password: link.password_hash !== null,
    message: link.message,
    revoked_at: link.revoked_at,
    invitations: invitations
      .filter((i) => i.link_id === link.id)
      .map((i): InvitationDto => ({
        id: i.id,
        email: i.email,
        state: invitationState(i, link, now),
        sent_at: i.sent_at,
        accepted_at: i.accepted_at,
      })),
    shares: shares
      .filter((s) => s.link_id === link.id)
      .map((s) => ({
        id: s.id,
        user_name: displayName(s.user_first, s.user_last) || (s.user_username ?? ''),
        email: shareEmail(s),
        created_at: s.created_at,
      })),
  }));
}

/** The address of the user of a share: their e-mail, else their username. */
function shareEmail(share: ExternalShareWithUser): string {
  return (share.user_email ?? share.user_username ?? '').toLowerCase();
}

/** One link as the share dialog shows it. */
async function presentLink(services: Services, link: ShareLinkWithCreator): Promise<ShareLinkDto> {
  return (await presentLinks(services, [link]))[0]!;
}

// ---- validation -----------------------------------------------------------------------------------

/**
 * The recipients of a request, trimmed, lowercased and without repeats.
 * @throws AppError 400 naming the first malformed address, or when there are too many
 */
function recipients(emails: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of emails) {
    const email = raw.trim();
    if (email === '') continue;
    if (!isValidEmail(email)) {
      throw badRequest(formatMessage(SHARING_MESSAGES.invalidEmail, { email }), 'invalid_email');
    }
    const key = email.toLowerCase();
    if (!out.includes(key)) out.push(key);
  }
  if (out.length > MAX_RECIPIENTS) {
    throw badRequest(`A share can name at most ${MAX_RECIPIENTS} recipients at a time.`);
  }
  return out;
}

/**
 * The expiry of a new link: the requested one, or now + SHARE_LINK_DEFAULT_DAYS.
 * @throws AppError 400 when it is not a date, is in the past, or lies beyond SHARE_LINK_MAX_DAYS
 */
function expiryFor(services: Services, requested: string | undefined): string {
  const now = services.clock();
  const { shareLinkDefaultDays, shareLinkMaxDays } = services.config;
  if (requested === undefined || requested === '') {
    return new Date(now + Math.min(shareLinkDefaultDays, shareLinkMaxDays) * DAY_MS).toISOString();
  }
  const at = Date.parse(requested);
  if (Number.isNaN(at)) throw badRequest('The expiry date is not a valid date.', 'invalid_expiry');
  if (at <= now) throw badRequest(SHARING_MESSAGES.expiryInPast, 'invalid_expiry');
  if (at > now + shareLinkMaxDays * DAY_MS + EXPIRY_SLACK_MS) {
    throw badRequest(
      formatMessage(SHARING_MESSAGES.expiryTooLate, { days: shareLinkMaxDays }),
      'invalid_expiry',
    );
  }
  return new Date(at).toISOString();
}

// ---- mail -----------------------------------------------------------------------------------------

/**
 * Sends invitation e-mails (after the transaction committed). The text holds the sharer's name,
 * the item's name, the message and the invitation link, and nothing else about the firm.
 */
async function sendInvitations(
  services: Services,
  databaseId: string,
  sharer: string,
  item: TypedItemRef,
  message: string,
  expiresAt: string,
  outgoing: Outgoing[],
): Promise<MailOutcome> {
  const mailer = mailerFor(services.config);
  const mailErrors: unknown[] = [];
  const expires = expiresAt.slice(0, 10);
  for (const { email, token } of outgoing) {
    const url = invitationUrl(services, token);
    const what = item.type === 'folder' ? 'the folder' : 'the file';
    const text = [
      `${sharer} shared ${what} "${item.name}" with you on ${PRODUCT_NAME}.`,
      ...(message.trim() ? ['', message.trim()] : []),
      '',
      `Open it here: ${url}`,
      '',
      `The link works until ${expires}.`,
    ].join('\n');
    try {
      await mailer.send({
        database_id: databaseId,
        to: email,
        subject: `${sharer} shared "${item.name}" with you`,
        text,
      });
    } catch (error) {
      mailErrors.push(error);
    }
  }
  return { mailFailed: mailErrors.length > 0, mailErrors };
}

// ---- links ----------------------------------------------------------------------------------------

/**
 * POST /api/rest/shared/links: shares a folder or file through a new link and invites each
 * address (one e-mail each; history share_link create per address).
 * @returns the link, the copyable URL (the only time the link's token is answered) and the mail
 *   outcome
 * @throws AppError 400 (bad address, expiry, password), 404 (item not visible), 403 (read-only)
 */
export async function createShareLink(
  services: Services,
  ctx: RequestContext,
  input: CreateShareLinkRequest,
): Promise<{ link: ShareLinkDto; url: string } & MailOutcome> {
  const item = await itemFor(services.db, ctx, input.entity_type, input.entity_id, 'write');
  const emails = recipients(input.emails);
  const expiresAt = expiryFor(services, input.expires_at);
  const password = input.password ?? '';
  const passwordHash = password === '' ? null : await hashPassword(password);
  const message = (input.message ?? '').trim();
  const token = newToken();
  const linkId = newId();
  const now = new Date(services.clock()).toISOString();
  const outgoing: Outgoing[] = [];
  await services.db.transaction().execute(async (trx) => {
    // The item is checked again inside the transaction (it may have been archived meanwhile).
    await itemFor(trx, ctx, input.entity_type, input.entity_id, 'write');
    await insertLink(trx, {
      id: linkId,
      database_id: ctx.databaseId,
      entity_type: item.type,
      entity_id: item.id,
      created_by: ctx.userId,
      token_hash: tokenHash(token),
      message,
      expires_at: expiresAt,
      password_hash: passwordHash,
      allow_download: input.allow_download === false ? 0 : 1,
      failed_password_count: 0,
      locked_until: null,
      revoked_at: null,
      created_at: now,
    });
    for (const email of emails) {
      const invitationToken = newToken();
      await insertInvitation(trx, {
        id: newId(),
        link_id: linkId,
        database_id: ctx.databaseId,
        email,
        token_hash: tokenHash(invitationToken),
        state: 'sent',
        sent_at: now,
        accepted_at: null,
        accepted_by: null,
        cancelled_at: null,
      });
      await recordInviteSent(trx, services, ctx, { id: linkId }, email, item);
      outgoing.push({ email, token: invitationToken });
    }
  });
  const mail = await sendInvitations(
    services,
    ctx.databaseId,
    ctx.userName,
    item,
    message,
    expiresAt,
    outgoing,
  );
  const link = await findLink(services.db, ctx.databaseId, linkId);
  return { link: await presentLink(services, link!), url: invitationUrl(services, token), ...mail };
}

/**
 * GET /api/rest/shared/links?entity_type&entity_id: the item's links that are not revoked, with
 * their invitations and the people who have access through them.
 * @throws AppError 404 when the item is not visible to the session
 */
export async function listShareLinks(
  services: Services,
  ctx: RequestContext,
  entityType: ShareEntityType,
  entityId: string,
): Promise<{ items: ShareLinkDto[] }> {
  const item = await itemFor(services.db, ctx, entityType, entityId, 'read', {
    allowArchived: true,
  });
  const links = await listLinksOfEntity(services.db, ctx.databaseId, item.type, item.id);
  return { items: await presentLinks(services, links) };
}

/**
 * A link of the session's firm whose item the session may manage (write).
 * @throws AppError 404 when the link is not in the firm or its item not visible; 403 read-only
 */
async function managedLink(
  db: Executor,
  ctx: RequestContext,
  linkId: string,
): Promise<{ link: ShareLinkWithCreator; item: TypedItemRef }> {
  const link = await findLink(db, ctx.databaseId, linkId);
  if (!link) throw notFound();
  const item = await itemFor(db, ctx, link.entity_type, link.entity_id, 'write', {
    allowArchived: true,
  });
  return { link, item };
}

/**
 * DELETE /api/rest/shared/links/{id}: revokes the link at once. Its open invitations are
 * cancelled (history share_link delete each) and its shares removed (history external_share
 * delete each): every guest session loses access on its next request. Revoking twice is a no-op.
 * @throws AppError 404, 403 (read-only)
 */
export async function revokeShareLink(
  services: Services,
  ctx: RequestContext,
  linkId: string,
): Promise<void> {
  await services.db.transaction().execute(async (trx) => {
    const { link, item } = await managedLink(trx, ctx, linkId);
    if (link.revoked_at !== null) return;
    const now = new Date(services.clock()).toISOString();
    await updateLink(trx, ctx.databaseId, link.id, { revoked_at: now });
    for (const invitation of await invitationsOfLinks(trx, [link.id])) {
      if (invitation.state !== 'sent') continue;
      await updateInvitation(trx, invitation.id, { state: 'cancelled', cancelled_at: now });
      await recordInviteCancelled(trx, services, ctx, { id: link.id }, invitation.email, item);
    }
    for (const share of await removeSharesOfLink(trx, link.id, now)) {
      await recordShareRemoved(trx, services, ctx, { id: share.id }, shareEmail(share), item);
    }
  });
}

/**
 * POST /api/rest/shared/links/{id}/invite: sends or re-sends invitations. A new address gets a new
 * invitation; a known one gets a new token (the old one stops working) and is 'sent' again.
 * History share_link create per address.
 * @throws AppError 400 (bad address), 404, 403 (read-only), 409 revoked link, 410 expired link
 */
export async function inviteToShareLink(
  services: Services,
  ctx: RequestContext,
  linkId: string,
  emailsIn: readonly string[],
): Promise<{ link: ShareLinkDto } & MailOutcome> {
  const emails = recipients(emailsIn);
  if (emails.length === 0) throw badRequest('Name at least one e-mail address.', 'no_recipients');
  const outgoing: Outgoing[] = [];
  let found: { link: ShareLinkWithCreator; item: TypedItemRef } | undefined;
  await services.db.transaction().execute(async (trx) => {
    found = await managedLink(trx, ctx, linkId);
    const { link, item } = found;
    if (link.revoked_at !== null) throw conflict('This share link was revoked.', 'link_revoked');
    if (Date.parse(link.expires_at) <= services.clock()) throw linkExpired();
    const now = new Date(services.clock()).toISOString();
    const existing = await invitationsOfLinks(trx, [link.id]);
    for (const email of emails) {
      const token = newToken();
      const known = existing.find((i) => i.email === email);
      if (known) {
        await updateInvitation(trx, known.id, {
          token_hash: tokenHash(token),
          state: 'sent',
          sent_at: now,
          accepted_at: null,
          accepted_by: null,
          cancelled_at: null,
        });
      } else {
        await insertInvitation(trx, {
          id: newId(),
          link_id: link.id,
          database_id: ctx.databaseId,
          email,
          token_hash: tokenHash(token),
          state: 'sent',
          sent_at: now,
          accepted_at: null,
          accepted_by: null,
          cancelled_at: null,
        });
      }
      await recordInviteSent(trx, services, ctx, { id: link.id }, email, item);
      outgoing.push({ email, token });
    }
  });
  const { link, item } = found!;
  const mail = await sendInvitations(
    services,
    ctx.databaseId,
    ctx.userName,
    item,
    link.message,
    link.expires_at,
    outgoing,
  );
  const fresh = await findLink(services.db, ctx.databaseId, link.id);
  return { link: await presentLink(services, fresh!), ...mail };
}

/**
 * DELETE /api/rest/shared/links/{id}/invitations/{invitationId}: cancels an open invitation
 * (its token stops working; history share_link delete). Cancelling twice is a no-op.
 * @throws AppError 404, 403 (read-only), 409 when it was accepted already (remove the access)
 */
export async function cancelInvitation(
  services: Services,
  ctx: RequestContext,
  linkId: string,
  invitationId: string,
): Promise<void> {
  await services.db.transaction().execute(async (trx) => {
    const { link, item } = await managedLink(trx, ctx, linkId);
    const invitation = await findInvitation(trx, ctx.databaseId, link.id, invitationId);
    if (!invitation) throw notFound();
    if (invitation.state === 'cancelled') return;
    if (invitation.state === 'accepted') {
      throw conflict(
        'This invitation was accepted already: remove the access instead.',
        'invitation_accepted',
      );
    }
    const now = new Date(services.clock()).toISOString();
    await updateInvitation(trx, invitation.id, { state: 'cancelled', cancelled_at: now });
    await recordInviteCancelled(trx, services, ctx, { id: link.id }, invitation.email, item);
  });
}

/**
 * DELETE /api/rest/shared/entities/{id}: removes one person's access (an external share; history
 * external_share delete). Removing twice is a no-op.
 * @throws AppError 404 (not in the firm, item not visible), 403 (read-only)
 */
export async function removeShare(
  services: Services,
  ctx: RequestContext,
  shareId: string,
): Promise<void> {
  await services.db.transaction().execute(async (trx) => {
    const share = await findShare(trx, ctx.databaseId, shareId);
    if (!share) throw notFound();
    const item = await itemFor(trx, ctx, share.entity_type, share.entity_id, 'write', {
      allowArchived: true,
    });
    if (share.removed_at !== null) return;
    await updateShare(trx, share.id, { removed_at: new Date(services.clock()).toISOString() });
    await recordShareRemoved(trx, services, ctx, { id: share.id }, shareEmail(share), item);
  });
}

// ---- tokens, passwords and accepting --------------------------------------------------------------

/** 410: the link has expired. */
function linkExpired(): AppError {
  return new AppError(410, 'link_expired', SHARING_MESSAGES.linkExpired);
}

/** A token resolved to its link (and invitation, for an invitation token). */
interface ResolvedToken {
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
async function resolveToken(db: Executor, now: number, token: string): Promise<ResolvedToken> {
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

/**
 * Checks a link's password (links without one pass). Wrong passwords in a row are counted; the
 * one reaching SHARE_PASSWORD_MAX_FAILURES locks the link for SHARE_PASSWORD_LOCK_MINUTES, and
 * while locked every attempt is refused, right or wrong. A right password clears the count.
 * @throws AppError 403 `wrong_link_password`; 429 `link_locked`
 */
async function checkLinkPassword(
  services: Services,
  link: ShareLinkWithCreator,
  password: string | undefined,
): Promise<void> {
  if (link.password_hash === null) return;
  const now = services.clock();
  const locked = () => new AppError(429, 'link_locked', SHARING_MESSAGES.linkLocked);
  if (link.locked_until !== null && Date.parse(link.locked_until) > now) throw locked();
  const wrong = () => forbidden(SHARING_MESSAGES.wrongLinkPassword, 'wrong_link_password');
  if (!password) throw wrong();
  if (await verifyPassword(password, link.password_hash)) {
    if (link.failed_password_count > 0 || link.locked_until !== null) {
      await updateLink(services.db, link.database_id, link.id, {
        failed_password_count: 0,
        locked_until: null,
      });
    }
    return;
  }
  const count = await addLinkPasswordFailure(services.db, link.id);
  if (count >= services.config.sharePasswordMaxFailures) {
    await updateLink(services.db, link.database_id, link.id, {
      failed_password_count: 0,
      locked_until: new Date(now + services.config.sharePasswordLockMs).toISOString(),
    });
    throw locked();
  }
  throw wrong();
}

/**
 * Refuses an invitation token used by someone whose address is not the invited one.
 * @throws AppError 403 `invitation_email_mismatch`
 */
function assertInvitedAddress(
  resolved: ResolvedToken,
  user: { email: string | null; username_key: string },
): void {
  if (!resolved.invitation) return;
  const invited = resolved.invitation.email;
  if (user.email?.toLowerCase() === invited || user.username_key === invited) return;
  throw forbidden(SHARING_MESSAGES.invitationEmailMismatch, 'invitation_email_mismatch');
}

/**
 * Gives the acting user access through a resolved token, in the caller's transaction: a new
 * external share (history external_share create, by the acting user) unless they have one through
 * this link already; an invitation is marked accepted.
 * @returns the share that gives access
 */
async function grantShare(
  trx: Executor,
  services: Services,
  ctx: RequestContext,
  resolved: ResolvedToken,
  email: string,
): Promise<ExternalShareRow> {
  const now = new Date(services.clock()).toISOString();
  const { link, invitation, item } = resolved;
  if (invitation && invitation.state !== 'accepted') {
    await updateInvitation(trx, invitation.id, {
      state: 'accepted',
      accepted_at: now,
      accepted_by: ctx.userId,
    });
  }
  const existing = await activeShareOf(trx, link.id, ctx.userId);
  if (existing) return existing;
  const share: ExternalShareRow = {
    id: newId(),
    database_id: link.database_id,
    link_id: link.id,
    invitation_id: invitation?.id ?? null,
    user_id: ctx.userId,
    entity_type: link.entity_type,
    entity_id: link.entity_id,
    created_at: now,
    removed_at: null,
  };
  await insertShare(trx, share);
  await recordInviteAccepted(trx, services, ctx, share, email, item);
  return share;
}

/**
 * GET /api/rest/shared/invitation/{token} (public): what the invitation page shows before
 * sign-in.
 * @throws AppError 404 unknown/cancelled/revoked token; 410 expired link
 */
export async function invitationInfo(
  services: Services,
  token: string,
): Promise<InvitationInfoDto> {
  const resolved = await resolveToken(services.db, services.clock(), token);
  const { link, invitation, item } = resolved;
  return {
    kind: resolved.kind,
    link_id: link.id,
    ...(invitation ? { email: invitation.email } : {}),
    shared_by_name: displayName(link.creator_first, link.creator_last),
    entity_type: item.type,
    entity_name: item.name,
    has_account: invitation ? await userExistsForEmail(services.db, invitation.email) : false,
    requires_password: link.password_hash !== null,
    state: invitation ? invitation.state : 'sent',
  };
}

/** The acting context of a user in a link's firm, for history events outside a session. */
function actingContext(
  user: { id: string; first_name: string; last_name: string },
  databaseId: string,
  role: RequestContext['role'],
  client: ClientInfo,
): RequestContext {
  return {
    userId: user.id,
    userName: displayName(user.first_name, user.last_name),
    databaseId,
    role,
    sessionId: '',
    ip: client.ip,
    userAgent: client.userAgent,
  };
}

/**
 * POST /api/rest/shared/signup (public): creates a guest account for the address (username and
 * e-mail = the address, lowercased) with a 'guest' membership in the link's firm and accepts the
 * share for it. It never tells whether the address already had an account (in any firm): the
 * password is checked first, so a weak one is refused the same way for every address, and an
 * address that has an account gets exactly the answer of a new one, with the same work done
 * (the password is hashed either way) and nothing changed; its owner reaches the share by signing
 * in (POST shared/signin accepts it then). No session is opened: the client signs in next with
 * the same address and password.
 * @returns the answer of every accepted sign-up, whether an account was created or not
 * @throws AppError 400 (password policy, then address and names), 403 (invited address differs,
 *   wrong link password), 404/410 (token), 429 (link locked)
 */
export async function sharedSignup(
  services: Services,
  input: SharedSignupRequest,
  client: ClientInfo,
): Promise<SharedSignupResponse> {
  const resolved = await resolveToken(services.db, services.clock(), input.shareId);
  const email = input.email.trim().toLowerCase();
  const firstName = input.first_name.trim();
  const lastName = input.last_name.trim();
  const firms = await databaseNames(services.db, [resolved.link.database_id]);
  const problem = await passwordProblem(input.password, {
    username: email,
    userInputs: [firstName, lastName, ...firms],
    minLength: services.config.passwordMinLength,
  });
  if (problem) throw badRequest(problem, 'weak_password');
  if (!isValidEmail(email)) {
    throw badRequest(
      formatMessage(SHARING_MESSAGES.invalidEmail, { email: input.email.trim() }),
      'invalid_email',
    );
  }
  if (!firstName || !lastName) {
    throw badRequest('First and last names are required.', 'names_required');
  }
  assertInvitedAddress(resolved, { email, username_key: email });
  await checkLinkPassword(services, resolved.link, input.link_password);
  const answer: SharedSignupResponse = { next: 'sign_in', message: SHARING_MESSAGES.signUpDone };
  // Hashed before the address is looked up, so an existing address is not answered faster.
  const passwordHash = await hashPassword(input.password);
  const now = new Date(services.clock()).toISOString();
  const user = { id: newId(), first_name: firstName, last_name: lastName };
  const databaseId = resolved.link.database_id;
  await services.db.transaction().execute(async (trx) => {
    if (await userExistsForEmail(trx, email)) return;
    await insertUser(trx, {
      id: user.id,
      username: email,
      username_key: email,
      email,
      first_name: firstName,
      last_name: lastName,
      password_hash: passwordHash,
      sso: 0,
      disabled_at: null,
      created_at: now,
      updated_at: now,
    });
    await insertMembership(trx, {
      id: newId(),
      user_id: user.id,
      database_id: databaseId,
      role: 'guest',
      created_at: now,
    });
    const ctx = actingContext(user, databaseId, 'guest', client);
    await grantShare(trx, services, ctx, resolved, email);
  });
  return answer;
}

/**
 * POST /api/rest/shared/signin (public): signs an existing user in through a share. The password
 * is checked with the same lockout as the normal sign-in. A user who is not a member of the link's
 * firm becomes its guest; a member (internal sharing) keeps their role. The share is accepted and
 * the session opens in the link's firm.
 * @param replacedToken the session cookie the request carried, if any
 * @returns the new session's cookie token and the landing location
 * @throws AppError 401 (credentials, locked account, disabled in that firm), 403 (invited address
 *   differs, wrong link password), 404/410 (token), 429 (link locked)
 */
export async function sharedSignin(
  services: Services,
  input: SharedSigninRequest,
  client: ClientInfo,
  replacedToken?: string,
): Promise<{ token: string; landing: typeof SHARED_LANDING }> {
  const resolved = await resolveToken(services.db, services.clock(), input.inviteId);
  const typed = input.email.trim().toLowerCase();
  const found =
    (await findUserByUsernameKey(services.db, typed)) ??
    (await findUserByEmail(services.db, typed));
  const user = await verifyCredentials(services, found, input.password, client);
  assertInvitedAddress(resolved, user);
  await checkLinkPassword(services, resolved.link, input.link_password);
  const databaseId = resolved.link.database_id;
  await services.db.transaction().execute(async (trx) => {
    const membership = (await allMembershipsOfUser(trx, user.id)).find(
      (m) => m.database_id === databaseId,
    );
    if (membership && membership.disabled_at !== null) {
      throw new AppError(401, 'invalid_credentials', 'You no longer have access to this firm.');
    }
    let role = (membership?.role ?? 'guest') as RequestContext['role'];
    if (!membership) {
      await insertMembership(trx, {
        id: newId(),
        user_id: user.id,
        database_id: databaseId,
        role: 'guest',
        created_at: new Date(services.clock()).toISOString(),
      });
      role = 'guest';
    }
    const ctx = actingContext(user, databaseId, role, client);
    await grantShare(trx, services, ctx, resolved, (user.email ?? user.username).toLowerCase());
  });
  const session = await openSession(services, user, databaseId, client, replacedToken);
  return { token: session.token, landing: SHARED_LANDING };
}

/**
 * POST /api/rest/shared/links/{id}/accept: the signed-in user (a member of the link's firm or a
 * guest of it) accepts a share with its invitation or link token.
 * @returns the shared item as the Shared page lists it
 * @throws AppError 404 (link not in the session's firm, token not of this link), 403 (invited
 *   address differs, wrong link password), 410 (expired), 429 (link locked)
 */
export async function acceptShare(
  services: Services,
  ctx: RequestContext,
  linkId: string,
  token: string,
  password: string | undefined,
): Promise<{ share: SharedEntityDto }> {
  const link = await findLink(services.db, ctx.databaseId, linkId);
  if (!link) throw notFound();
  const resolved = await resolveToken(services.db, services.clock(), token);
  if (resolved.link.id !== link.id) throw notFound();
  const user = await findUserById(services.db, ctx.userId);
  if (!user) throw notFound();
  assertInvitedAddress(resolved, user);
  await checkLinkPassword(services, resolved.link, password);
  const share = await services.db
    .transaction()
    .execute((trx) =>
      grantShare(trx, services, ctx, resolved, (user.email ?? user.username).toLowerCase()),
    );
  const grant: UserShare = { share, link: resolved.link, active: true };
  const item =
    resolved.item.type === 'folder'
      ? presentSharedFolder(
          (await findFolder(services.db, link.database_id, link.entity_id))!,
          grant,
          '',
        )
      : presentSharedFile(
          (await findFile(services.db, link.database_id, link.entity_id))!,
          grant,
          '',
        );
  return { share: item };
}

// ---- internal lists -------------------------------------------------------------------------------

/** The state of a link with nobody in it yet, or of an open invitation: pending while live. */
function openState(link: ShareLinkWithCreator, now: number): SharedByMeState {
  if (link.revoked_at !== null) return 'revoked';
  return linkLive(link, now) ? 'pending' : 'expired';
}

/**
 * The rows of "Shared by me" for the links the session user created, newest link first: one per
 * person who accepted (accepted, removed, expired or revoked), one per invitation not accepted
 * (pending, cancelled, expired or revoked), and one for a link that has neither (anyone with the
 * link). Links of items archived or deleted are left out.
 */
async function sharedByMe(services: Services, ctx: RequestContext): Promise<SharedEntityDto[]> {
  const links = await linksByCreator(services.db, ctx.databaseId, ctx.userId);
  const ids = links.map((l) => l.id);
  const [invitations, shares] = await Promise.all([
    invitationsOfLinks(services.db, ids),
    sharesOfLinks(services.db, ids),
  ]);
  const now = services.clock();
  const rows: SharedEntityDto[] = [];
  for (const link of links) {
    const linkShares = shares.filter((s) => s.link_id === link.id);
    const grant: UserShare = {
      share: { ...(linkShares[0] ?? placeholderShare(link)), id: '' },
      link,
      active: true,
    };
    const [item] = await presentShareItems(services, ctx.databaseId, [grant]);
    if (!item) continue;
    const row = (
      rowId: string,
      state: SharedByMeState,
      recipient: string,
      at: string,
    ): SharedEntityDto => ({
      ...item,
      share_id: state === 'accepted' ? rowId : '',
      shared_at: at,
      recipient_email: recipient,
      link_id: link.id,
      link_live: linkLive(link, now),
      share_state: state,
      row_id: rowId,
    });
    const accepted = new Set<string>();
    for (const share of linkShares) {
      if (share.invitation_id) accepted.add(share.invitation_id);
      let state: SharedByMeState;
      if (link.revoked_at !== null) state = 'revoked';
      else if (share.removed_at !== null) state = 'removed';
      else state = linkLive(link, now) ? 'accepted' : 'expired';
      rows.push(row(share.id, state, shareEmail(share), share.created_at));
    }
    for (const invitation of invitations) {
      if (invitation.link_id !== link.id || accepted.has(invitation.id)) continue;
      const state: SharedByMeState =
        invitation.state === 'cancelled' && link.revoked_at === null
          ? 'cancelled'
          : invitation.state === 'accepted'
            ? 'removed'
            : openState(link, now);
      rows.push(row(invitation.id, state, invitation.email, invitation.sent_at));
    }
    if (!rows.some((r) => r.link_id === link.id)) {
      rows.push(row(link.id, openState(link, now), '', link.created_at));
    }
  }
  return rows;
}

/** A share-shaped stand-in naming a link's item, to present an item nobody accepted yet. */
function placeholderShare(link: ShareLinkWithCreator): ExternalShareRow {
  return {
    id: '',
    database_id: link.database_id,
    link_id: link.id,
    invitation_id: null,
    user_id: link.created_by,
    entity_type: link.entity_type,
    entity_id: link.entity_id,
    created_at: link.created_at,
    removed_at: null,
  };
}

/**
 * GET /api/rest/entities/shared: what was shared with the session user (active shares) and what
 * they shared with others (see {@link sharedByMe}: every link with each recipient's state).
 */
export async function sharedOverview(
  services: Services,
  ctx: RequestContext,
): Promise<{ shared_with_me: SharedEntityDto[]; shared_by_me: SharedEntityDto[] }> {
  const byMe = await sharedByMe(services, ctx);
  const withMe = await listSharedEntities(services, ctx, undefined);
  return { shared_with_me: withMe.items, shared_by_me: byMe };
}

/**
 * POST /api/rest/shared/links/{id}/reissue: a new copyable URL for a live link. Only the hash of
 * a link's token is stored, so the link gets a new token and the URL copied before stops working;
 * e-mailed invitations (their own tokens) and accesses already accepted are kept. History
 * share_link create ("Invite sent", attributes `reissued: true`, no address).
 * @throws AppError 404, 403 (read-only), 409 revoked link, 410 expired link
 */
export async function reissueShareLink(
  services: Services,
  ctx: RequestContext,
  linkId: string,
): Promise<{ link: ShareLinkDto; url: string }> {
  const token = newToken();
  await services.db.transaction().execute(async (trx) => {
    const { link, item } = await managedLink(trx, ctx, linkId);
    if (link.revoked_at !== null) throw conflict('This share link was revoked.', 'link_revoked');
    if (Date.parse(link.expires_at) <= services.clock()) throw linkExpired();
    await updateLink(trx, ctx.databaseId, link.id, { token_hash: tokenHash(token) });
    await recordLinkReissued(trx, services, ctx, { id: link.id }, item);
  });
  const fresh = await findLink(services.db, ctx.databaseId, linkId);
  return { link: await presentLink(services, fresh!), url: invitationUrl(services, token) };
}
