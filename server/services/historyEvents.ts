/**
 * One typed recording function per event of the spec (SPEC sections 3 and 4).
 * Services call them inside the transaction that makes the change; each builds the attribute
 * shape that common/history.ts renders, picks the event's entity and item (the folder or file
 * whose per-item history shows it), and answers the new event's id.
 *
 * Shapes (every event also stores who, when and where, see recordEvent):
 * - folder/file create, update, archive, restore, delete: { name, parent, next? }; a file's create
 *   adds replay: { version } (its version 1)
 * - colour (update): { name, parent, replay: { color: { user_id, color } } } (color null: default)
 * - rename: { name: next, prev: { name }, next: { name }, parent }
 * - move: { name, changes: { prevParent, nextParent }, parent: nextParent }
 * - folder copy: { name, copy: { id, name }, changes: { prevParent, nextParent }, parent,
 *   replay: { copies: [[sourceId, copyId], ...] } } (every folder and file copied)
 * - favourites (update): { name, changes: { favorites: [{ user_id, enabled }] } }
 * - download / preview / print: { name, folder_name | file_name, download: { preview, print } }
 * - folder_contact create/delete: { contact_name, changes: { folder: { id, name } }, folder_id,
 *   folder_name }
 * - folder_permission create_many/delete/delete_many: { permissions: [{ permissionable_id,
 *   permissionable_type, name? }], folder_name?, folder_id?, user_id?, folders: [{ id, name }] }
 * - share_link / external_share create/delete: { email, folder | file: { id, name }, folder_id?,
 *   folder_name? | file_name? }
 * - applied_index create_many: { index_values: [{ name, value }], entity_id, file_name |
 *   folder_name, replay: { applied: [{ id, index_field_id }] } (parallel to index_values) }; update/restore/archive/delete: { name, value, index_values, entity_id,
 *   file_name | folder_name, previous_value? (update) }
 * - user login/logout: { name }; user download: { download, folders?, file_name?, export? }
 * - file add_version / restore_version / delete_version: { name, file_name, parent, version:
 *   { number, size, sha256, content_type, restored_from? (restore) } }; a download or preview of
 *   an older version adds version: { number } to the read's shape
 */
import type { FavoriteEntry } from '@common/entities';
import type {
  HistoryAction,
  HistoryAttributes,
  HistoryEntityType,
  HistoryExportAttributes,
  HistoryVersionAttributes,
} from '@common/history';
import type { ReplayFacts, ReplayVersion } from '@common/replay';
import type { Role } from '@common/session';
import type { Executor } from '../repositories/types';
import type { RequestContext, Services } from './context';
import { recordEvent, type NewEvent } from './history';

/** What every recording function needs besides its own arguments. */
export type RecordServices = Pick<Services, 'clock' | 'dialect'>;

/** A folder or file as events name it. */
export interface ItemRef {
  id: string;
  name: string;
}

/** A folder or file, typed. */
export interface TypedItemRef extends ItemRef {
  type: 'folder' | 'file';
}

/** A parent folder; the root is `{ id: '', name: 'Root' }`. */
export type ParentRef = ItemRef;

/** Someone (or some group) given or refused access to folders. */
export interface PermissionableRef {
  permissionable_id: string;
  permissionable_type: string;
  /** Display name at the time, when known (the renderer shows it). */
  name?: string;
}

/** One applied index value. */
export interface IndexValue {
  name: string;
  value: string;
}

/** One applied index value as applied: its row's id and its field's id beside name and value. */
export interface AppliedIndexValue extends IndexValue {
  id: string;
  index_field_id: string;
}

function record(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  entityType: HistoryEntityType,
  entityId: string,
  action: HistoryAction,
  itemId: string | null,
  attributes: HistoryAttributes,
): Promise<string> {
  return recordEvent(trx, services, ctx, { entityType, entityId, action, itemId, attributes });
}

/** Name fields of an item: `file_name` for files, `folder_name` for folders. */
function nameField(item: TypedItemRef): Pick<HistoryAttributes, 'file_name' | 'folder_name'> {
  return item.type === 'file' ? { file_name: item.name } : { folder_name: item.name };
}

/**
 * folder/file create ("added"); `version` is a file's version 1 (size in bytes, sha256 when
 * known), kept for replay (common/replay.ts).
 */
