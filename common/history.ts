/**
 * The activity history in words: the one pure module that turns a history event into a one-line
 * summary, a detail line, an icon and a filter label (SPEC.md sections 3, 4 and 9), plus the
 * filter presets of the history screen (activity-type labels and date presets).
 *
 * What the renderer reads from `attributes` (servers writing events should fill these):
 * - folder / file: the item name from `next.name`, else `prev.name`, else `name`, else
 *   `folder_name` / `file_name`; `prev.name` and `next.name` for a rename; `parent.name` for the
 *   folder the item sits in; `changes.prevParent` and `changes.nextParent` for move and copy;
 *   `changes.favorites` for a favourite change (an `update`); `download.preview` and
 *   `download.print` for a download.
 * - folder_contact: `contact_name` and `changes.folder.name` (else `folder_name`).
 * - folder_permission: `permissions` (each may carry a `name` besides permissionable_id and
 *   permissionable_type), `folder_name`, else the `folders` list.
 * - share_link / external_share: `email`, and `folder.name` or `file.name` (else `folder_name` or
 *   `file_name`).
 * - applied_index: `index_values` (name and value), else `name` and `value`; the tagged item from
 *   `file_name` / `file.name`, else `folder_name` / `folder.name`.
 * - user: nothing for login and logout; a download may name `file_name`, `folder_name` or
 *   `folders`; a download with `export.kind` 'history' is an export of the activity history
 *   (`export.file_name` is its context). Administration events name the user concerned
 *   in `name` and read `user_changes.role` (prev, next) and `user_changes.fields` for create and
 *   update, `failed_logins` for lock; a removal from the firm (delete) names the user in `name`.
 * - database (firm provisioning): the firm's name in `name`, `prev.name` for a rename,
 *   `firm_changes.description` (prev, next) for a description set at creation or changed.
 * - file versions (add_version, restore_version, delete_version): the file as above and
 *   `version.number` (`version.restored_from` for a restore); a download or preview of an older
 *   version also names `version.number`.
 * - any event: `migrated.description`, when present, replaces the generated summary (legacy
 *   entries).
 * Every field is optional: a missing one falls back to words such as "a folder" or "an item", and
 * a value of the wrong type is treated as missing, so rendering never throws.
 *
 * The detail line is the event's context followed by its date, joined by " · ": `in "Clients"`
 * (the parent folder) for most folder and file events, `from "A" to "B"` for a move or copy, the
 * guest's address for an accepted invite, the folder names of a permission change spanning
 * several folders; then the date as given by `relativeDate` ("Just Now", "2 days ago", or the
 * absolute date).
 */
import dayjs from 'dayjs';
import { FOLDER_COLORS, ROOT_FOLDER_NAME } from './constants';
import { relativeDate } from './format';
import { describeDisposal, describeRecordsEvent } from './historyRecords';
import { describeRequestsEvent } from './historyRequests';
import { field, str } from './historyWords';
import { plural, splitCamelCase } from './text';
import type { Page } from './api';
import type { FavoriteEntry } from './entities';
import type { ReplayFacts } from './replay';
import type { ExaminerScopeDescription, ExportVersions } from './examinerExport';
import type { Role } from './session';

/** Icon of a history entry; the client maps each to a glyph. */
export type HistoryIcon =
  | 'add'
  | 'edit'
  | 'move'
  | 'copy'
  | 'archive'
  | 'restore'
  | 'delete'
  | 'download'
  | 'preview'
  | 'print'
  | 'star'
  | 'unstar'
  | 'link'
  | 'unlink'
  | 'permission'
  | 'share'
  | 'index'
  | 'login'
  | 'logout'
  | 'info';

/** One (entity_type, action) pair of the history log. */
export interface HistoryEventPair {
  entity_type: HistoryEntityType;
  action: HistoryAction;
}

/**
 * Every (entity_type, action) pair the product records (SPEC section 4), 69 in all: the spec's 35,
 * six user administration events (create, update, disable, enable, lock, unlock),
 * six of firm provisioning (user delete: removed from the firm; database create, rename, update
 * of the description, disable, enable), eight of records management (retention_schedule
 * create, update, lock, delete; legal_hold create, update, release; file dispose, the proof of a
 * disposal), three of file versions (a new version uploaded, an older one restored as the
 * newest, an older one deleted), eight of document requests (sent, a recipient's upload, an item
 * accepted or rejected, a reminder, cancelled, expired, completed) and three of request templates
 * (create, update, delete). Copy applies to folders only and preview to files only.
 */
