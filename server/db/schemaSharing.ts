/** The tables of sharing (migration 0010_sharing.ts). */
import type { Generated, Selectable } from 'kysely';

/** A folder or file shared through a link. Only the sha256 of the link's token is stored. */
export interface ShareLinksTable {
  id: string;
  database_id: string;
  entity_type: 'file' | 'folder';
  entity_id: string;
  /** The user who shared. */
  created_by: string;
  /** sha256 (hex) of the random link token; the token itself is never stored. */
  token_hash: string;
  message: Generated<string>;
  /** ISO UTC end of the link: no access through it afterwards. */
  expires_at: string;
  /** scrypt hash (server/passwords.ts) of the link's password, or null. */
  password_hash: string | null;
  /** 1 when guests may download, else 0. */
  allow_download: Generated<number>;
  /** Wrong link passwords in a row since the last right one or lock. */
  failed_password_count: Generated<number>;
  /** While in the future, the link refuses every password (429). */
  locked_until: string | null;
  /** When the link was revoked: every access through it ends. */
  revoked_at: string | null;
  created_at: string;
}

/** One e-mailed invitation of a link; its own token's sha256 is stored. */
export interface ShareInvitationsTable {
  id: string;
  link_id: string;
  database_id: string;
  /** Lowercased address. */
  email: string;
  /** sha256 (hex) of the invitation token (a re-send replaces it). */
  token_hash: string;
  /** 'sent' | 'accepted' | 'cancelled' ('expired' is derived from the link when read). */
  state: 'sent' | 'accepted' | 'cancelled';
  sent_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  cancelled_at: string | null;
}

/** An accepted share: one user's access to the linked item; `removed_at` ends it. */
export interface ExternalSharesTable {
  id: string;
  database_id: string;
  link_id: string;
  invitation_id: string | null;
  user_id: string;
  entity_type: 'file' | 'folder';
  entity_id: string;
  created_at: string;
  removed_at: string | null;
}

/** Tables of sharing, merged into DB (schema.ts). */
export interface SharingTables {
  share_links: ShareLinksTable;
  share_invitations: ShareInvitationsTable;
  external_shares: ExternalSharesTable;
}

export type ShareLinkRow = Selectable<ShareLinksTable>;
export type ShareInvitationRow = Selectable<ShareInvitationsTable>;
export type ExternalShareRow = Selectable<ExternalSharesTable>;
