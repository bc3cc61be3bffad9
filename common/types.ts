/**
 * The JSON shapes exchanged between the client and the server (DESIGN.md section 3: snake_case,
 * paged lists, error body). Field lists follow SPEC.md section 3. Timestamps are ISO 8601 strings
 * in UTC; sizes are bytes.
 */
import type { PreferencesDto } from './sort';
import type { FileCategory } from './files';
import type { ExaminerScopeDescription, ExportVersions } from './examinerExport';

/** Entity type values (SPEC section 3). */
export type EntityType =
  'file' | 'folder' | 'breadcrumb' | 'applied_index' | 'folder_contact' | 'contact' | 'index_field';

/** One user's favorite entry on a file or folder. */
export interface FavoriteEntry {
  user_id: string;
  enabled: boolean;
}

/** A folder as the API answers it. `parent_id` is '' for the root. */
export interface FolderDto {
  id: string;
  type: 'folder';
  name: string;
  parent_id: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  created_by_name: string;
  archived_at: string | null;
  /** Derived: true when the current user has an enabled favorite entry. */
  favorite: boolean;
  favorites: FavoriteEntry[];
  /** The current user's colour for this folder, or null. */
  color: string | null;
}

/** Upload state of a file row: pending until the object is verified, then ready. */
export type FileStatus = 'pending' | 'ready';

/** A file as the API answers it. */
export interface FileDto {
  id: string;
  type: 'file';
  /** Full display name including the extension, e.g. "Statement.pdf". */
  name: string;
  /** The part after the last dot, lowercased; '' when there is none. */
  extension: string;
  folder_id: string;
  size: number;
  content_type: string;
  status: FileStatus;
  /**
   * Hex sha256 of the stored bytes: known when the upload is recorded for files up to the multipart
   * threshold (and checked against the client's), computed in the background just after for larger
   * ones; null until then.
   */
  sha256: string | null;
  created_by: string;
  created_by_name: string;
  database_id: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  favorite: boolean;
  favorites: FavoriteEntry[];
  /**
   * A first-page thumbnail is stored (GET files/{id}/thumbnail answers it): document imaging
   * derived one from these bytes (docs/architecture.md "Document imaging").
   */
  thumbnail: boolean;
}

export type EntityDto = FolderDto | FileDto;

/** The root folder object (SPEC section 3). */
export interface RootFolderDto {
  id: '';
  name: 'Root';
  type: 'folder';
  favorite: false;
  created_at: string | null;
  updated_at: string | null;
}

/** Every paged list (DESIGN.md section 3). Pages are numbered from 1. */
export interface Page<T> {
  items: T[];
  page: number;
  page_size: number;
  total: number;
}

/** One breadcrumb, root first. */
export interface BreadcrumbDto {
  id: string;
  name: string;
  type: 'breadcrumb';
}

/** Error body of every non-2xx answer (DESIGN.md section 3). */
export interface ApiErrorBody {
  message: string;
  code: string;
}

/** A firm database the user belongs to. */
export interface DatabaseDto {
  id: string;
  name: string;
  description: string | null;
  role: Role;
}

/** Roles per firm database (defined by this product; the spec names none). */
export type Role = 'admin' | 'member' | 'read_only' | 'guest';

/** GET /api/auth/current-user. */
export interface CurrentUserDto {
  userId: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string | null;
  /** Single-sign-on flag (SPEC section 3); affects session length. */
  sso: boolean;
  databases: DatabaseDto[];
  currentDatabaseId: string;
  /** Idle session length in minutes (30, or 480 for partner SSO). */
  sessionMinutes: number;
  /**
   * The idle limit the server enforces, in seconds: sessionMinutes × 60, unless the test-only
   * SESSION_IDLE_SECONDS overrides it. The client's timers use this length.
   */
  sessionIdleSeconds: number;
  /**
   * Milliseconds left before the session ends for inactivity, as the server counts it at the time
   * of the answer (relative, so clock differences between browser and server do not matter).
   */
  sessionIdleRemainingMs: number;
  /**
   * The user's preferences (the folder view's remembered sort), so the first folder page is read
   * in the user's sort without another call. Absent from older servers: defaults apply.
   */
  preferences?: PreferencesDto;
  /**
   * The user may manage firms (firm provisioning: the operator's page under /admin/firms).
   * Absent from older servers: not an operator.
   */
  operator?: boolean;
}