export const HISTORY_EVENT_PAIRS: readonly HistoryEventPair[] = [
  ...(['folder', 'file'] as const).flatMap((entity_type) =>
    (
      [
        'create',
        'update',
        'rename',
        'move',
        'restore',
        'archive',
        'delete',
        'download',
        entity_type === 'folder' ? 'copy' : 'preview',
      ] as const
    ).map((action) => ({ entity_type, action })),
  ),
  { entity_type: 'folder_contact', action: 'create' },
  { entity_type: 'folder_contact', action: 'delete' },
  { entity_type: 'folder_permission', action: 'create_many' },
  { entity_type: 'folder_permission', action: 'delete' },
  { entity_type: 'folder_permission', action: 'delete_many' },
  { entity_type: 'share_link', action: 'create' },
  { entity_type: 'share_link', action: 'delete' },
  { entity_type: 'external_share', action: 'create' },
  { entity_type: 'external_share', action: 'delete' },
  { entity_type: 'applied_index', action: 'create_many' },
  { entity_type: 'applied_index', action: 'update' },
  { entity_type: 'applied_index', action: 'restore' },
  { entity_type: 'applied_index', action: 'archive' },
  { entity_type: 'applied_index', action: 'delete' },
  { entity_type: 'user', action: 'login' },
  { entity_type: 'user', action: 'logout' },
  { entity_type: 'user', action: 'download' },
  // User administration and lockout; no activity-type label of the spec selects them.
  { entity_type: 'user', action: 'create' },
  { entity_type: 'user', action: 'update' },
  { entity_type: 'user', action: 'disable' },
  { entity_type: 'user', action: 'enable' },
  { entity_type: 'user', action: 'lock' },
  { entity_type: 'user', action: 'unlock' },
  // Firm provisioning: an operator removed a member, or changed the firm itself.
  { entity_type: 'user', action: 'delete' },
  { entity_type: 'database', action: 'create' },
  { entity_type: 'database', action: 'rename' },
  { entity_type: 'database', action: 'update' },
  { entity_type: 'database', action: 'disable' },
  { entity_type: 'database', action: 'enable' },
  // Records management (common/historyRecords.ts).
  { entity_type: 'retention_schedule', action: 'create' },
  { entity_type: 'retention_schedule', action: 'update' },
  { entity_type: 'retention_schedule', action: 'lock' },
  { entity_type: 'retention_schedule', action: 'delete' },
  { entity_type: 'legal_hold', action: 'create' },
  { entity_type: 'legal_hold', action: 'update' },
  { entity_type: 'legal_hold', action: 'release' },
  { entity_type: 'file', action: 'dispose' },
  // File versions.
  { entity_type: 'file', action: 'add_version' },
  { entity_type: 'file', action: 'restore_version' },
  { entity_type: 'file', action: 'delete_version' },
  // Document requests.
  ...(
    ['create', 'upload', 'accept', 'reject', 'remind', 'cancel', 'expire', 'complete'] as const
  ).map((action) => ({ entity_type: 'document_request' as const, action })),
  { entity_type: 'request_template', action: 'create' },
  { entity_type: 'request_template', action: 'update' },
  { entity_type: 'request_template', action: 'delete' },
];

/**
 * The activity-type filter of the history screen (SPEC section 9), the 21 labels in the spec's
 * order, then the seven of records management (Schedule added, Schedule changed — an update or
 * a lock —, Schedule removed, Hold placed, Hold changed, Hold released, Disposed), the two of
 * file versions ('New version': a version uploaded or restored as the newest; 'Version deleted')
 * and the six of document requests (Request sent, Document received, Document accepted, Document
 * rejected, Reminder sent, Request closed — completed, cancelled or expired), each with the (entity_type, action) pairs it selects. Decisions where the spec is silent:
 * - applied_index archive reads as 'Index Removed' and restore as 'Index Added' (the value leaves
 *   or returns to the item), so 'Archived' and 'Restored' cover folders and files only;
 * - 'Downloaded' also covers file previews and prints (they are download events) and user
 *   downloads;
 * - folder and file `update` (favourite and other changes) have no label: they show only when no
 *   activity type is selected; nor have the user administration events (create, update, disable,
 *   enable, lock, unlock), the firm provisioning events (user delete, database) and the request
 *   template events.
 */
