/**
 * Sharing (SPEC sections 1, 3, 4 and 7 "Shares"): the JSON shapes of the share routes,
 * their messages and limits, shared by the client and the server. Field names are snake_case as
 * on the wire; timestamps are ISO 8601 UTC strings; sizes are bytes.
 */

/** What may be shared: a folder or a file. */
export type ShareEntityType = 'file' | 'folder';

/**
 * State of an invitation: 'sent' until accepted or cancelled; 'expired' is derived when the
 * link's expiry has passed (and the invitation was neither accepted nor cancelled).
 */
export type InvitationState = 'sent' | 'accepted' | 'cancelled' | 'expired';

/**
 * State of one recipient of a link in "Shared by me": 'pending' (invitation sent, or a link
 * nobody used yet), 'accepted' (access now), 'expired' (the link's end passed), 'revoked' (the
 * link was revoked), 'removed' (that person's access was removed), 'cancelled' (the invitation
 * was cancelled before it was accepted).
 */
export type SharedByMeState =
  'pending' | 'accepted' | 'expired' | 'revoked' | 'removed' | 'cancelled';

/** How "Shared by me" names each state. */
export const SHARED_BY_ME_STATE_LABELS: Record<SharedByMeState, string> = {
  pending: 'Invitation pending',
  accepted: 'Accepted',
  expired: 'Expired',
  revoked: 'Revoked',
  removed: 'Access removed',
  cancelled: 'Invitation cancelled',
};

/** One invitation of a link, as the share dialog lists it. */
export interface InvitationDto {
  id: string;
  /** The invited address, lowercased. */
  email: string;
  state: InvitationState;
  sent_at: string;
  accepted_at: string | null;
}

/** One accepted share of a link (someone who has access through it). */
export interface ShareAccessDto {
  /** The external share id (DELETE /api/rest/shared/entities/{id} removes it). */
  id: string;
  user_name: string;
  email: string;
  created_at: string;
}

/**
 * A share link as the share dialog shows it (POST and GET /api/rest/shared/links). The link's
 * token is never part of it: it is answered once, as `url`, when the link is created.
 */
export interface ShareLinkDto {
  id: string;
  entity_type: ShareEntityType;
  entity_id: string;
  entity_name: string;
  created_by_name: string;
  created_at: string;
  expires_at: string;
  allow_download: boolean;
  has_password: boolean;
  message: string;
  /** When the link was revoked, or null while it works. */
  revoked_at: string | null;
  invitations: InvitationDto[];
  /** Accepted shares that still give access. */
  shares: ShareAccessDto[];
}

/** Body of POST /api/rest/shared/links. */
export interface CreateShareLinkRequest {
  entity_type: ShareEntityType;
  entity_id: string;
  /** Recipients; each gets an invitation e-mail. May be empty (the copyable link only). */
  emails: string[];
  message?: string;
  /** ISO 8601; default now + SHARE_LINK_DEFAULT_DAYS (server config), at most the configured maximum. */
  expires_at?: string;
  password?: string;
  /** Whether guests may download (default true). */
  allow_download?: boolean;
}

/** Answer of POST /api/rest/shared/links (201). */
export interface CreateShareLinkResponse {
  link: ShareLinkDto;
  /** The copyable link `${publicUrl}/sharing/invitation/<link token>`; answered only here. */
  url: string;
  /** Present and true when at least one invitation e-mail could not be sent (invitations kept). */
  mail_failed?: boolean;
}

/** Answer of GET /api/rest/shared/links?entity_type&entity_id. */
export interface ShareLinkListResponse {
  items: ShareLinkDto[];
}

/**
 * Answer of POST /api/rest/shared/links/{id}/reissue: the link's new copyable URL. Only a hash
 * of a link's token is stored, so copying a link again makes a new token; the URL copied
 * before stops working (invitations e-mailed and accesses already accepted are kept).
 */
export interface ReissueShareLinkResponse {
  link: ShareLinkDto;
  url: string;
}

/** Body of POST /api/rest/shared/links/{id}/invite. */
export interface InviteRequest {
  emails: string[];
}

/** Answer of POST /api/rest/shared/links/{id}/invite (200). */
export interface InviteResponse {
  link: ShareLinkDto;
  mail_failed?: boolean;
}

/** Body of POST /api/rest/shared/links/{id}/accept. */
export interface AcceptShareRequest {
  /** The invitation or link token. */
  token: string;
  /** The link's password, when it has one. */
  password?: string;
}

/** Answer of POST /api/rest/shared/links/{id}/accept (200). */
export interface AcceptShareResponse {
  share: SharedEntityDto;
}

/**
 * Answer of the public GET /api/rest/shared/invitation/{token}: what the invitation page shows
 * before sign-in. 404 for an unknown or revoked token, 410 for an expired link.
 */