export function recordItemCreated(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  item: TypedItemRef,
  parent: ParentRef,
  version?: ReplayVersion,
): Promise<string> {
  return record(trx, services, ctx, item.type, item.id, 'create', item.id, {
    name: item.name,
    next: { name: item.name },
    parent: { id: parent.id, name: parent.name },
    ...nameField(item),
    ...(version ? { replay: { version } } : {}),
  });
}

/**
 * The event of a user's colour change of a folder (an update with replay.color; `color` null is
 * back to the default), for bulk colour changes (recordEvents).
 */
export function folderColorEvent(
  folder: ItemRef,
  parent: ParentRef,
  userId: string,
  color: string | null,
): NewEvent {
  const facts: ReplayFacts = { color: { user_id: userId, color } };
  return {
    entityType: 'folder',
    entityId: folder.id,
    action: 'update',
    itemId: folder.id,
    attributes: {
      name: folder.name,
      parent: { id: parent.id, name: parent.name },
      folder_name: folder.name,
      replay: facts,
    },
  };
}

/** folder/file update other than a rename, move or favourite (e.g. a colour). */
export function recordItemUpdated(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  item: TypedItemRef,
  parent: ParentRef,
): Promise<string> {
  return record(trx, services, ctx, item.type, item.id, 'update', item.id, {
    name: item.name,
    parent: { id: parent.id, name: parent.name },
  });
}

/**
 * The event of a folder/file rename (prev.name → next.name), for {@link recordItemRenamed} and
 * for calls that record several events at once (recordEvents).
 */
export function itemRenamedEvent(
  item: { type: 'folder' | 'file'; id: string },
  names: { prev: string; next: string },
  parent: ParentRef,
): NewEvent {
  return {
    entityType: item.type,
    entityId: item.id,
    action: 'rename',
    itemId: item.id,
    attributes: {
      name: names.next,
      prev: { name: names.prev },
      next: { name: names.next },
      parent: { id: parent.id, name: parent.name },
    },
  };
}

/** folder/file rename: prev.name → next.name. */
export function recordItemRenamed(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  item: { type: 'folder' | 'file'; id: string },
  names: { prev: string; next: string },
  parent: ParentRef,
): Promise<string> {
  return recordEvent(trx, services, ctx, itemRenamedEvent(item, names, parent));
}

/**
 * The event of a folder/file move (changes.prevParent → changes.nextParent), for
 * {@link recordItemMoved} and for bulk moves (recordEvents).
 */
export function itemMovedEvent(
  item: TypedItemRef,
  prevParent: ParentRef,
  nextParent: ParentRef,
): NewEvent {
  return {
    entityType: item.type,
    entityId: item.id,
    action: 'move',
    itemId: item.id,
    attributes: {
      name: item.name,
      changes: {
        prevParent: { id: prevParent.id, name: prevParent.name },
        nextParent: { id: nextParent.id, name: nextParent.name },
      },
      parent: { id: nextParent.id, name: nextParent.name },
    },
  };
}

/** folder/file move: changes.prevParent → changes.nextParent. */
export function recordItemMoved(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  item: TypedItemRef,
  prevParent: ParentRef,
  nextParent: ParentRef,
): Promise<string> {
  return recordEvent(trx, services, ctx, itemMovedEvent(item, prevParent, nextParent));
}

/**
 * The event of an archive, restore or permanent delete of a folder or file ({ name, parent,
 * file_name | folder_name }), for the record functions below and for bulk calls (recordEvents).
 */
export function itemStateEvent(
  action: 'archive' | 'restore' | 'delete',
  item: TypedItemRef,
  parent: ParentRef,
): NewEvent {
  return {
    entityType: item.type,
    entityId: item.id,
    action,
    itemId: item.id,
    attributes: {
      name: item.name,
      parent: { id: parent.id, name: parent.name },
      ...nameField(item),
    },
  };
}

/** Archive, restore or permanent delete of a folder or file. */
function recordItemState(
  action: 'archive' | 'restore' | 'delete',
): (
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  item: TypedItemRef,
  parent: ParentRef,
) => Promise<string> {
  return (trx, services, ctx, item, parent) =>
    recordEvent(trx, services, ctx, itemStateEvent(action, item, parent));
}