/**
 * POST /api/auth/extend-session: the session's idle clock was reset (explicit Extend, or the
 * client's keep-alive while its user is active).
 */
export interface ExtendSessionResponse {
  /** When the session now ends unless extended again: now + idle limit, capped by its lifetime. */
  expires_at: string;
  /** Nominal idle length in minutes: 30, or 480 for partner single-sign-on users. */
  session_minutes: number;
  /** The idle limit the server enforces, in seconds (see CurrentUserDto.sessionIdleSeconds). */
  idle_seconds: number;
}

/** POST /api/rest/private/users/authenticate. */
export interface AuthenticateRequest {
  username: string;
  password: string;
}

/** POST /api/auth/switch-database. */
export interface SwitchDatabaseRequest {
  currentDatabaseId: string;
}

/** POST /api/rest/folders. */
export interface CreateFolderRequest {
  name: string;
  /** '' or absent for the root. */
  parent_id?: string;
}

/** GET /api/rest/folders/name_list?parent_id: the names in a folder (folders and files). */
export interface NameListDto {
  parent_id: string;
  names: string[];
}

/** POST /api/rest/files (create-upload). */
export interface CreateUploadRequest {
  folder_id: string;
  name: string;
  extension: string;
  content_type: string;
  /**
   * Declared size in bytes; the stored object must match it. Optional for a single upload (SPEC
   * section 3's payload has only the four fields above): the object may then have up to
   * 104857600 bytes and the file takes the stored object's size when recorded.
   */
  size?: number;
  /**
   * The client's id of the batch (one pick of files, kept across a reload). One batch holds one
   * file per name (case-insensitive) and folder: a second is refused with SPEC section 5's
   * duplicate message, unless it is the same client file (`client_key`) created again, which is
   * answered its earlier upload.
   */
  batch_id?: string;
  /** The client's own key of the file within its batch (the uploader's file id). */
  client_key?: string;
  /**
   * Upload the bytes as a new version of this file (its id) instead of a new file: the file must
   * be a live file of the same folder that the session may change, with the same extension; it
   * keeps its id, name, favorites, index values, shares and permissions (common/versions.ts).
   * Without it a name that exists gets the next free " (n)" (keep both).
   */
  version_of?: string;
}

/** Answer of create-upload: a presigned PUT address on the object store. */
export interface CreateUploadResponse {
  id: string;
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}

/**
 * Answer of create-upload (single or multipart) for a file of the batch created again whose bytes
 * need not be sent: `stored` (the bytes are stored: record the upload `id`) or `recorded` (it is
 * already the file `file`).
 */
export interface SettledUploadResponse {
  id: string;
  state: 'stored' | 'recorded';
  /** The recorded file (state `recorded`). */
  file?: FileDto;
}

/** POST /api/rest/files/record: makes a pending upload visible. */
export interface RecordUploadRequest {
  id: string;
  /**
   * Optional hex sha256 the client computed of the bytes it sent; the record is refused (and the
   * object deleted) when the stored object's checksum differs.
   */
  sha256?: string;
}

/**
 * POST /api/rest/files/multipart: starts a resumable multipart upload (same fields as
 * create-upload). The answer is the presigned S3-style create request and the storage key the
 * parts go to; `id` is both the pending upload's id and the multipart upload id.
 */
export type CreateMultipartUploadRequest = CreateUploadRequest & {
  /** Declared size in bytes (required: the parts are laid out from it). */
  size: number;
};

/** A presigned store request as the sign endpoints answer it. */
export interface PresignedRequestDto {
  url: string;
  method: 'PUT' | 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
}

/** One signed part of GET /api/rest/files/multipart/{uploadId}/parts. */
export interface PresignedPartDto extends PresignedRequestDto {
  part_number: number;
}

/** Answer of POST /api/rest/files/multipart. */
export interface CreateMultipartUploadResponse extends PresignedRequestDto {
  /** The pending upload's id, which is also the multipart upload id. */
  id: string;
  /** The server-generated object key every later step names. */
  key: string;
}

/** History entity types (SPEC section 3). */
export type HistoryEntityType =
  | 'folder'
  | 'folder_contact'
  | 'file'
  | 'user'
  | 'applied_index'
  | 'folder_permission'
  | 'share_link'
  | 'external_share'
  // Firm provisioning: the firm database itself (SPEC section 3 "Database"), changed by an operator.
  | 'database'
  // Records management: a retention schedule and a legal hold (common/retention.ts).
  | 'retention_schedule'
  | 'legal_hold';