export const HISTORY_FILTER_LABELS = [
  {
    label: 'Added',
    events: [
      { entity_type: 'folder', action: 'create' },
      { entity_type: 'file', action: 'create' },
    ],
  },
  {
    label: 'Archived',
    events: [
      { entity_type: 'folder', action: 'archive' },
      { entity_type: 'file', action: 'archive' },
    ],
  },
  {
    label: 'Restored',
    events: [
      { entity_type: 'folder', action: 'restore' },
      { entity_type: 'file', action: 'restore' },
    ],
  },
  {
    label: 'Renamed',
    events: [
      { entity_type: 'folder', action: 'rename' },
      { entity_type: 'file', action: 'rename' },
    ],
  },
  {
    label: 'Deleted',
    events: [
      { entity_type: 'folder', action: 'delete' },
      { entity_type: 'file', action: 'delete' },
    ],
  },
  {
    label: 'Moved',
    events: [
      { entity_type: 'folder', action: 'move' },
      { entity_type: 'file', action: 'move' },
    ],
  },
  { label: 'Copied', events: [{ entity_type: 'folder', action: 'copy' }] },
  {
    label: 'Permission added',
    events: [{ entity_type: 'folder_permission', action: 'create_many' }],
  },
  {
    label: 'Permission removed',
    events: [
      { entity_type: 'folder_permission', action: 'delete' },
      { entity_type: 'folder_permission', action: 'delete_many' },
    ],
  },
  { label: 'Invite sent', events: [{ entity_type: 'share_link', action: 'create' }] },
  { label: 'Invite accepted', events: [{ entity_type: 'external_share', action: 'create' }] },
  { label: 'Invite cancelled', events: [{ entity_type: 'share_link', action: 'delete' }] },
  { label: 'Share removed', events: [{ entity_type: 'external_share', action: 'delete' }] },
  {
    label: 'Downloaded',
    events: [
      { entity_type: 'folder', action: 'download' },
      { entity_type: 'file', action: 'download' },
      { entity_type: 'file', action: 'preview' },
      { entity_type: 'user', action: 'download' },
    ],
  },
  {
    label: 'Index Added',
    events: [
      { entity_type: 'applied_index', action: 'create_many' },
      { entity_type: 'applied_index', action: 'restore' },
    ],
  },
  {
    label: 'Index Removed',
    events: [
      { entity_type: 'applied_index', action: 'archive' },
      { entity_type: 'applied_index', action: 'delete' },
    ],
  },
  { label: 'Index Updated', events: [{ entity_type: 'applied_index', action: 'update' }] },
  { label: 'Linked', events: [{ entity_type: 'folder_contact', action: 'create' }] },
  { label: 'Unlinked', events: [{ entity_type: 'folder_contact', action: 'delete' }] },
  { label: 'Log in', events: [{ entity_type: 'user', action: 'login' }] },
  { label: 'Log out', events: [{ entity_type: 'user', action: 'logout' }] },
  { label: 'Schedule added', events: [{ entity_type: 'retention_schedule', action: 'create' }] },
  {
    label: 'Schedule changed',
    events: [
      { entity_type: 'retention_schedule', action: 'update' },
      { entity_type: 'retention_schedule', action: 'lock' },
    ],
  },
  { label: 'Schedule removed', events: [{ entity_type: 'retention_schedule', action: 'delete' }] },
  { label: 'Hold placed', events: [{ entity_type: 'legal_hold', action: 'create' }] },
  { label: 'Hold changed', events: [{ entity_type: 'legal_hold', action: 'update' }] },
  { label: 'Hold released', events: [{ entity_type: 'legal_hold', action: 'release' }] },
  { label: 'Disposed', events: [{ entity_type: 'file', action: 'dispose' }] },
  {
    label: 'New version',
    events: [
      { entity_type: 'file', action: 'add_version' },
      { entity_type: 'file', action: 'restore_version' },
    ],
  },
  { label: 'Version deleted', events: [{ entity_type: 'file', action: 'delete_version' }] },
  { label: 'Request sent', events: [{ entity_type: 'document_request', action: 'create' }] },
  { label: 'Document received', events: [{ entity_type: 'document_request', action: 'upload' }] },
  { label: 'Document accepted', events: [{ entity_type: 'document_request', action: 'accept' }] },
  { label: 'Document rejected', events: [{ entity_type: 'document_request', action: 'reject' }] },
  { label: 'Reminder sent', events: [{ entity_type: 'document_request', action: 'remind' }] },
  {
    label: 'Request closed',
    events: [
      { entity_type: 'document_request', action: 'complete' },
      { entity_type: 'document_request', action: 'cancel' },
      { entity_type: 'document_request', action: 'expire' },
    ],
  },
] as const satisfies readonly { label: string; events: readonly HistoryEventPair[] }[];

/** One activity-type label of the history filter (SPEC section 9). */
export type HistoryLabel = (typeof HISTORY_FILTER_LABELS)[number]['label'];

/** Map key of a pair. */
function pairKey(entityType: string, action: string): string {
  return `${entityType}:${action}`;
}

const LABEL_BY_PAIR = new Map<string, HistoryLabel>(
  HISTORY_FILTER_LABELS.flatMap(({ label, events }) =>
    events.map((pair) => [pairKey(pair.entity_type, pair.action), label] as const),
  ),
);

/**
 * The activity-type label of an event (see {@link HISTORY_FILTER_LABELS}).
 *
 * @param event any object with entity_type and action
 * @returns the label, or null for events no label selects (folder and file updates, unknown pairs)
 */
export function labelFor(event: { entity_type: string; action: string }): HistoryLabel | null {
  return LABEL_BY_PAIR.get(pairKey(event.entity_type, event.action)) ?? null;
}

/**
 * The (entity_type, action) pairs selected by some labels, for building a history query.
 *
 * @param labels the selected labels, any order; an empty list selects no pair
 * @returns the pairs of those labels, without duplicates, in label order
 */
export function eventsForLabels(labels: Iterable<HistoryLabel>): HistoryEventPair[] {
  const wanted = new Set<string>(labels);
  const seen = new Set<string>();
  const pairs: HistoryEventPair[] = [];
  for (const { label, events } of HISTORY_FILTER_LABELS) {
    if (!wanted.has(label)) continue;
    for (const pair of events) {
      const key = pairKey(pair.entity_type, pair.action);
      if (seen.has(key)) continue;
      seen.add(key);
      pairs.push({ entity_type: pair.entity_type, action: pair.action });
    }
  }
  return pairs;
}