/** folder/file archive ("archived"). */
export const recordItemArchived = recordItemState('archive');
/** folder/file restore ("restored"). */
export const recordItemRestored = recordItemState('restore');
/** folder/file permanent delete ("deleted permanently"). */
export const recordItemDeleted = recordItemState('delete');

/** How an item was read. A file preview is its own action; print is a download with print. */
export type ReadKind = 'download' | 'preview' | 'print';

/**
 * The event of a folder/file download, file preview or print (download.preview / download.print),
 * for {@link recordItemRead} and for calls that record several at once (a zip of a selection).
 * A folder cannot be previewed: `preview` on a folder is a download with download.preview.
 */
export function itemReadEvent(
  item: TypedItemRef,
  kind: ReadKind,
  parent?: ParentRef,
  version?: number,
): NewEvent {
  const action: HistoryAction = kind === 'preview' && item.type === 'file' ? 'preview' : 'download';
  return {
    entityType: item.type,
    entityId: item.id,
    action,
    itemId: item.id,
    attributes: {
      name: item.name,
      ...nameField(item),
      ...(parent ? { parent: { id: parent.id, name: parent.name } } : {}),
      download: { preview: kind === 'preview', print: kind === 'print' },
      ...(version !== undefined ? { version: { number: version } } : {}),
    },
  };
}

/**
 * folder/file download, file preview and print (see {@link itemReadEvent}); `version` names the
 * version of a file read through its versions (none: the file's newest bytes).
 */
export function recordItemRead(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  item: TypedItemRef,
  kind: ReadKind,
  parent?: ParentRef,
  version?: number,
): Promise<string> {
  return recordEvent(trx, services, ctx, itemReadEvent(item, kind, parent, version));
}

/**
 * A file version event (file add_version, restore_version, delete_version): the file as its
 * other events name it, and the version concerned.
 */
export function recordVersionEvent(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  action: 'add_version' | 'restore_version' | 'delete_version',
  file: ItemRef,
  parent: ParentRef,
  version: HistoryVersionAttributes,
): Promise<string> {
  return record(trx, services, ctx, 'file', file.id, action, file.id, {
    name: file.name,
    file_name: file.name,
    parent: { id: parent.id, name: parent.name },
    version,
  });
}

/**
 * folder copy: the event is the source's; `copy` names the new folder; `copies` pairs every
 * copied folder and file with its copy ([sourceId, copyId], the top folder first), for replay.
 */
export function recordFolderCopied(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  source: ItemRef,
  copy: ItemRef,
  prevParent: ParentRef,
  nextParent: ParentRef,
  copies: [string, string][],
): Promise<string> {
  return record(trx, services, ctx, 'folder', source.id, 'copy', source.id, {
    name: source.name,
    copy: { id: copy.id, name: copy.name },
    changes: {
      prevParent: { id: prevParent.id, name: prevParent.name },
      nextParent: { id: nextParent.id, name: nextParent.name },
    },
    parent: { id: nextParent.id, name: nextParent.name },
    replay: { copies },
  });
}

/**
 * Favourite change of a folder or file (an update with changes.favorites; reads as favorited or
 * unfavorited from the acting user's entry).
 */
export function recordFavoriteChanged(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  item: TypedItemRef,
  favorites: FavoriteEntry[],
  parent?: ParentRef,
): Promise<string> {
  return record(trx, services, ctx, item.type, item.id, 'update', item.id, {
    name: item.name,
    ...(parent ? { parent: { id: parent.id, name: parent.name } } : {}),
    changes: { favorites: favorites.map((f) => ({ user_id: f.user_id, enabled: f.enabled })) },
  });
}

function contactEvent(action: 'create' | 'delete') {
  return (
    trx: Executor,
    services: RecordServices,
    ctx: RequestContext,
    link: { id: string },
    contactName: string,
    folder: ItemRef,
  ): Promise<string> =>
    record(trx, services, ctx, 'folder_contact', link.id, action, folder.id, {
      contact_name: contactName,
      changes: { folder: { id: folder.id, name: folder.name } },
      folder_id: folder.id,
      folder_name: folder.name,
    });
}

