/**
 * Kysely table types. Both dialects store the same shapes: ids are UUIDv7 text, timestamps ISO 8601
 * UTC text (they sort as text), booleans 0/1 integers, JSON as text. `parent_id`/`folder_id` is ''
 * for the root folder (SPEC section 2: the root has an empty id).
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ContactTables } from './schemaContacts';
import type { ExaminerTables } from './schemaExaminer';
import type { ReplayTables } from './schemaReplay';
import type { ImagingTables } from './schemaImaging';
import type { InstanceTables } from './schemaInstances';
import type { RecordsTables } from './schemaRecords';
import type { RequestTables } from './schemaRequests';
import type { IndexTables } from './schemaIndexes';
import type { SearchTables } from './schemaSearch';
import type { SharingTables } from './schemaSharing';
import type { VersionTables } from './schemaVersions';

export interface DatabasesTable {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  /** When an operator disabled the firm, or null (0025). */
  disabled_at: Generated<string | null>;
  /** Lowercased trimmed name, unique; null only for old rows whose name another firm had (0025). */
  name_key: Generated<string | null>;
}

export interface UsersTable {
  id: string;
  username: string;
  /** Lowercased username, unique. */
  username_key: string;
  email: string | null;
  first_name: string;
  last_name: string;
  password_hash: string;
  sso: number;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
  /** Wrong passwords in a row since the last successful sign-in or unlock (0008). */
  failed_login_count: Generated<number>;
  /** When the account was locked after too many wrong passwords, or null (0008). */
  locked_at: Generated<string | null>;
  /** When the lock ends by itself; null while locked_at is set means until an admin unlocks (0008). */
  locked_until: Generated<string | null>;
  /** 1 when the user may manage firms (the operator's page and API), set by the CLI (0025). */
  is_operator: Generated<number>;
}

/** Wrong passwords for one user from one source (client IP, '' when unknown), and its lock (0018). */
export interface LoginFailuresTable {
  user_id: string;
  source: string;
  /** Wrong passwords in a row from this source since its last lock or right password. */
  failed_count: Generated<number>;
  /** When this source was locked out of the account, or null. */
  locked_at: Generated<string | null>;
  /** When that lock ends by itself; null while locked_at is set: until an administrator unlocks. */
  locked_until: Generated<string | null>;
  updated_at: string;
}

export interface MembershipsTable {
  id: string;
  user_id: string;
  database_id: string;
  role: string;
  created_at: string;
  /** Disabled in this firm: the member cannot sign in to it (0008). */
  disabled_at: Generated<string | null>;
  /** The administrator who disabled the member (0008). */
  disabled_by: Generated<string | null>;
}

export interface SessionsTable {
  /** sha256 (hex) of the cookie token; the token itself is never stored. */
  id: string;
  user_id: string;
  database_id: string;
  created_at: string;
  last_seen_at: string;
  /** Absolute end of the session. */
  expires_at: string;
  idle_minutes: number;
  ip: string | null;
  user_agent: string | null;
  login_recorded: number;
  logout_recorded: number;
}

export interface FoldersTable {
  id: string;
  database_id: string;
  parent_id: string;
  name: string;
  name_key: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  /** The item whose archive archived this row (its own id if archived itself), or null (0004). */
  archived_root_id: string | null;
}

export interface FolderColorsTable {
  folder_id: string;
  user_id: string;
  color: string;
  updated_at: string;
}

export interface FilesTable {
  id: string;
  database_id: string;
  folder_id: string;
  name: string;
  name_key: string;
  extension: string;
  size: number;
  content_type: string;
  storage_key: string;
  status: 'pending' | 'ready';
  /** Hex sha256 of the stored object, set when the upload is recorded (0003); null before. */
  sha256: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  /** The item whose archive archived this row (its own id if archived itself), or null (0004). */
  archived_root_id: string | null;
  /** The client's batch id of the upload that made the row, or null (0018). */
  upload_batch_id: string | null;
  /** The client's key of the file within its batch, or null (0018). */
  upload_client_key: string | null;
  /** `nameKey` of the name the file was picked with, for its batch's duplicate check (0018). */
  upload_name_key: string | null;
  /** The object store's id of a pending multipart upload (S3's UploadId), or null (0023). */
  store_upload_id: string | null;
  /** A pending upload that is to become a new version of this file (its id), or null (0026). */
  upload_version_of: string | null;
}