export interface InvitationInfoDto {
  /** 'invitation' for an e-mailed invitation token, 'link' for the copyable link's token. */
  kind: 'invitation' | 'link';
  /**
   * The share link's id: a signed-in user accepts with POST shared/links/{link_id}/accept and the
   * token (the id alone grants nothing).
   */
  link_id: string;
  /** The invited address (invitations only). */
  email?: string;
  shared_by_name: string;
  entity_type: ShareEntityType;
  entity_name: string;
  /** True when the invited address already has an account (invitations only; false for links). */
  has_account: boolean;
  requires_password: boolean;
  state: InvitationState;
}

/** Body of the public POST /api/rest/shared/signup. */
export interface SharedSignupRequest {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  /** The invitation or link token. */
  shareId: string;
  link_password?: string;
}

/** Body of the public POST /api/rest/shared/signin. */
export interface SharedSigninRequest {
  email: string;
  password: string;
  /** The invitation or link token. */
  inviteId: string;
  link_password?: string;
}

/**
 * Answer (202) of every accepted shared sign-up, the same whether the address already had an
 * account or not; no session is opened: the client signs in next (POST shared/signin).
 */
export interface SharedSignupResponse {
  next: 'sign_in';
  message: string;
}

/** Answer of shared sign-in (200); the session cookie is set. */
export interface SharedSessionResponse {
  landing: '/sharing/shared';
}

/**
 * Something shared with or by the session user, or an item inside a shared folder (GET
 * /api/rest/shared/entities, /api/rest/shared_entities, /api/rest/entities/shared).
 */
export interface SharedEntityDto {
  /** The external share that gives access (the top-level share for items inside a folder). */
  share_id: string;
  entity_type: ShareEntityType;
  id: string;
  name: string;
  /** Files only: lowercased extension without the dot ('' when none). */
  extension?: string;
  /** Files only: bytes. */
  size?: number;
  /** Files only. */
  content_type?: string;
  /** Files only: a thumbnail is stored (GET shared/files/{id}/thumbnail answers it). */
  thumbnail?: boolean;
  updated_at: string;
  shared_by_name: string;
  shared_at: string;
  allow_download: boolean;
  /** The parent folder inside the share; '' at the top level. */
  folder_id: string;
  /**
   * shared_by_me only: the recipient's address ('' for a link that nobody used and that named
   * no address: anyone with the link).
   */
  recipient_email?: string;
  /** shared_by_me only: the link of the row (POST shared/links/{id}/reissue copies it again). */
  link_id?: string;
  /** shared_by_me only: whether the link still works (not revoked nor expired): it can be copied. */
  link_live?: boolean;
  /** shared_by_me only: the recipient's state. */
  share_state?: SharedByMeState;
  /** shared_by_me only: a key unique among the rows (the share, invitation or link id). */
  row_id?: string;
}

/** Answer of GET /api/rest/shared/entities and /api/rest/shared_entities. */
export interface SharedEntityListResponse {
  items: SharedEntityDto[];
  /** Whether the share the listed folder belongs to allows download (true at the top level). */
  allow_download: boolean;
}

/** Answer of GET /api/rest/entities/shared (internal users). */
export interface SharedOverviewResponse {
  shared_with_me: SharedEntityDto[];
  shared_by_me: SharedEntityDto[];
}

/** One step of GET /api/rest/shared/folders/{id}/breadcrumbs, from the shared root down. */
export interface SharedBreadcrumbDto {
  id: string;
  name: string;
}

/** Answer of GET /api/rest/shared/folders/{id}/breadcrumbs. */
export interface SharedBreadcrumbsResponse {
  items: SharedBreadcrumbDto[];
}

/** Where a guest (and anyone signing in through a share) lands (SPEC section 1). */
export const SHARED_LANDING = '/sharing/shared' as const;

/** Path of the public invitation page; the token follows. */
export const INVITATION_PATH = '/sharing/invitation';

/** Client defaults when the server has not said otherwise (server config overrides them). */
export const SHARE_LINK_DEFAULT_DAYS = 14;
/** Longest expiry the client offers by default, in days (server config SHARE_LINK_MAX_DAYS). */
export const SHARE_LINK_MAX_DAYS = 90;

/** Error code of the 404 a guest gets once their access has been revoked or removed. */
export const ACCESS_ENDED_CODE = 'access_ended';

/** The sharing messages (worded for this product; the spec leaves them open). */
export const SHARING_MESSAGES = {
  accessEnded: 'Your access to this item has ended.',
  wrongLinkPassword: 'The password is not correct.',
  linkLocked: 'Too many wrong passwords. Try again later.',
  linkExpired: 'This share link has expired.',
  linkNotFound: 'This share link does not exist or is no longer valid.',
  invalidEmail: '"{email}" is not a valid e-mail address.',
  invitationEmailMismatch: 'This invitation was sent to another e-mail address.',
  signUpDone: 'Sign in with your e-mail address and password to open the share.',
  signUpSignIn:
    'If you already had an account with this e-mail address, sign in with its password to open the share.',
  expiryTooLate: 'A share link can last at most {days} days.',
  expiryInPast: 'The expiry date must be in the future.',
  downloadNotAllowed: 'Downloading is not allowed for this share.',
  mailFailed: 'The share was saved, but the invitation e-mail could not be sent.',
} as const;