/** folder_contact create ("linked"): a CRM contact linked to a folder. */
export const recordContactLinked = contactEvent('create');
/** folder_contact delete ("unlinked"). */
export const recordContactUnlinked = contactEvent('delete');

/** folder_permission create_many ("permission added") on one folder for some permissionables. */
export function recordPermissionsAdded(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  folder: ItemRef,
  permissions: PermissionableRef[],
): Promise<string> {
  return record(trx, services, ctx, 'folder_permission', folder.id, 'create_many', folder.id, {
    permissions: permissions.map(permissionable),
    folder_id: folder.id,
    folder_name: folder.name,
    folders: [{ id: folder.id, name: folder.name }],
  });
}

/** folder_permission delete ("permission removed"): one permission by its id. */
export function recordPermissionRemoved(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  permission: { id: string },
  folder: ItemRef,
  who: PermissionableRef,
): Promise<string> {
  return record(trx, services, ctx, 'folder_permission', permission.id, 'delete', folder.id, {
    permissions: [permissionable(who)],
    folder_id: folder.id,
    folder_name: folder.name,
    folders: [{ id: folder.id, name: folder.name }],
    ...(who.permissionable_type === 'user' ? { user_id: who.permissionable_id } : {}),
  });
}

/**
 * folder_permission delete_many ("permission removed"): every permission of one folder
 * (`scope.folder`), or every permission of one user across folders (`scope.userId`).
 */
export function recordPermissionsRemovedMany(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  scope: { folder: ItemRef } | { userId: string; folders: ItemRef[] },
  permissions: PermissionableRef[],
): Promise<string> {
  if ('folder' in scope) {
    const { folder } = scope;
    return record(trx, services, ctx, 'folder_permission', folder.id, 'delete_many', folder.id, {
      permissions: permissions.map(permissionable),
      folder_id: folder.id,
      folder_name: folder.name,
      folders: [{ id: folder.id, name: folder.name }],
    });
  }
  const only = scope.folders.length === 1 ? scope.folders[0]! : null;
  return record(
    trx,
    services,
    ctx,
    'folder_permission',
    scope.userId,
    'delete_many',
    only?.id ?? null,
    {
      permissions: permissions.map(permissionable),
      user_id: scope.userId,
      folders: scope.folders.map((f) => ({ id: f.id, name: f.name })),
      ...(only ? { folder_id: only.id, folder_name: only.name } : {}),
    },
  );
}

function permissionable(p: PermissionableRef): PermissionableRef {
  return {
    permissionable_id: p.permissionable_id,
    permissionable_type: p.permissionable_type,
    ...(p.name ? { name: p.name } : {}),
  };
}

/** The item fields of a share event: folder|file { id, name } and folder_id/name or file_name. */
function sharedItem(item: TypedItemRef): HistoryAttributes {
  return item.type === 'folder'
    ? { folder: { id: item.id, name: item.name }, folder_id: item.id, folder_name: item.name }
    : { file: { id: item.id, name: item.name }, file_name: item.name };
}

function shareEvent(entityType: 'share_link' | 'external_share', action: 'create' | 'delete') {
  return (
    trx: Executor,
    services: RecordServices,
    ctx: RequestContext,
    share: { id: string },
    email: string,
    item: TypedItemRef,
  ): Promise<string> =>
    record(trx, services, ctx, entityType, share.id, action, item.id, {
      email,
      ...sharedItem(item),
    });
}

/** share_link create ("invite sent") to an e-mail address for a folder or file. */
export const recordInviteSent = shareEvent('share_link', 'create');
/**
 * share_link create ("Invite sent") for a link given a new copyable URL: no address, `reissued`.
 */
export function recordLinkReissued(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  link: { id: string },
  item: TypedItemRef,
): Promise<string> {
  return record(trx, services, ctx, 'share_link', link.id, 'create', item.id, {
    reissued: true,
    ...sharedItem(item),
  });
}
/** share_link delete ("invite cancelled"). */
export const recordInviteCancelled = shareEvent('share_link', 'delete');
/** external_share create ("invite accepted") by the guest with that address. */
export const recordInviteAccepted = shareEvent('external_share', 'create');
/** external_share delete ("access removed", label "Share removed"). */
export const recordShareRemoved = shareEvent('external_share', 'delete');

/**
 * applied_index create_many ("index applied"): values applied to one file or folder, with the
 * rows' ids for replay.
 */