export interface FavoritesTable {
  id: string;
  database_id: string;
  entity_type: string;
  entity_id: string;
  user_id: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

export interface HistoryEventsTable {
  id: string;
  database_id: string;
  entity_type: string;
  entity_id: string;
  action: string;
  user_id: string;
  user_name: string;
  /** JSON text of HistoryAttributes. */
  attributes: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  /** The folder or file the event concerns (its own id for folder/file events), or null (0002). */
  item_id: string | null;
  /** Position in the firm's hash chain, from 1 (0002). */
  chain_seq: number;
  /** Hash of the previous link (64 zeros for the first), hex sha256 (0002). */
  prev_hash: string;
  /** sha256(prev_hash + canonical content), hex (0002; see server/services/historyChain.ts). */
  hash: string;
  /**
   * The event's CSV record as the export writes it, rendered when it was recorded; null for rows
   * written before 0016 (derived data, not hashed: server/services/historyCsv.ts).
   */
  export_record: ColumnType<string | null, string | null | undefined, never>;
  /** Format of `export_record` (HISTORY_EXPORT_FORMAT when it was rendered), or null (0016). */
  export_format: ColumnType<number | null, number | null | undefined, never>;
}

/** A user's last touch of a file or folder, for the Recent page (0004). */
export interface RecentItemsTable {
  database_id: string;
  user_id: string;
  entity_type: 'file' | 'folder';
  entity_id: string;
  /** The history action of the touch. */
  action: string;
  /** ISO UTC time of the touch. */
  at: string;
}

/** A firm database's integration switch (0009). No row means disabled. */
export interface IntegrationsTable {
  database_id: string;
  /** 1 when partner apps may use the firm's keys and tokens, else 0. */
  enabled: number;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A user's integration key for one partner app in one firm database (0009). */
export interface IntegrationKeysTable {
  id: string;
  database_id: string;
  user_id: string;
  partner_app_id: string;
  /** sha256 (hex) of the key; the key itself is never stored. */
  key_hash: string;
  /** The key's first characters, shown to tell keys apart. */
  key_prefix: string;
  created_by: string | null;
  created_at: string;
  rotated_at: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
}

/** One use of an integration key (0009). */
export interface IntegrationKeyUsesTable {
  id: string;
  key_id: string;
  database_id: string;
  /** 'generate_token' or 'token_login'. */
  action: string;
  /** 'ok' or why it was refused ('integrations_disabled', 'user_unavailable', …). */
  outcome: string;
  used_at: string;
  ip: string | null;
  user_agent: string | null;
}

/** A user's preference: one JSON value per name, the same in every firm database (0022). */
export interface UserPreferencesTable {
  user_id: string;
  name: string;
  /** JSON text. */
  value: string;
  updated_at: string;
}

/** A selection waiting to be zipped, named by a short-lived single-use token (0022). */
export interface ZipRequestsTable {
  /** sha256 (hex) of the token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  database_id: string;
  /** JSON text: the selected items as `EntityRef[]`, authorised when the request was made. */
  items: string;
  expires_at: string;
}

/** A single-use single-sign-on token (0009). */
export interface SsoTokensTable {
  /** sha256 (hex) of the token; the token itself is never stored. */
  id: string;
  key_id: string;
  database_id: string;
  user_id: string;
  partner_app_id: string;
  created_at: string;
  expires_at: string;
  /** Set when the token is claimed; a claimed token is refused. */
  used_at: string | null;
}

/** Kysely's migration bookkeeping is managed by Kysely itself. */
/** A named group of users in one firm database (0007). */
export interface TeamsTable {
  id: string;
  database_id: string;
  name: string;
  /** Lowercased name, unique per firm. */
  name_key: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** A user's membership of a team (0007). */
export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  created_at: string;
}

/** One user or team allowed on a restricted folder (0007). */
export interface FolderPermissionsTable {
  id: string;
  database_id: string;
  folder_id: string;
  permissionable_id: string;
  permissionable_type: 'user' | 'team';
  created_by: string;
  created_at: string;
}

/**
 * Every table. The tables of sharing, index fields, contacts, search, imaging, shared instance
 * state, file versions, retention and holds, and examiner's exports live in their own modules
 * (schemaSharing.ts, schemaIndexes.ts, schemaContacts.ts, schemaSearch.ts, schemaImaging.ts,
 * schemaInstances.ts, schemaVersions.ts, schemaRecords.ts, schemaExaminer.ts, schemaReplay.ts).
 */
export interface DB
  extends
    SharingTables,
    IndexTables,
    ContactTables,
    SearchTables,
    ImagingTables,
    InstanceTables,
    VersionTables,
    RecordsTables,
    RequestTables,
    ExaminerTables,
    ReplayTables {
  databases: DatabasesTable;
  users: UsersTable;
  login_failures: LoginFailuresTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  folders: FoldersTable;
  folder_colors: FolderColorsTable;
  files: FilesTable;
  favorites: FavoritesTable;
  history_events: HistoryEventsTable;
  recent_items: RecentItemsTable;
  integrations: IntegrationsTable;
  integration_keys: IntegrationKeysTable;
  integration_key_uses: IntegrationKeyUsesTable;
  sso_tokens: SsoTokensTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  folder_permissions: FolderPermissionsTable;
  user_preferences: UserPreferencesTable;
  zip_requests: ZipRequestsTable;
}

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type FolderRow = Selectable<FoldersTable>;
export type FileRow = Selectable<FilesTable>;
export type NewFile = Insertable<FilesTable>;
export type FileUpdate = Updateable<FilesTable>;
export type HistoryRow = Selectable<HistoryEventsTable>;
export type DatabaseRow = Selectable<DatabasesTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type IntegrationKeyRow = Selectable<IntegrationKeysTable>;
export type SsoTokenRow = Selectable<SsoTokensTable>;
export type TeamRow = Selectable<TeamsTable>;
export type FolderPermissionRow = Selectable<FolderPermissionsTable>;
// Generated is re-exported for future auto-increment columns.
export type { Generated };