/** History actions (SPEC section 4). */
export type HistoryAction =
  | 'create'
  | 'update'
  | 'rename'
  | 'move'
  | 'restore'
  | 'archive'
  | 'delete'
  | 'download'
  | 'copy'
  | 'preview'
  | 'create_many'
  | 'delete_many'
  | 'login'
  | 'logout'
  // User administration: an account locked after failed sign-ins, unlocked by an
  // administrator, disabled or enabled in a firm.
  | 'lock'
  | 'unlock'
  | 'disable'
  | 'enable'
  // Records management: a legal hold released; a file deleted at the end of its retention.
  | 'release'
  | 'dispose'
  // File versions: a new version uploaded, an older one restored as the newest (itself a new
  // version), an older one deleted by an administrator.
  | 'add_version'
  | 'restore_version'
  | 'delete_version';

/** Attributes of a history entry (SPEC section 3). Every field is optional. */
export interface HistoryAttributes {
  name?: string;
  value?: string;
  prev?: { name?: string };
  next?: { name?: string };
  changes?: {
    prevParent?: { id: string; name: string };
    nextParent?: { id: string; name: string };
    favorites?: FavoriteEntry[];
    folder?: { id?: string; name: string };
  };
  migrated?: { description?: string };
  /** The folder an item sits in, for context ("in Reports"). */
  parent?: { id: string; name: string };
  download?: { preview: boolean; print: boolean };
  contact_name?: string;
  permissions?: { permissionable_id: string; permissionable_type: string; name?: string }[];
  folder_name?: string;
  file_name?: string;
  folder_id?: string;
  user_id?: string;
  folders?: { id: string; name: string }[];
  index_values?: { name: string; value: string }[];
  email?: string;
  folder?: { id?: string; name: string };
  file?: { id?: string; name: string };
  /** The new folder of a copy (its source is the event's entity). */
  copy?: { id: string; name: string };
  /**
   * File versions: the version an event made, restored or deleted (`number`, its size in bytes,
   * sha256 and content type; `restored_from` for a restore), or the version a download or preview
   * read (`number` only).
   */
  version?: HistoryVersionAttributes;
  /** Applied-index events: the id of the file or folder they concern. */
  entity_id?: string;
  /** An applied-index update: the value before the change. */
  previous_value?: string;
  /** A user download that was an export of the activity history. */
  export?: HistoryExportAttributes;
  /**
   * User administration events: a role change (role.prev → role.next), the fields an
   * update changed (`fields`, names as the API spells them; `password` when only the password was
   * set, never its value), the role a new user was given (`role.next`).
   */
  user_changes?: { role?: { prev?: Role; next: Role }; fields?: string[] };
  /** A lock event: how many failed sign-ins in a row locked the account. */
  failed_logins?: number;
  /** A lock event: when the lock ends (ISO UTC), or null until an administrator unlocks it. */
  locked_until?: string | null;
  /** A share_link create that gave a link a new copyable URL (the one before stops working). */
  reissued?: boolean;
  /**
   * Firm provisioning: the firm's description when it was created (`description`), or a change of
   * it (`prev` → `next`; null is none).
   */
  firm_changes?: {
    description?: { prev?: string | null; next: string | null };
  };
  /** Retention schedule events: the schedule as it is after the event (before, for a delete). */
  schedule?: HistoryScheduleAttributes;
  /** A schedule update: the fields it changed, in words (prev → next). */
  schedule_changes?: Partial<
    Record<'name' | 'period' | 'basis' | 'selector', { prev: string; next: string }>
  >;
  /** Legal hold events: the hold as it is after the event. */
  hold?: { id: string; name: string; matter: string; reason: string };
  /** A hold update: the fields it changed (prev → next). */
  hold_changes?: Partial<Record<'name' | 'matter' | 'reason', { prev: string; next: string }>>;
  /** A hold placed: what it names. */
  targets?: HistoryTargetRef[];
  /** A schedule or hold update: a folder, file or contact added to what it names. */
  target_added?: HistoryTargetRef;
  /** A schedule or hold update: a folder, file or contact taken off what it names. */
  target_removed?: HistoryTargetRef;
  /** A file disposed of at the end of its retention: the proof of what was deleted. */
  disposition?: HistoryDispositionAttributes;
}