export function recordIndexesApplied(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  item: TypedItemRef,
  values: AppliedIndexValue[],
): Promise<string> {
  return record(trx, services, ctx, 'applied_index', item.id, 'create_many', item.id, {
    index_values: values.map((v) => ({ name: v.name, value: v.value })),
    entity_id: item.id,
    ...nameField(item),
    replay: {
      applied: values.map((v) => ({ id: v.id, index_field_id: v.index_field_id })),
    },
  });
}

/** applied_index update ("index updated"): one applied value changed. */
export function recordIndexUpdated(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  appliedIndex: { id: string },
  item: TypedItemRef,
  value: IndexValue,
  previousValue: string,
): Promise<string> {
  return record(trx, services, ctx, 'applied_index', appliedIndex.id, 'update', item.id, {
    name: value.name,
    value: value.value,
    index_values: [{ name: value.name, value: value.value }],
    previous_value: previousValue,
    entity_id: item.id,
    ...nameField(item),
  });
}

function indexStateEvent(action: 'restore' | 'archive' | 'delete') {
  return (
    trx: Executor,
    services: RecordServices,
    ctx: RequestContext,
    appliedIndex: { id: string },
    item: TypedItemRef,
    value: IndexValue,
  ): Promise<string> =>
    record(trx, services, ctx, 'applied_index', appliedIndex.id, action, item.id, {
      name: value.name,
      value: value.value,
      index_values: [{ name: value.name, value: value.value }],
      entity_id: item.id,
      ...nameField(item),
    });
}

/** applied_index restore (label "Index Added"). */
export const recordIndexRestored = indexStateEvent('restore');
/** applied_index archive (label "Index Removed"). */
export const recordIndexArchived = indexStateEvent('archive');
/** applied_index delete ("removed permanently", label "Index Removed"). */
export const recordIndexDeleted = indexStateEvent('delete');

/** user login ("logged in"). */
export function recordUserLogin(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
): Promise<string> {
  return record(trx, services, ctx, 'user', ctx.userId, 'login', null, { name: ctx.userName });
}

/** user logout ("logged out"). */
export function recordUserLogout(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
): Promise<string> {
  return record(trx, services, ctx, 'user', ctx.userId, 'logout', null, { name: ctx.userName });
}

/**
 * user download: several folders or files at once (a zip), or an export of the activity history
 * (`what.export`).
 */
export function recordUserDownload(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  what: { folders?: ItemRef[]; file?: ItemRef; export?: HistoryExportAttributes },
): Promise<string> {
  const only = what.file ?? (what.folders?.length === 1 ? what.folders[0]! : null);
  return record(trx, services, ctx, 'user', ctx.userId, 'download', only?.id ?? null, {
    download: { preview: false, print: false },
    ...(what.folders ? { folders: what.folders.map((f) => ({ id: f.id, name: f.name })) } : {}),
    ...(what.file ? { file_name: what.file.name } : {}),
    ...(what.export ? { export: what.export } : {}),
  });
}

// ---- User administration and lockout ---------------------------------------------------
// Shapes (entity_type 'user', entity_id the user concerned; the acting user is the event's user):
// - create: { name, user_id, user_changes: { role: { next } } }
// - update: { name, user_id, user_changes: { fields } } (fields as the API names them; 'password'
//   for a password set, never its value); a role change: { name, user_id, user_changes: { role:
//   { prev, next } } }
// - disable / enable / unlock: { name, user_id }
// - lock: { name, user_id, failed_logins, locked_until } (the locked user is the acting user:
//   nobody else was signed in)

/** The user an administration event is about. */
export interface UserRef {
  id: string;
  /** Display name at the time ("First Last"). */
  name: string;
}

/** user create ("added user"): a new member of the firm with their role. */
export function recordUserCreated(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  user: UserRef,
  role: Role,
): Promise<string> {
  return record(trx, services, ctx, 'user', user.id, 'create', null, {
    name: user.name,
    user_id: user.id,
    user_changes: { role: { next: role } },
  });
}

/** user update ("updated user"): profile fields or the password changed by an administrator. */
export function recordUserUpdated(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  user: UserRef,
  fields: string[],
): Promise<string> {
  return record(trx, services, ctx, 'user', user.id, 'update', null, {
    name: user.name,
    user_id: user.id,
    user_changes: { fields: [...fields] },
  });
}

