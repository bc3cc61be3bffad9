/**
 * Calls of the sharing feature (SPEC section 7 "Shares", docs: /work brief-sharing.md):
 * share links and invitations (the share dialog), the public invitation page with the guest
 * sign-up and sign-in, and the Shared page's lists, breadcrumbs and file addresses. Every call
 * throws an ApiError (src/api/client.ts) on a non-ok answer; a revoked or removed share answers
 * 404 with the code {@link ACCESS_ENDED_CODE}.
 */
import {
  ACCESS_ENDED_CODE,
  type CreateShareLinkRequest,
  type CreateShareLinkResponse,
  type InvitationInfoDto,
  type InviteResponse,
  type ReissueShareLinkResponse,
  type ShareEntityType,
  type SharedBreadcrumbsResponse,
  type SharedEntityListResponse,
  type SharedOverviewResponse,
  type SharedSessionResponse,
  type AcceptShareRequest,
  type SharedSigninRequest,
  type SharedSignupRequest,
  type SharedSignupResponse,
  type ShareLinkListResponse,
} from '@common/sharing';
import { ApiError, REST, buildUrl, get, post, request } from '@src/api/client';

/** Path prefix of the share routes. */
const SHARED = `${REST}/shared`;

/** POST /api/rest/shared/links: creates a link and e-mails an invitation to each recipient. */
export function createLink(body: CreateShareLinkRequest): Promise<CreateShareLinkResponse> {
  return post<CreateShareLinkResponse>(`${SHARED}/links`, body);
}

/** GET /api/rest/shared/links?entity_type&entity_id: the item's links, invitations and shares. */
export function fetchLinks(
  entityType: ShareEntityType,
  entityId: string,
): Promise<ShareLinkListResponse> {
  return get<ShareLinkListResponse>(`${SHARED}/links`, {
    query: { entity_type: entityType, entity_id: entityId },
  });
}

/** DELETE /api/rest/shared/links/{id}: revokes a link (its guests lose access at once). */
export function revokeLink(linkId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${SHARED}/links/${encodeURIComponent(linkId)}`);
}

/**
 * POST /api/rest/shared/links/{id}/reissue: a new copyable URL for a live link (the URL copied
 * before stops working). 409 revoked, 410 expired.
 */
export function reissueLink(linkId: string): Promise<ReissueShareLinkResponse> {
  return post<ReissueShareLinkResponse>(
    `${SHARED}/links/${encodeURIComponent(linkId)}/reissue`,
    {},
  );
}

/** POST /api/rest/shared/links/{id}/invite: sends (or re-sends, with a new token) invitations. */
export function invite(linkId: string, emails: string[]): Promise<InviteResponse> {
  return post<InviteResponse>(`${SHARED}/links/${encodeURIComponent(linkId)}/invite`, { emails });
}

/** DELETE /api/rest/shared/links/{id}/invitations/{invitationId}: cancels an invitation. */
export function cancelInvitation(linkId: string, invitationId: string): Promise<unknown> {
  return request<unknown>(
    'DELETE',
    `${SHARED}/links/${encodeURIComponent(linkId)}/invitations/${encodeURIComponent(invitationId)}`,
  );
}

/** DELETE /api/rest/shared/entities/{id} (id = external share id): removes someone's access. */
export function removeShare(shareId: string): Promise<unknown> {
  return request<unknown>('DELETE', `${SHARED}/entities/${encodeURIComponent(shareId)}`);
}

/**
 * GET /api/rest/shared/invitation/{token} (public): who shared what. 404 for an unknown or revoked
 * token, 410 for an expired link.
 */
export function fetchInvitation(token: string): Promise<InvitationInfoDto> {
  return get<InvitationInfoDto>(`${SHARED}/invitation/${encodeURIComponent(token)}`, {
    reportUnauthorized: false,
  });
}

/**
 * POST /api/rest/shared/signup (public): creates the guest account unless the address has one;
 * the same answer (202) either way and no session: sign in next.
 */
export function signUp(body: SharedSignupRequest): Promise<SharedSignupResponse> {
  return post<SharedSignupResponse>(`${SHARED}/signup`, body, { reportUnauthorized: false });
}

/** POST /api/rest/shared/signin (public): signs in through a share; sets the session cookie. */
export function signIn(body: SharedSigninRequest): Promise<SharedSessionResponse> {
  return post<SharedSessionResponse>(`${SHARED}/signin`, body, { reportUnauthorized: false });
}

/**
 * POST /api/rest/shared/links/{id}/accept: the signed-in user accepts a share with its token (and
 * the link's password when it has one).
 * @throws ApiError 403 another address's invitation or a wrong password, 404 unknown link, 410
 *   expired, 429 locked
 */
export function acceptShare(linkId: string, body: AcceptShareRequest): Promise<unknown> {
  return post<unknown>(`${SHARED}/links/${encodeURIComponent(linkId)}/accept`, body);
}

/**
 * GET /api/rest/shared/entities?folder_id: what was shared with the session user (top level,
 * folderId '') or the contents of a shared folder. The guests' list; internal users may use it too.
 */
export function fetchSharedEntities(folderId: string): Promise<SharedEntityListResponse> {
  return get<SharedEntityListResponse>(`${SHARED}/entities`, {
    query: { folder_id: folderId || undefined },
  });
}

/** GET /api/rest/shared_entities?folder_id: the contents of a folder shared with an internal user. */
export function fetchInternalSharedFolder(folderId: string): Promise<SharedEntityListResponse> {
  return get<SharedEntityListResponse>(`${REST}/shared_entities`, {
    query: { folder_id: folderId || undefined },
  });
}

/** GET /api/rest/entities/shared: what was shared with the internal user and by them. */
export function fetchSharedOverview(): Promise<SharedOverviewResponse> {
  return get<SharedOverviewResponse>(`${REST}/entities/shared`);
}

/** GET /api/rest/shared/folders/{id}/breadcrumbs: the chain from the shared root down to it. */
export function fetchSharedBreadcrumbs(folderId: string): Promise<SharedBreadcrumbsResponse> {
  return get<SharedBreadcrumbsResponse>(
    `${SHARED}/folders/${encodeURIComponent(folderId)}/breadcrumbs`,
  );
}

/** What opening a shared file does: show it in a new tab, or save it. */
export type SharedFileMode = 'preview' | 'download';

/** The address of a shared file's preview or download (GET /api/rest/shared/files/{id}/…). */
export function sharedFileUrl(fileId: string, mode: SharedFileMode): string {
  return buildUrl(`${SHARED}/files/${encodeURIComponent(fileId)}/${mode}`);
}

/** Whether an error is the server's "Your access to this item has ended." (404 access_ended). */
export function isAccessEnded(error: unknown): boolean {
  return error instanceof ApiError && error.code === ACCESS_ENDED_CODE;
}