/** A folder, file or contact named by a retention schedule or a legal hold, in history. */
export interface HistoryTargetRef {
  type: 'folder' | 'file' | 'contact';
  id: string;
  name: string;
}

/** A retention schedule as history keeps it. */
export interface HistoryScheduleAttributes {
  id: string;
  name: string;
  /** The rule in words: "6 years from creation". */
  rule: string;
  /** The selector in words (`“Record type” is “Brokerage”`), or '' without one. */
  selector: string;
  locked: boolean;
}

/** The proof of a disposal: what was deleted, under which schedule, who approved it. */
export interface HistoryDispositionAttributes {
  /** Hex sha256 of the deleted bytes (null only if the store had lost them). */
  sha256: string | null;
  /** Bytes. */
  size: number;
  /** The path of the folder it was in: "Root / Clients". */
  path: string;
  /** The schedule whose end came last. */
  schedule: { id: string; name: string };
  /** The day its retention ended. */
  ended_on: string;
  /** The approving administrator's display name (also the event's user). */
  approved_by: string;
}

/** What an export records about itself (a user download event): of History, or an examiner's. */
export type HistoryExportAttributes = HistoryCsvExportAttributes | ExaminerExportAttributes;

/** What an examiner's export records about itself (common/examinerExport.ts). */
export interface ExaminerExportAttributes {
  kind: 'examiner';
  /** The zip's file name. */
  file_name: string;
  /** What it covers, as resolved when it was asked for. */
  scope: ExaminerScopeDescription;
  versions: ExportVersions;
}

/** The version a history event concerns (see HistoryAttributes.version). */
export interface HistoryVersionAttributes {
  number: number;
  size?: number;
  sha256?: string | null;
  content_type?: string;
  /** A restore: the number of the version it copies. */
  restored_from?: number;
}

/** What a history export records about itself (a user download event). */
export interface HistoryCsvExportAttributes {
  kind: 'history';
  /** The CSV file name offered to the browser. */
  file_name: string;
  /** The filters of the export, as sent (dates as ISO UTC). */
  filters: Omit<HistoryFilters, 'cursor'>;
}

/** One history entry as the API answers it. */
export interface HistoryEventDto {
  id: string;
  entity_type: HistoryEntityType;
  entity_id: string;
  action: HistoryAction;
  user_id: string;
  /** Display name of the user at the time of the event. */
  user_name: string;
  attributes: HistoryAttributes;
  created_at: string;
}

/**
 * POST /api/rest/history?page={n} body (and the export's): every field optional, all combined with
 * AND. `labels` select the (entity_type, action) pairs of the spec's activity-type labels
 * (common/history.ts HISTORY_FILTER_LABELS); `entity_type` and `actions` narrow the pairs further.
 */
export interface HistoryFilters {
  entity_type?: HistoryEntityType;
  entity_id?: string;
  /** A folder or file: its own events and those about it (contacts, permissions, shares, indexes). */
  item_id?: string;
  user_id?: string;
  actions?: HistoryAction[];
  /** Activity-type labels of SPEC section 9. */
  labels?: string[];
  /** Inclusive start, ISO 8601 UTC. */
  start?: string;
  /** Exclusive end, ISO 8601 UTC. */
  end?: string;
  /**
   * The `next_cursor` of the previous page: the next page starts right after it, so every event
   * is listed exactly once while new ones arrive. Without it, page n is read by offset.
   */
  cursor?: string;
}

/** A page of history events: the list shape plus keyset paging fields. */
export interface HistoryPageDto extends Page<HistoryEventDto> {
  /** False when `total` is a lower bound (more matching events than the count limit). */
  total_exact: boolean;
  /** Pass as `cursor` to read the next page; null on the last page. */
  next_cursor: string | null;
}

/** GET /api/rest/history/stats?start&end: counts per local day and per activity type. */
export interface HistoryStatsDto {
  start: string;
  end: string;
  /** IANA time zone the days are counted in. */
  time_zone: string;
  total: number;
  /** Every day of the range (YYYY-MM-DD), oldest first, zeros included. */
  days: { date: string; count: number }[];
  /**
   * The 21 activity-type labels in the spec's order, then 'Other' (updates and unknown pairs),
   * counted over every type whatever `labels` says.
   */
  types: { label: string; count: number }[];
  /** The activity types `days` and `total` are limited to ([]: every type). */
  labels: string[];
}