/** user update with a role change ("changed the role of user … from … to …"). */
export function recordUserRoleChanged(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  user: UserRef,
  prev: Role,
  next: Role,
): Promise<string> {
  return record(trx, services, ctx, 'user', user.id, 'update', null, {
    name: user.name,
    user_id: user.id,
    user_changes: { role: { prev, next } },
  });
}

function userStateEvent(action: 'disable' | 'enable' | 'unlock') {
  return (
    trx: Executor,
    services: RecordServices,
    ctx: RequestContext,
    user: UserRef,
  ): Promise<string> =>
    record(trx, services, ctx, 'user', user.id, action, null, {
      name: user.name,
      user_id: user.id,
    });
}

/** user disable ("disabled user"): the member can no longer sign in to the firm. */
export const recordUserDisabled = userStateEvent('disable');
/** user enable ("enabled user"). */
export const recordUserEnabled = userStateEvent('enable');
/** user unlock ("unlocked user"): an administrator ended a lock. */
export const recordUserUnlocked = userStateEvent('unlock');

/**
 * user lock ("was locked out"): the account was locked after `failedLogins` wrong passwords in a
 * row. `ctx` is the locked user's own (with the sign-in request's address), in one firm database.
 * @param lockedUntil ISO UTC end of the lock, or null until an administrator unlocks it
 */
export function recordUserLocked(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  failedLogins: number,
  lockedUntil: string | null,
): Promise<string> {
  return record(trx, services, ctx, 'user', ctx.userId, 'lock', null, {
    name: ctx.userName,
    user_id: ctx.userId,
    failed_logins: failedLogins,
    locked_until: lockedUntil,
  });
}

// ---- Firm provisioning (services/firms.ts) ------------------------------------------------------
// Recorded in the affected firm's own history (each firm has its own hash chain), by the operator
// (their session, or the command line's identity, services/firms.ts CLI_OPERATOR_NAME):
// - database create: { name, firm_changes: { description: { next } } }
// - database rename: { name: next, prev: { name }, next: { name } }
// - database update (description): { name, firm_changes: { description: { prev, next } } }
// - database disable / enable: { name }
// - user delete (removed from the firm): { name, user_id }; adding a member is user create and a
//   role change user update (above).

/** The firm database an event is about. */
export interface FirmRef {
  id: string;
  name: string;
}

/** database create ("created firm …"), in the new firm's history. */
export function recordFirmCreated(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  firm: FirmRef,
  description: string | null,
): Promise<string> {
  return record(trx, services, ctx, 'database', firm.id, 'create', null, {
    name: firm.name,
    firm_changes: { description: { next: description } },
  });
}

/** database rename ("renamed firm … to …"). */
export function recordFirmRenamed(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  firm: FirmRef,
  prevName: string,
): Promise<string> {
  return record(trx, services, ctx, 'database', firm.id, 'rename', null, {
    name: firm.name,
    prev: { name: prevName },
    next: { name: firm.name },
  });
}

/** database update: the firm's description changed (null: none). */
export function recordFirmDescribed(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  firm: FirmRef,
  prev: string | null,
  next: string | null,
): Promise<string> {
  return record(trx, services, ctx, 'database', firm.id, 'update', null, {
    name: firm.name,
    firm_changes: { description: { prev, next } },
  });
}

function firmStateEvent(action: 'disable' | 'enable') {
  return (
    trx: Executor,
    services: RecordServices,
    ctx: RequestContext,
    firm: FirmRef,
  ): Promise<string> =>
    record(trx, services, ctx, 'database', firm.id, action, null, { name: firm.name });
}

/** database disable ("disabled firm …"): nobody signs in to it; its sessions ended. */
export const recordFirmDisabled = firmStateEvent('disable');
/** database enable ("enabled firm …"). */
export const recordFirmEnabled = firmStateEvent('enable');

/** user delete ("removed user … from the firm"): the membership was deleted by an operator. */
export function recordUserRemoved(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  user: UserRef,
): Promise<string> {
  return record(trx, services, ctx, 'user', user.id, 'delete', null, {
    name: user.name,
    user_id: user.id,
  });
}