/** A history event rendered for display. */
export interface RenderedHistoryEvent {
  /** One-line summary naming the user, e.g. `Ada Lovelace added folder "Reports"`. */
  summary: string;
  /** Context and date, e.g. `in "Clients" · 2 days ago`; may be '' when neither is known. */
  detail: string;
  icon: HistoryIcon;
  /** The filter label of the event, or null when no label selects it. */
  label: HistoryLabel | null;
}

/** What an event's own words say: the text after the user's name, context and icon. */
interface Description {
  text: string;
  context: string;
  icon: HistoryIcon;
}

/** The value when it is an array; [] otherwise. */
function list(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

/** `noun "name"`, or `a noun` / `an noun` when the name is unknown. */
function named(noun: string, name: string): string {
  if (name) return `${noun} "${name}"`;
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** The name of a parent folder: its name, or Root when the object exists with an empty name. */
function placeName(place: unknown): string {
  if (typeof place !== 'object' || place === null) return '';
  return str(field(place, 'name')) || ROOT_FOLDER_NAME;
}

/** The name of the folder or file an event is about. */
function itemName(attrs: HistoryAttributes, entityType: 'folder' | 'file'): string {
  return (
    str(field(attrs.next, 'name')) ||
    str(field(attrs.prev, 'name')) ||
    str(attrs.name) ||
    str(entityType === 'file' ? attrs.file_name : attrs.folder_name)
  );
}

/** The item a share, invite or index refers to: `folder "X"`, `file "Y"`, or ''. */
function sharedItem(attrs: HistoryAttributes, preferFile = false): string {
  const folder = str(field(attrs.folder, 'name')) || str(attrs.folder_name);
  const file = str(field(attrs.file, 'name')) || str(attrs.file_name);
  if (preferFile && file) return named('file', file);
  if (folder) return named('folder', folder);
  if (file) return named('file', file);
  return '';
}

/** `from "A" to "B"` (either part may be missing) for a move or copy. */
function moveContext(attrs: HistoryAttributes): string {
  const changes = attrs.changes;
  const from = placeName(field(changes, 'prevParent'));
  const to = placeName(field(changes, 'nextParent'));
  return [from && `from "${from}"`, to && `to "${to}"`].filter(Boolean).join(' ');
}

/** `in "Parent"` or ''. */
function parentContext(attrs: HistoryAttributes): string {
  const parent = placeName(attrs.parent);
  return parent ? `in "${parent}"` : '';
}

/** Verb and icon of a download: previewed, printed or downloaded (SPEC section 4). */
function downloadVerb(attrs: HistoryAttributes): { verb: string; icon: HistoryIcon } {
  if (field(attrs.download, 'preview') === true) return { verb: 'previewed', icon: 'preview' };
  if (field(attrs.download, 'print') === true) return { verb: 'printed', icon: 'print' };
  return { verb: 'downloaded', icon: 'download' };
}

/** A version number of an event's attributes (`version.number`, or `version.restored_from`). */
function versionNumber(attrs: HistoryAttributes, key: 'number' | 'restored_from'): number | null {
  const value = field(attrs.version, key);
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

/** `version 2 of file "a.pdf"`, or `a version of file "a.pdf"` without a number. */
function versionOf(number: number | null, item: string): string {
  return number === null ? `a version of ${item}` : `version ${number} of ${item}`;
}

/** File version events: a new version, a restore as the newest, a deletion. */
function describeVersion(
  event: HistoryEventDto,
  attrs: HistoryAttributes,
  item: string,
  inParent: string,
): Description {
  const number = versionNumber(attrs, 'number');
  switch (event.action) {
    case 'add_version':
      return {
        text:
          number === null
            ? `uploaded a new version of ${item}`
            : `uploaded ${versionOf(number, item)}`,
        context: inParent,
        icon: 'add',
      };
    case 'restore_version': {
      const from = versionNumber(attrs, 'restored_from');
      return {
        text: `restored ${versionOf(from, item)}${number === null ? '' : ` as version ${number}`}`,
        context: inParent,
        icon: 'restore',
      };
    }
    default:
      return {
        text: `deleted ${versionOf(number, item)} permanently`,
        context: inParent,
        icon: 'delete',
      };
  }
}

/** Folder and file events. */
function describeItem(event: HistoryEventDto, attrs: HistoryAttributes): Description {
  const entityType = event.entity_type === 'file' ? 'file' : 'folder';
  const plain = named(entityType, itemName(attrs, entityType));
  // A read of an older version names it.
  const readVersion = entityType === 'file' ? versionNumber(attrs, 'number') : null;
  const item =
    readVersion !== null && (event.action === 'download' || event.action === 'preview')
      ? versionOf(readVersion, plain)
      : plain;
  const inParent = parentContext(attrs);
  switch (event.action) {
    case 'add_version':
    case 'restore_version':
    case 'delete_version':
      return entityType === 'file'
        ? describeVersion(event, attrs, plain, inParent)
        : describeUnknown(event);
    case 'create':
      return { text: `added ${item}`, context: inParent, icon: 'add' };
    case 'update': {
      const favorites = field(attrs.changes, 'favorites');
      if (Array.isArray(favorites)) {
        const mine = list(favorites).find((entry) => field(entry, 'user_id') === event.user_id);
        const enabled = field(mine, 'enabled') === true;
        return enabled
          ? { text: `favorited ${item}`, context: inParent, icon: 'star' }
          : { text: `unfavorited ${item}`, context: inParent, icon: 'unstar' };
      }
      const color = field(field(attrs.replay, 'color'), 'color');
      if (color !== undefined) {
        const label = FOLDER_COLORS.find((c) => c.key === color)?.label;
        return {
          text: `changed the colour of ${item} to ${label && color !== null ? label : 'the default'}`,
          context: inParent,
          icon: 'edit',
        };
      }
      return { text: `updated ${item}`, context: inParent, icon: 'edit' };
    }
    case 'rename': {
      const prev = str(field(attrs.prev, 'name'));
      const next = str(field(attrs.next, 'name'));
      const from = prev ? `${entityType} "${prev}"` : named(entityType, '');
      return {
        text: `renamed ${from}${next ? ` to "${next}"` : ''}`,
        context: inParent,
        icon: 'edit',
      };
    }
    case 'move':
      return { text: `moved ${item}`, context: moveContext(attrs) || inParent, icon: 'move' };
    case 'copy':
      return { text: `copied ${item}`, context: moveContext(attrs) || inParent, icon: 'copy' };
    case 'restore':
      return { text: `restored ${item}`, context: inParent, icon: 'restore' };
    case 'archive':
      return { text: `archived ${item}`, context: inParent, icon: 'archive' };
    case 'delete':
      return { text: `deleted ${item} permanently`, context: inParent, icon: 'delete' };
    case 'download': {
      const { verb, icon } = downloadVerb(attrs);
      return { text: `${verb} ${item}`, context: inParent, icon };
    }
    case 'preview':
      return { text: `previewed ${item}`, context: inParent, icon: 'preview' };
    case 'dispose':
      return entityType === 'file' ? describeDisposal(attrs) : describeUnknown(event);
    default:
      return describeUnknown(event);
  }
}

/** Contact links (folder_contact). */
function describeContact(event: HistoryEventDto, attrs: HistoryAttributes): Description {
  const contact = named('contact', str(attrs.contact_name));
  const folder = named(
    'folder',
    str(field(field(attrs.changes, 'folder'), 'name')) ||
      str(attrs.folder_name) ||
      str(field(attrs.folder, 'name')),
  );
  switch (event.action) {
    case 'create':
      return { text: `linked ${contact} to ${folder}`, context: '', icon: 'link' };
    case 'delete':
      return { text: `unlinked ${contact} from ${folder}`, context: '', icon: 'unlink' };
    default:
      return describeUnknown(event);
  }
}

/** Who a permission change is for: quoted names, then counts of unnamed ones by type. */
function describePermissionables(attrs: HistoryAttributes): string {
  const names: string[] = [];
  const counts = new Map<string, number>();
  for (const entry of list(attrs.permissions)) {
    const name = str(field(entry, 'name'));
    if (name) {
      names.push(`"${name}"`);
    } else {
      const type = str(field(entry, 'permissionable_type')).replace(/_/g, ' ') || 'member';
      counts.set(type, (counts.get(type) ?? 0) + 1);
    }
  }
  for (const [type, count] of counts) names.push(`${count} ${plural(count, type)}`);
  return names.join(', ');
}

/** Folder permission changes (folder_permission). */
function describePermission(event: HistoryEventDto, attrs: HistoryAttributes): Description {
  const folderNames = list(attrs.folders)
    .map((folder) => str(field(folder, 'name')))
    .filter(Boolean);
  const folderName = str(attrs.folder_name);
  let target: string;
  if (folderName) target = named('folder', folderName);
  else if (folderNames.length === 1) target = named('folder', folderNames[0] ?? '');
  else if (folderNames.length > 1) target = `${folderNames.length} folders`;
  else target = named('folder', '');
  const shown = folderNames.slice(0, 3).map((name) => `"${name}"`);
  const context =
    !folderName && folderNames.length > 1
      ? `${shown.join(', ')}${folderNames.length > 3 ? ` and ${folderNames.length - 3} more` : ''}`
      : '';
  const who = describePermissionables(attrs);
  const forWho = who ? ` for ${who}` : '';
  switch (event.action) {
    case 'create_many':
      return { text: `added permission${forWho} on ${target}`, context, icon: 'permission' };
    case 'delete':
    case 'delete_many':
      return { text: `removed permission${forWho} on ${target}`, context, icon: 'permission' };
    default:
      return describeUnknown(event);
  }
}

/** Invitations (share_link) and accepted shares (external_share). */
function describeShare(event: HistoryEventDto, attrs: HistoryAttributes): Description {
  const email = str(attrs.email);
  const target = sharedItem(attrs) || 'an item';
  if (event.entity_type === 'share_link') {
    const guest = email || 'a guest';
    switch (event.action) {
      case 'create':
        if (attrs.reissued === true) {
          return { text: `made a new share link for ${target}`, context: '', icon: 'share' };
        }
        return { text: `sent an invite to ${guest} for ${target}`, context: '', icon: 'share' };
      case 'delete':
        return {
          text: `cancelled the invite to ${guest} for ${target}`,
          context: '',
          icon: 'unlink',
        };
      default:
        return describeUnknown(event);
    }
  }
  switch (event.action) {
    case 'create':
      return {
        text: `accepted the invite to ${target}`,
        context: email ? `as ${email}` : '',
        icon: 'share',
      };
    case 'delete':
      return {
        text: `removed access${email ? ` for ${email}` : ''} to ${target}`,
        context: '',
        icon: 'unlink',
      };
    default:
      return describeUnknown(event);
  }
}

/** The index values of an applied-index event: `"Name: value"` each. */
function indexValues(attrs: HistoryAttributes): string[] {
  const format = (name: string, value: string): string =>
    name && value ? `"${name}: ${value}"` : `"${name || value}"`;
  const values = list(attrs.index_values)
    .map((entry) => ({ name: str(field(entry, 'name')), value: str(field(entry, 'value')) }))
    .filter(({ name, value }) => name || value)
    .map(({ name, value }) => format(name, value));
  if (values.length > 0) return values;
  const name = str(attrs.name);
  const value = str(attrs.value);
  return name || value ? [format(name, value)] : [];
}

/** Applied indexes (applied_index). */
function describeIndex(event: HistoryEventDto, attrs: HistoryAttributes): Description {
  const values = indexValues(attrs);
  const what =
    values.length === 0
      ? 'an index'
      : `${values.length === 1 ? 'index' : 'indexes'} ${values.join(', ')}`;
  const item = sharedItem(attrs, true);
  const on = item ? ` on ${item}` : '';
  switch (event.action) {
    case 'create_many':
      return { text: `applied ${what}${item ? ` to ${item}` : ''}`, context: '', icon: 'index' };
    case 'update':
      return { text: `updated ${what}${on}`, context: '', icon: 'index' };
    case 'restore':
      return { text: `restored ${what}${on}`, context: '', icon: 'restore' };
    case 'archive':
      return { text: `archived ${what}${on}`, context: '', icon: 'archive' };
    case 'delete':
      return {
        text: `removed ${what}${item ? ` from ${item}` : ''} permanently`,
        context: '',
        icon: 'delete',
      };
    default:
      return describeUnknown(event);
  }
}

/** A role as words: `read_only` → `read-only member`. */
function roleWords(role: unknown): string {
  switch (role) {
    case 'admin':
      return 'administrator';
    case 'member':
      return 'member';
    case 'read_only':
      return 'read-only member';
    default:
      return str(role).replace(/_/g, ' ');
  }
}

/** User administration events: the user they are about is `attributes.name`. */
function describeUserAdmin(event: HistoryEventDto, attrs: HistoryAttributes): Description {
  const user = named('user', str(attrs.name));
  const role = field(attrs.user_changes, 'role');
  const next = roleWords(field(role, 'next'));
  const prev = roleWords(field(role, 'prev'));
  switch (event.action) {
    case 'create':
      return { text: `added ${user}`, context: next ? `as ${next}` : '', icon: 'add' };
    case 'update': {
      if (next) {
        const from = prev ? ` from ${prev}` : '';
        return { text: `changed the role of ${user}${from} to ${next}`, context: '', icon: 'edit' };
      }
      const fields = list(field(attrs.user_changes, 'fields'))
        .map((f) => str(f))
        .filter(Boolean);
      if (fields.length === 1 && fields[0] === 'password') {
        return { text: `changed the password of ${user}`, context: '', icon: 'edit' };
      }
      const words = fields.map((f) => splitCamelCase(f).toLowerCase());
      return { text: `updated ${user}`, context: words.join(', '), icon: 'edit' };
    }
    case 'disable':
      return { text: `disabled ${user}`, context: '', icon: 'archive' };
    case 'enable':
      return { text: `enabled ${user}`, context: '', icon: 'restore' };
    case 'unlock':
      return { text: `unlocked ${user}`, context: '', icon: 'login' };
    case 'delete':
      return { text: `removed ${user} from the firm`, context: '', icon: 'delete' };
    case 'lock': {
      const n = typeof attrs.failed_logins === 'number' ? attrs.failed_logins : 0;
      return {
        text:
          n > 0
            ? `was locked out after ${n} failed ${plural(n, 'sign-in')}`
            : 'was locked out after failed sign-ins',
        context: '',
        icon: 'logout',
      };
    }
    default:
      return describeUnknown(event);
  }
}

/** The UTC day (YYYY-MM-DD) of an ISO time, or '' when it is not one. */
function utcDay(value: unknown, minusMs = 0): string {
  const ms = Date.parse(str(value));
  return Number.isFinite(ms) ? new Date(ms - minusMs).toISOString().slice(0, 10) : '';
}

/**
 * What an examiner's export covered, in words: `folder "Clients / Smith"`, `contact "Jane Smith"
 * (2 folders)`, `files and events from 2026-01-01 to 2026-03-31` (the end is exclusive, so the
 * last day shown is the one before it), or `the whole firm`.
 */
function examinerScopeWords(scope: unknown): string {
  switch (field(scope, 'kind')) {
    case 'folder':
      return named('folder', str(field(scope, 'path')));
    case 'contact': {
      const folders = list(field(scope, 'folders')).length;
      return `${named('contact', str(field(scope, 'name')))} (${folders} ${plural(folders, 'folder')})`;
    }
    case 'date_range':
      return `files and events from ${utcDay(field(scope, 'start'))} to ${utcDay(field(scope, 'end'), 1)}`;
    case 'firm':
      return 'the whole firm';
    default:
      return '';
  }
}

/** Sign-in, sign-out and downloads of several items (user). */
function describeUser(event: HistoryEventDto, attrs: HistoryAttributes): Description {
  switch (event.action) {
    case 'create':
    case 'update':
    case 'disable':
    case 'enable':
    case 'unlock':
    case 'lock':
    case 'delete':
      return describeUserAdmin(event, attrs);
    case 'login':
      return { text: 'logged in', context: '', icon: 'login' };
    case 'logout':
      return { text: 'logged out', context: '', icon: 'logout' };
    case 'download': {
      if (field(attrs.export, 'kind') === 'history') {
        return {
          text: 'exported the activity history',
          context: str(field(attrs.export, 'file_name')),
          icon: 'download',
        };
      }
      if (field(attrs.export, 'kind') === 'examiner') {
        return {
          text: 'exported records for an examiner',
          context: examinerScopeWords(field(attrs.export, 'scope')),
          icon: 'download',
        };
      }
      if (field(attrs.export, 'kind') === 'case_file') {
        const format = field(attrs.export, 'format') === 'print' ? 'printed' : 'exported';
        return {
          text: `${format} the case file of ${named('folder', str(field(attrs.export, 'folder_name')))}`,
          context: `${str(field(attrs.export, 'from'))} – ${str(field(attrs.export, 'to'))}`,
          icon: 'download',
        };
      }
      const { verb, icon } = downloadVerb(attrs);
      const folders = list(attrs.folders).length;
      const what =
        sharedItem(attrs, true) || (folders > 0 ? `${folders} ${plural(folders, 'folder')}` : '');
      return { text: `${verb} ${what || 'items'}`, context: '', icon };
    }
    default:
      return describeUnknown(event);
  }
}

/** A description in words: `"text"`, or `none` when there is none. */
function descriptionWords(value: unknown): string {
  const text = str(value);
  return text ? `"${text}"` : 'none';
}

/** Firm provisioning: the firm database itself, changed by an operator. */
function describeFirm(event: HistoryEventDto, attrs: HistoryAttributes): Description {
  const firm = named('firm', str(attrs.name));
  const description = field(attrs.firm_changes, 'description');
  switch (event.action) {
    case 'create': {
      const next = str(field(description, 'next'));
      return {
        text: `created ${firm}`,
        context: next ? `described as "${next}"` : '',
        icon: 'add',
      };
    }
    case 'rename': {
      const prev = str(field(attrs.prev, 'name'));
      return prev && str(attrs.name)
        ? { text: `renamed firm "${prev}" to "${str(attrs.name)}"`, context: '', icon: 'edit' }
        : { text: `renamed ${firm}`, context: '', icon: 'edit' };
    }
    case 'update':
      return {
        text: `changed the description of ${firm}`,
        context: description
          ? `from ${descriptionWords(field(description, 'prev'))} to ${descriptionWords(field(description, 'next'))}`
          : '',
        icon: 'edit',
      };
    case 'disable':
      return { text: `disabled ${firm}`, context: '', icon: 'archive' };
    case 'enable':
      return { text: `enabled ${firm}`, context: '', icon: 'restore' };
    default:
      return describeUnknown(event);
  }
}

/** A pair the product does not record (future or corrupt data): plain words, never a throw. */
function describeUnknown(event: { entity_type: unknown; action: unknown }): Description {
  const action = str(event.action).replace(/_/g, ' ') || 'unknown action';
  const entity = str(event.entity_type).replace(/_/g, ' ') || 'item';
  return { text: `performed ${action} on ${named(entity, '')}`, context: '', icon: 'info' };
}

/** Dispatches on entity_type. */
function describe(event: HistoryEventDto, attrs: HistoryAttributes): Description {
  switch (event.entity_type) {
    case 'folder':
    case 'file':
      return describeItem(event, attrs);
    case 'folder_contact':
      return describeContact(event, attrs);
    case 'folder_permission':
      return describePermission(event, attrs);
    case 'share_link':
    case 'external_share':
      return describeShare(event, attrs);
    case 'applied_index':
      return describeIndex(event, attrs);
    case 'user':
      return describeUser(event, attrs);
    case 'database':
      return describeFirm(event, attrs);
    case 'retention_schedule':
    case 'legal_hold':
      return describeRecordsEvent(event, attrs);
    case 'document_request':
    case 'request_template':
      return describeRequestsEvent(event, attrs);
    default:
      return describeUnknown(event);
  }
}

/**
 * The words of a history event without its date: the one-line summary (a legacy entry's
 * `migrated.description`, else the user's name and what they did), the context part of the
 * detail line, the icon and the filter label. Used by {@link renderHistoryEvent} and by the CSV
 * export (which has its own date column). Pure; never throws.
 *
 * @param event the history entry as the API answers it; any attribute may be missing
 */
export function summarizeHistoryEvent(event: HistoryEventDto): {
  summary: string;
  context: string;
  icon: HistoryIcon;
  label: HistoryLabel | null;
} {
  const attrs: HistoryAttributes =
    typeof event.attributes === 'object' && event.attributes !== null ? event.attributes : {};
  const description = describe(event, attrs);
  const user = str(event.user_name) || 'Someone';
  const migrated = str(field(attrs.migrated, 'description'));
  return {
    summary: migrated || `${user} ${description.text}`,
    context: description.context,
    icon: description.icon,
    label: labelFor(event),
  };
}

/**
 * Renders a history event for the activity list (SPEC sections 2, 4 and 9): summary, detail line,
 * icon and filter label. The summary starts with the acting user's name (`user_name`, "Someone"
 * when blank), e.g. `Ada Lovelace renamed file "a.pdf" to "b.pdf"`; a legacy entry's
 * `attributes.migrated.description` replaces the generated summary. See the module comment for
 * the attributes read and the detail line. Pure: depends only on its arguments.
 *
 * @param event the history entry as the API answers it; any attribute may be missing
 * @param now reference moment for the relative date; defaults to the current time
 * @returns the rendered entry; never throws, and the summary is never empty
 */
export function renderHistoryEvent(
  event: HistoryEventDto,
  now: Date = new Date(),
): RenderedHistoryEvent {
  const { summary, context, icon, label } = summarizeHistoryEvent(event);
  const date = relativeDate(str(event.created_at), now);
  const detail = [context, date].filter(Boolean).join(' · ');
  return { summary, detail, icon, label };
}

/** The date presets of the history filter, in display order (SPEC section 9). */
export const DATE_PRESETS = [
  'Today',
  'Yesterday',
  'This week',
  'This month',
  'This quarter',
  'This year',
] as const;

/** One date preset of the history filter. */
export type DatePreset = (typeof DATE_PRESETS)[number];

/**
 * The time range of a date preset, with boundaries at local midnight (the user's time zone) and an
 * exclusive end; the "This ..." presets cover the whole current period (weeks start on Sunday,
 * quarters are Jan-Mar, Apr-Jun, Jul-Sep, Oct-Dec).
 *
 * @param preset one of {@link DATE_PRESETS}
 * @param now the reference moment (usually the current time)
 * @returns start (inclusive) and end (exclusive) as UTC ISO 8601 strings
 * @throws RangeError for a value that is not a preset (e.g. from an untyped URL)
 */
export function datePresetRange(preset: DatePreset, now: Date): { start: string; end: string } {
  const today = dayjs(now).startOf('day');
  let start: dayjs.Dayjs;
  let end: dayjs.Dayjs;
  switch (preset) {
    case 'Today':
      start = today;
      end = today.add(1, 'day');
      break;
    case 'Yesterday':
      start = today.subtract(1, 'day');
      end = today;
      break;
    case 'This week':
      start = today.startOf('week');
      end = start.add(1, 'week');
      break;
    case 'This month':
      start = today.startOf('month');
      end = start.add(1, 'month');
      break;
    case 'This quarter':
      start = today.startOf('year').month(Math.floor(today.month() / 3) * 3);
      end = start.add(3, 'month');
      break;
    case 'This year':
      start = today.startOf('year');
      end = start.add(1, 'year');
      break;
    default:
      throw new RangeError(`Unknown date preset: ${String(preset)}`);
  }
  return { start: start.toISOString(), end: end.toISOString() };
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
  | 'legal_hold'
  // Document requests (common/documentRequests.ts) and their templates.
  | 'document_request'
  | 'request_template';

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
  | 'delete_version'
  // Document requests: a recipient's upload, an item accepted or rejected, a reminder, the
  // request cancelled, expired or completed.
  | 'upload'
  | 'accept'
  | 'reject'
  | 'remind'
  | 'cancel'
  | 'expire'
  | 'complete';

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
  /** What replay needs beside the SPEC shape (common/replay.ts ReplayFacts). */
  replay?: ReplayFacts;
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
  /** Document request events: the request (its title and due day). */
  request?: { id: string; title: string; due_date?: string };
  /** Document request events: the requested item concerned. */
  item?: { id: string; name: string };
  /** Document request create and remind: the recipients' addresses. */
  recipients?: string[];
  /** A document request reject: the reason the recipient sees. */
  reason?: string;
  /** A document request remind: why it went out (common/historyRequests.ts ReminderKind). */
  reminder?: string;
  /** Request template events: the template. */
  template?: { id: string; name: string };
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
export type HistoryExportAttributes =
  HistoryCsvExportAttributes | ExaminerExportAttributes | CaseFileExportAttributes;

/** What a replay case file records about itself (common/replayViews.ts). */
export interface CaseFileExportAttributes {
  kind: 'case_file';
  /** The download's file name (the printable page: the name it would print under). */
  file_name: string;
  /** The folder whose timeline it holds, named as it is now. */
  folder_id: string;
  folder_name: string;
  /** The two moments (ISO UTC) and the format: CSV or the printable page. */
  from: string;
  to: string;
  format: 'csv' | 'print';
  /** How many events it lists. */
  events: number;
}

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