/** A user who can be picked in the history's user filter. */
export interface HistoryUserDto {
  id: string;
  name: string;
}

/** GET /api/rest/history/verify and `npm run history:verify`: the hash chain of one firm. */
export interface HistoryVerifyDto {
  database_id: string;
  ok: boolean;
  /** Events checked (the whole chain when ok, up to the broken link otherwise). */
  checked: number;
  /** The last link: keep its hash elsewhere to detect a truncated tail later. */
  head: { seq: number; id: string; hash: string } | null;
  /** The first broken link, or null. */
  broken: { seq: number; id: string | null; reason: string } | null;
}

// ---------------------------------------------------------------------------------------------
// Organising (SPEC sections 2-5, 7 and 9). Every request is validated again by the server.
// ---------------------------------------------------------------------------------------------

/** A file or folder named by the client (bulk bodies, DESIGN.md section 3). */
export interface EntityRef {
  id: string;
  type: 'file' | 'folder';
}

/**
 * PATCH /api/rest/folders/{id} and PATCH /api/rest/files/{id}: rename and/or move one item.
 * For a file the extension is kept: a new name that does not end in the file's extension gets it
 * appended ("Jan" → "Jan.pdf"). The unique-name rule applies in the target folder.
 */
export interface UpdateEntityRequest {
  name?: string;
  /** New parent folder ('' for the root): moves the item, as POST bulk/move does for one. */
  parent_id?: string;
}

/** POST /api/rest/folders/{id}/copy: copies the folder tree into `parent_id` (default: same parent). */
export interface CopyFolderRequest {
  parent_id?: string;
}

/** PATCH /api/rest/{folders|files}/{id}/favorite. */
export interface FavoriteRequest {
  enabled: boolean;
}

/** PATCH /api/rest/colors: the current user's colour of one folder; 'default' clears it. */
export interface ColorRequest {
  folder_id: string;
  /** A key of FOLDER_COLORS (common/constants.ts). */
  color: FolderColorKey;
}

/** Keys of the folder colour palette (SPEC section 9), see FOLDER_COLORS. */
export type FolderColorKey =
  | 'default'
  | 'grey'
  | 'dark_red'
  | 'light_red'
  | 'dark_orange'
  | 'light_orange'
  | 'dark_yellow'
  | 'light_yellow'
  | 'dark_green'
  | 'light_green'
  | 'dark_blue'
  | 'light_blue'
  | 'dark_purple'
  | 'light_purple'
  | 'dark_pink'
  | 'light_pink';

/** POST /api/rest/bulk/archive, /restore and /destroy: at most BULK_MAX_ITEMS items. */
export interface BulkRequest {
  items: EntityRef[];
}

/** POST /api/rest/bulk/move. */
export interface BulkMoveRequest extends BulkRequest {
  /** Target folder, '' for the root. */
  folder_id: string;
}

/** POST /api/rest/bulk/color (folders only; files in `items` are refused with 400). */
export interface BulkColorRequest extends BulkRequest {
  color: FolderColorKey;
}

/**
 * What a bulk call did to one item, with what its undo needs: the parent it was moved from, the
 * colour it had, whether a restore had to put it in the root.
 */
export interface BulkItemResult extends EntityRef {
  name: string;
  /** bulk/move: the parent before the move ('' for the root). */
  prev_parent_id?: string;
  /** bulk/color: the user's colour before the change. */
  prev_color?: FolderColorKey;
  /** bulk/restore and restore: the parent was archived or gone, so the item went to the root. */
  restored_to_root?: boolean;
}

/** Answer of every bulk call (and of single archive/restore, with one item). */
export interface BulkResultDto {
  /** Items changed (an item already in the wanted state is answered unchanged and counted). */
  count: number;
  items: BulkItemResult[];
}

/** Answer of POST /api/rest/{folders|files}/{id}/restore. */
export interface RestoreResultDto {
  item: EntityDto;
  /** True when the item's parent was archived or gone, so it was restored to the root. */
  restored_to_root: boolean;
}

/**
 * A paged list with keyset paging: pass `next_cursor` back as `cursor` to read the next page at
 * the cost of the first, whatever its depth; without a cursor page n is read by offset.
 */
export interface CursorPage<T> extends Page<T> {
  next_cursor: string | null;
}

/** An archived item on the Archive page: the item plus the folder it was archived from. */
export type ArchivedEntityDto = EntityDto & {
  /** The path of the parent it was archived from ('' for the root), for display. */
  parent_path: string;
};

