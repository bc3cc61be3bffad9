/**
 * Shares as the app shows them (SPEC sections 4 and 7 "Shares"): a link with its invitations and
 * accepted shares for the share dialog, and the Shared page's two lists (shared with me, shared
 * by me with each recipient's state).
 */
import {
  type InvitationDto,
  type InvitationState,
  type SharedByMeState,
  type SharedEntityDto,
  type ShareLinkDto,
} from '@common/sharing';
import type { ExternalShareRow, ShareInvitationRow } from '../db/schemaSharing';
import { displayName } from '../presenters';
import { findFilesByIds } from '../repositories/files';
import { findFoldersByIds } from '../repositories/folders';
import {
  activeSharesOfLinks,
  invitationsOfLinks,
  linksByCreator,
  sharesOfLinks,
  type ExternalShareWithUser,
  type ShareLinkWithCreator,
} from '../repositories/shares';
import type { RequestContext, Services } from './context';
import { linkLive, listSharedEntities, presentShareItems, type UserShare } from './sharingAccess';

/** An invitation's state as shown: 'expired' when still open after its link's expiry. */
function invitationState(row: ShareInvitationRow, link: ShareLinkWithCreator, now: number) {
  if (row.state === 'sent' && !linkLive(link, now)) return 'expired' as InvitationState;
  return row.state;
}

/** Links as the share dialog shows them, with their invitations and accepted shares. */
export async function presentLinks(
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
export function shareEmail(share: ExternalShareWithUser): string {
  return (share.user_email ?? share.user_username ?? '').toLowerCase();
}

/** One link as the share dialog shows it. */
export async function presentLink(
  services: Services,
  link: ShareLinkWithCreator,
): Promise<ShareLinkDto> {
  return (await presentLinks(services, [link]))[0]!;
}

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
