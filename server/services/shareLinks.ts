/**
 * Managing share links and invitations (SPEC sections 3, 4 and 7 "Shares"; docs/architecture.md
 * "Sharing"): create a link for a folder or file and invite addresses, list, revoke, re-issue its
 * URL, invite more, cancel an invitation, remove an accepted share.
 *
 * - Expiry: default now + SHARE_LINK_DEFAULT_DAYS, at most SHARE_LINK_MAX_DAYS.
 * - Password: optional, scrypt-hashed; checked with its lockout by shareLinkLockout.ts.
 * - History, in the transaction of the change: share_link create per invited e-mail (invite
 *   sent), share_link delete per cancelled invitation (invite cancelled; a revoked link cancels
 *   its open invitations), external_share delete when a share is removed (access removed; a
 *   revoked link removes its shares).
 * - Mail goes out after the transaction commits; a failed send keeps the invitation ('sent') and
 *   the answer says `mail_failed: true`.
 */
import { isValidEmail } from '@common/email';
import { formatMessage } from '@common/messages';
import {
  SHARING_MESSAGES,
  type CreateShareLinkRequest,
  type ShareEntityType,
  type ShareLinkDto,
} from '@common/sharing';
import { PRODUCT_NAME } from '@common/constants';
import { badRequest, conflict, notFound } from '../errors';
import { newId } from '../ids';
import { hashPassword } from '../passwords';
import {
  findInvitation,
  findLink,
  findShare,
  insertInvitation,
  insertLink,
  invitationsOfLinks,
  listLinksOfEntity,
  removeSharesOfLink,
  updateInvitation,
  updateLink,
  updateShare,
  type ShareLinkWithCreator,
} from '../repositories/shares';
import type { Executor } from '../repositories/types';
import { accessibleFile, accessibleFolder, type Access } from './access';
import type { RequestContext, Services } from './context';
import {
  recordInviteCancelled,
  recordInviteSent,
  recordLinkReissued,
  recordShareRemoved,
  type TypedItemRef,
} from './historyEvents';
import { mailerFor } from './mail';
import { tokenHash, newToken, invitationUrl, linkExpired } from './shareTokens';
import { presentLinks, shareEmail, presentLink } from './sharePresenters';

const DAY_MS = 86_400_000;

/** Clock skew allowed on a requested expiry at the maximum, in ms. */
const EXPIRY_SLACK_MS = 60_000;

/** Most recipients one request may name. */
const MAX_RECIPIENTS = 50;

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