/** An item of the Recent page: the item and the user's last action on it. */
export type RecentEntityDto = EntityDto & {
  /** When the current user last created, opened or changed it (ISO UTC). */
  recent_at: string;
  /** The history action of that last touch (create, rename, move, preview, download…). */
  recent_action: HistoryAction;
};

/** POST /api/rest/entities/archived?page&skip body (archivePaging flag). */
export interface ArchivedPageRequest {
  /** Keyset cursor from the previous page's `next_cursor`. */
  cursor?: string;
  page_size?: number;
}

/** One category's count and bytes (categories of SPEC section 3, common/files.ts). */
export interface TypeStatDto {
  category: FileCategory;
  count: number;
  /** Bytes. */
  size: number;
}

/** GET /api/rest/folders/{id}/stats: the live tree under a folder (recursive). */
export interface FolderStatsDto {
  folder_id: string;
  folders: number;
  files: number;
  /** Bytes of all live files in the tree. */
  size: number;
  by_type: TypeStatDto[];
}

/** GET /api/rest/files/stats: the whole firm database's live files. */
export interface FileStatsDto {
  files: number;
  folders: number;
  /** Bytes. */
  size: number;
  archived_files: number;
}

/**
 * A member of a firm database as the admin area shows it (GET /api/rest/private/users and the
 * answers of the other private/users calls). `userId`, `firstName` and `lastName` are the spec's
 * User fields (SPEC section 3); the rest are this product's, in snake_case.
 */
export interface DatabaseUserDto {
  /** The user's id (same as userId). */
  id: string;
  userId: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string | null;
  /** The user's role in the session's firm database. */
  role: Role;
  /** Single-sign-on flag (SPEC section 3). */
  sso: boolean;
  /** Disabled in this firm (cannot sign in to it; sessions in it were ended). */
  disabled: boolean;
  disabled_at: string | null;
  /** Locked after too many wrong passwords, now. */
  locked: boolean;
  /** When the lock was set (ISO UTC), or null when not locked. */
  locked_at: string | null;
  /** When the lock ends by itself (ISO UTC); null while locked means until an administrator unlocks. */
  locked_until: string | null;
  /** Wrong passwords in a row since the last successful sign-in or unlock. */
  failed_logins: number;
  created_at: string;
  updated_at: string;
}

/** POST /api/rest/private/users: a new member of the session's firm database. */
export interface CreateUserRequest {
  username: string;
  firstName: string;
  lastName: string;
  email?: string | null;
  password: string;
  /** Default 'member'. */
  role?: Role;
}

/** PATCH /api/rest/private/users/{id}: any of the fields; absent fields are kept. */
export interface UpdateUserRequest {
  username?: string;
  firstName?: string;
  lastName?: string;
  email?: string | null;
}

/** PATCH /api/rest/private/users/role/{id}. */
export interface UpdateUserRoleRequest {
  role: Role;
}

/** PATCH /api/rest/private/users/{id}/update_password. */
export interface UpdatePasswordRequest {
  password: string;
}

/** GET /api/rest/private/users/{id}/teams: one team the user belongs to. */
export interface UserTeamDto {
  id: string;
  name: string;
}

/** What a folder permission names: a user or a team of the firm (SPEC section 1 "Permissionable"). */
export type PermissionableType = 'user' | 'team';

/** GET /api/rest/private/permissionables: one user or team of the session's firm. */
export interface PermissionableDto {
  permissionable_id: string;
  permissionable_type: PermissionableType;
  name: string;
}

/** A folder permission: one user or team allowed on a restricted folder (SPEC section 7). */
export interface FolderPermissionDto {
  id: string;
  folder_id: string;
  permissionable_id: string;
  permissionable_type: PermissionableType;
  /** The user's display name or the team's name. */
  name: string;
  created_at: string;
}

/** POST /api/rest/folder_permissions (create_many): allow these users/teams on one folder. */
export interface CreateFolderPermissionsRequest {
  folder_id: string;
  permissionables: { permissionable_id: string; permissionable_type: PermissionableType }[];
}

/** A team of the firm (GET/POST/PATCH /api/rest/private/teams). */
export interface TeamDto {
  id: string;
  name: string;
  /** The members' user ids. */
  member_ids: string[];
  created_at: string;
  updated_at: string;
}
