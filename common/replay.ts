/**
 * Replay: the state of a firm's folders and files as it was after any history event, derived from
 * the append-only event log (SPEC section 3 attribute shapes, plus the `replay` facts an event
 * carries where its human-facing shape does not say enough, see {@link ReplayFacts}).
 *
 * One pure module for both sides: the server replays the firm's events from a snapshot to the
 * moment asked for and projects a folder's subtree ({@link projectSubtree}); the client steps the
 * same subtree along the timeline with {@link stepSubtree}, which applies the same
 * {@link applyEvent} and adds the items the server says enter the subtree.
 *
 * Rules, as the services apply them:
 * - create adds an item (a file's version 1 from `replay.version`); rename sets the name; move
 *   and restore set the parent (a restore may also rename, to the name it ended with);
 * - archive marks the item and its live descendants with the item as their archive root; a
 *   restore brings back the item and everything archived with it below it;
 * - delete (permanent) keeps the item and its descendants as tombstones (`destroyedAt`);
 * - a folder copy adds a copy of each item named in `replay.copies` (without favourites,
 *   colours, index values, contacts, permissions or shares, as the copy service does);
 * - favourites and colours are per user; index values, contacts, permissions and shares are
 *   listed on the item they belong to.
 * An event whose shape lacks what replay needs (legacy `migrated.description` entries, or an
 * event recorded before its shape carried the facts) changes nothing and is listed in
 * `legacy`, so the screen shows it as such; nothing is guessed.
 */
import { ROOT_FOLDER_ID } from './constants';

/** A history event as the replay reads it (the list's columns plus the chain position). */
export interface ReplayEvent {
  id: string;
  /** Position in the firm's hash chain (the order events are replayed in). */
  seq: number;
  entity_type: string;
  entity_id: string;
  item_id: string | null;
  action: string;
  user_id: string;
  user_name: string;
  attributes: Record<string, unknown>;
  /** ISO UTC time of the event. */
  created_at: string;
}

/**
 * The facts an event carries for replay beside its SPEC shape (`attributes.replay`):
 * - `version`: a created file's first version (copies and uploads);
 * - `copies`: a folder copy's `[sourceId, copyId]` pairs, top folder first, then folders and
 *   files below it;
 * - `applied`: the applied-index rows an `applied_index create_many` made, parallel to
 *   `index_values`;
 * - `color`: a folder colour change of one user (`null`: back to the default).
 */
export interface ReplayFacts {
  version?: ReplayVersion;
  copies?: [string, string][];
  applied?: { id: string; index_field_id: string }[];
  color?: { user_id: string; color: string | null };
}

/** A file version as replay keeps it: number, size in bytes, sha256 (hex, null until known). */
export interface ReplayVersion {
  number: number;
  size: number | null;
  sha256: string | null;
}

/** An applied index value on an item. */
export interface ReplayIndexValue {
  /** The applied-index row's id (null for values applied before events carried it). */
  id: string | null;
  /** The index field's id, when the event carried it. */
  fieldId: string | null;
  name: string;
  value: string;
  archived: boolean;
}

/** A permission row of a folder: who may see it. */
export interface ReplayPermission {
  type: string;
  id: string;
  name: string | null;
}

/** A share of an item: an invitation (share link) or a guest who accepted one. */
export interface ReplayShare {
  /** The share link's id (an invitation is its link and its address), or the guest's share's. */
  id: string;
  kind: 'link' | 'guest';
  email: string | null;
}

/** A folder or file as it was. Arrays are kept sorted so that equal states compare equal. */
export interface ReplayItem {
  id: string;
  type: 'folder' | 'file';
  name: string;
  /** The folder it sits in ('' for the root). */
  parentId: string;
  /** The archive it went with (itself when archived on its own), or null while live. */
  archivedRootId: string | null;
  /** ISO time of the permanent delete, or null. */
  destroyedAt: string | null;
  /** Users with an enabled favourite entry, sorted. */
  favorites: string[];
  /** Colour key per user (folders only). */
  colors: Record<string, string>;
  indexes: ReplayIndexValue[];
  /** Linked CRM contacts: the link's id and the contact's name. */
  contacts: { id: string; name: string }[];
  permissions: ReplayPermission[];
  shares: ReplayShare[];
  /** The newest version of a file (null for folders, or when not known). */
  version: ReplayVersion | null;
  /** ISO time of its create event. */
  createdAt: string;
  /** ISO time of the last event that changed it. */
  updatedAt: string;
}

/** The replayed state: every item ever created (tombstones included), by id. */
export interface ReplayState {
  items: Record<string, ReplayItem>;
  /** The chain position of the last event applied (0: none). */
  seq: number;
  /** ISO time of the last event applied (null: none). */
  at: string | null;
  /** Ids of the applied events replay could not read (see the module comment). */
  legacy: string[];
}

/** The state before any event. */
export function emptyReplayState(): ReplayState {
  return { items: {}, seq: 0, at: null, legacy: [] };
}

const ITEM_TYPES = new Set(['folder', 'file']);

function rec(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function facts(event: ReplayEvent): ReplayFacts {
  return rec(event.attributes.replay) ?? {};
}

function parentIdOf(attrs: Record<string, unknown>): string | null {
  return text(rec(attrs.parent)?.id);
}

function sortBy<T>(list: T[], key: (t: T) => string): T[] {
  return list.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * Children by parent id, built once per state object and kept up to date by the functions that
 * change a parent (the state itself stays plain JSON for snapshots and the store).
 */
const childIndexes = new WeakMap<ReplayState, Map<string, Set<string>>>();

function childIndex(state: ReplayState): Map<string, Set<string>> {
  let index = childIndexes.get(state);
  if (!index) {
    index = new Map();
    for (const item of Object.values(state.items)) addChild(index, item.parentId, item.id);
    childIndexes.set(state, index);
  }
  return index;
}

function addChild(index: Map<string, Set<string>>, parentId: string, id: string): void {
  const set = index.get(parentId);
  if (set) set.add(id);
  else index.set(parentId, new Set([id]));
}

/** Adds or replaces an item, keeping the child index true. */
function putItem(state: ReplayState, item: ReplayItem): void {
  const index = childIndex(state);
  const previous = state.items[item.id];
  if (previous) index.get(previous.parentId)?.delete(item.id);
  state.items[item.id] = item;
  addChild(index, item.parentId, item.id);
}

/** Moves an item to another parent, keeping the child index true. */
function setParent(state: ReplayState, item: ReplayItem, parentId: string): void {
  if (item.parentId === parentId) return;
  const index = childIndex(state);
  index.get(item.parentId)?.delete(item.id);
  item.parentId = parentId;
  addChild(index, parentId, item.id);
}

/** Removes an item (not its descendants), keeping the child index true. */
function dropItem(state: ReplayState, id: string): void {
  const item = state.items[id];
  if (!item) return;
  childIndex(state).get(item.parentId)?.delete(id);
  delete state.items[id];
}

/** The items below a folder in `state` (any state), children before grandchildren. */
function descendants(state: ReplayState, rootId: string): ReplayItem[] {
  const index = childIndex(state);
  const out: ReplayItem[] = [];
  const queue = [rootId];
  for (let i = 0; i < queue.length; i++) {
    for (const childId of index.get(queue[i]!) ?? []) {
      const child = state.items[childId];
      if (!child) continue;
      out.push(child);
      if (child.type === 'folder') queue.push(child.id);
    }
  }
  return out;
}

/** Whether the item `id` lies below `rootId` (following parents in `state`). */
function isBelow(state: ReplayState, id: string, rootId: string): boolean {
  let current = state.items[id];
  for (let hops = 0; current && hops < 10_000; hops++) {
    if (current.parentId === rootId) return true;
    current = state.items[current.parentId];
  }
  return false;
}

function newItem(
  id: string,
  type: 'folder' | 'file',
  name: string,
  parentId: string,
  at: string,
): ReplayItem {
  return {
    id,
    type,
    name,
    parentId,
    archivedRootId: null,
    destroyedAt: null,
    favorites: [],
    colors: {},
    indexes: [],
    contacts: [],
    permissions: [],
    shares: [],
    version: null,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * Applies one event to `state`, in place (callers that need the state before keep a copy, or
 * use an immer draft). Events of other kinds (reads, sign-ins, users, firms) change nothing.
 * Events are applied in chain order; an event about an item the state does not hold changes
 * nothing (it lies outside what is replayed).
 */
export function applyEvent(state: ReplayState, event: ReplayEvent): void {
  state.seq = event.seq;
  state.at = event.created_at;
  const attrs = event.attributes;
  if (rec(attrs.migrated) && text(rec(attrs.migrated)?.description) !== null) {
    state.legacy.push(event.id);
    return;
  }
  if (ITEM_TYPES.has(event.entity_type)) applyItemEvent(state, event);
  else if (event.entity_type === 'applied_index') applyIndexEvent(state, event);
  else if (event.entity_type === 'folder_contact') applyContactEvent(state, event);
  else if (event.entity_type === 'folder_permission') applyPermissionEvent(state, event);
  else if (event.entity_type === 'share_link' || event.entity_type === 'external_share') {
    applyShareEvent(state, event);
  }
}

function applyItemEvent(state: ReplayState, event: ReplayEvent): void {
  const attrs = event.attributes;
  const type = event.entity_type as 'folder' | 'file';
  const at = event.created_at;
  const item = state.items[event.entity_id];
  switch (event.action) {
    case 'create': {
      const name = text(attrs.name);
      const parentId = parentIdOf(attrs);
      if (name === null || parentId === null) {
        state.legacy.push(event.id);
        return;
      }
      const created = newItem(event.entity_id, type, name, parentId, at);
      if (type === 'file') created.version = facts(event).version ?? null;
      putItem(state, created);
      return;
    }
    case 'rename': {
      const name = text(rec(attrs.next)?.name) ?? text(attrs.name);
      if (!item || name === null) return;
      item.name = name;
      item.updatedAt = at;
      return;
    }
    case 'move': {
      const next = text(rec(rec(attrs.changes)?.nextParent)?.id);
      if (!item || next === null) return;
      setParent(state, item, next);
      item.updatedAt = at;
      return;
    }
    case 'copy':
      applyCopy(state, event);
      return;
    case 'update':
      if (item) applyUpdate(state, item, event);
      return;
    case 'archive':
      if (item) archive(state, item);
      return;
    case 'restore':
      if (item) restore(state, item, event);
      return;
    case 'delete':
      if (!item) return;
      item.destroyedAt = at;
      for (const below of descendants(state, item.id)) below.destroyedAt ??= at;
      return;
    case 'add_version':
    case 'restore_version': {
      const version = rec(attrs.version);
      const number = version?.number;
      if (!item || typeof number !== 'number') return;
      item.version = {
        number,
        size: typeof version?.size === 'number' ? version.size : null,
        sha256: text(version?.sha256),
      };
      item.updatedAt = at;
      return;
    }
    default:
      return;
  }
}

function applyUpdate(state: ReplayState, item: ReplayItem, event: ReplayEvent): void {
  const changes = rec(event.attributes.changes);
  const favorites = changes?.favorites;
  if (Array.isArray(favorites)) {
    const set = new Set(item.favorites);
    for (const entry of favorites) {
      const user = text(rec(entry)?.user_id);
      if (user === null) continue;
      if (rec(entry)?.enabled === true) set.add(user);
      else set.delete(user);
    }
    item.favorites = [...set].sort();
    return;
  }
  const color = facts(event).color;
  if (color) {
    const colors = { ...item.colors };
    if (color.color === null) delete colors[color.user_id];
    else colors[color.user_id] = color.color;
    item.colors = colors;
    return;
  }
  state.legacy.push(event.id);
}

function archive(state: ReplayState, item: ReplayItem): void {
  if (item.archivedRootId !== null) return;
  item.archivedRootId = item.id;
  if (item.type !== 'folder') return;
  for (const below of descendants(state, item.id)) {
    if (below.archivedRootId === null && below.destroyedAt === null) {
      below.archivedRootId = item.id;
    }
  }
}

function restore(state: ReplayState, item: ReplayItem, event: ReplayEvent): void {
  const root = item.archivedRootId;
  if (root === null) return;
  const below = item.type === 'folder' ? descendants(state, item.id) : [];
  for (const other of below) if (other.archivedRootId === root) other.archivedRootId = null;
  item.archivedRootId = null;
  const name = text(event.attributes.name);
  const parentId = parentIdOf(event.attributes);
  if (name !== null) item.name = name;
  if (parentId !== null) setParent(state, item, parentId);
}

function applyCopy(state: ReplayState, event: ReplayEvent): void {
  const copies = facts(event).copies;
  const copy = rec(event.attributes.copy);
  const parentId = parentIdOf(event.attributes);
  if (!Array.isArray(copies) || !copy || parentId === null) {
    state.legacy.push(event.id);
    return;
  }
  const mapping = new Map(copies);
  const topName = text(copy.name);
  for (const [from, to] of copies) {
    const source = state.items[from];
    if (!source) continue;
    const top = from === event.entity_id;
    const copied = newItem(
      to,
      source.type,
      top && topName !== null ? topName : source.name,
      top ? parentId : (mapping.get(source.parentId) ?? source.parentId),
      event.created_at,
    );
    if (source.type === 'file' && source.version) {
      copied.version = { ...source.version, number: 1 };
    }
    putItem(state, copied);
  }
}

/** The item an applied-index, contact, permission or share event concerns. */
function itemOf(state: ReplayState, event: ReplayEvent): ReplayItem | undefined {
  return state.items[event.item_id ?? ''];
}

function applyIndexEvent(state: ReplayState, event: ReplayEvent): void {
  const attrs = event.attributes;
  const item = state.items[text(attrs.entity_id) ?? event.item_id ?? ''];
  if (!item) return;
  if (event.action === 'create_many') {
    const values = Array.isArray(attrs.index_values) ? attrs.index_values : [];
    const applied = facts(event).applied ?? [];
    const indexes = [...item.indexes];
    values.forEach((value, i) => {
      const name = text(rec(value)?.name);
      const v = text(rec(value)?.value);
      if (name === null || v === null) return;
      indexes.push({
        id: applied[i]?.id ?? null,
        fieldId: applied[i]?.index_field_id ?? null,
        name,
        value: v,
        archived: false,
      });
    });
    item.indexes = sortIndexes(indexes);
    return;
  }
  const name = text(attrs.name);
  const match = (row: ReplayIndexValue) =>
    row.id !== null ? row.id === event.entity_id : row.name === name;
  const row = item.indexes.find(
    (r) => match(r) && (event.action === 'restore' ? r.archived : true),
  );
  if (!row) {
    state.legacy.push(event.id);
    return;
  }
  const value = text(attrs.value) ?? row.value;
  let indexes = item.indexes.filter((r) => r !== row);
  if (event.action === 'update') indexes.push({ ...row, value });
  else if (event.action === 'archive') indexes.push({ ...row, archived: true });
  else if (event.action === 'restore') indexes.push({ ...row, archived: false });
  else if (event.action !== 'delete') indexes = item.indexes;
  item.indexes = sortIndexes(indexes);
}

function sortIndexes(list: ReplayIndexValue[]): ReplayIndexValue[] {
  return sortBy(list, (r) => `${r.name}\u0000${r.id ?? ''}`);
}

function applyContactEvent(state: ReplayState, event: ReplayEvent): void {
  const item = itemOf(state, event);
  if (!item) return;
  if (event.action === 'create') {
    const name = text(event.attributes.contact_name) ?? '';
    item.contacts = sortBy(
      [...item.contacts.filter((c) => c.id !== event.entity_id), { id: event.entity_id, name }],
      (c) => `${c.name}\u0000${c.id}`,
    );
  } else if (event.action === 'delete') {
    item.contacts = item.contacts.filter((c) => c.id !== event.entity_id);
  }
}

function permissionsOf(attrs: Record<string, unknown>): ReplayPermission[] {
  const list = Array.isArray(attrs.permissions) ? attrs.permissions : [];
  const out: ReplayPermission[] = [];
  for (const entry of list) {
    const type = text(rec(entry)?.permissionable_type);
    const id = text(rec(entry)?.permissionable_id);
    if (type !== null && id !== null) out.push({ type, id, name: text(rec(entry)?.name) });
  }
  return out;
}

function applyPermissionEvent(state: ReplayState, event: ReplayEvent): void {
  const attrs = event.attributes;
  const who = permissionsOf(attrs);
  const key = (p: ReplayPermission) => `${p.type}\u0000${p.id}`;
  const folderIds =
    Array.isArray(attrs.folders) && attrs.folders.length > 0
      ? attrs.folders.map((f) => text(rec(f)?.id)).filter((id): id is string => id !== null)
      : [event.item_id ?? ''];
  for (const folderId of folderIds) {
    const folder = state.items[folderId];
    if (!folder) continue;
    if (event.action === 'create_many') {
      const merged = new Map(folder.permissions.map((p) => [key(p), p]));
      for (const p of who) merged.set(key(p), p);
      folder.permissions = sortBy([...merged.values()], key);
    } else if (event.action === 'delete' || event.action === 'delete_many') {
      const gone = new Set(who.map(key));
      folder.permissions = folder.permissions.filter((p) => !gone.has(key(p)));
    }
  }
}

function applyShareEvent(state: ReplayState, event: ReplayEvent): void {
  const item = itemOf(state, event);
  if (!item) return;
  const kind = event.entity_type === 'share_link' ? 'link' : 'guest';
  const email = text(event.attributes.email);
  // A link's events name the link, not the invitation: one link invites several addresses, so an
  // invitation is the link and its address (an event without one, a reissued link, names none).
  // A guest's share has an id of its own.
  const same = (s: ReplayShare) =>
    s.id === event.entity_id &&
    s.kind === kind &&
    (kind === 'guest' || email === null || s.email === email);
  if (event.action === 'create') {
    if (item.shares.some(same)) return;
    item.shares = sortBy([...item.shares, { id: event.entity_id, kind, email }], shareKey);
  } else if (event.action === 'delete') {
    item.shares = item.shares.filter((s) => !same(s));
  }
}

function shareKey(s: ReplayShare): string {
  return `${s.kind}\u0000${s.id}\u0000${s.email ?? ''}`;
}

/** Whether `event` is about folders or files and what hangs on them (replay's concern). */
export function isReplayable(event: Pick<ReplayEvent, 'entity_type' | 'action'>): boolean {
  if (ITEM_TYPES.has(event.entity_type)) {
    return event.action !== 'download' && event.action !== 'preview';
  }
  return (
    event.entity_type === 'applied_index' ||
    event.entity_type === 'folder_contact' ||
    event.entity_type === 'folder_permission' ||
    event.entity_type === 'share_link' ||
    event.entity_type === 'external_share'
  );
}

/**
 * A folder's subtree: the folder itself (unless it is the root) and every item whose chain of
 * parents reaches it, tombstones included.
 * @returns a new state holding copies of those items only, with the same seq, time and legacy ids
 */
export function projectSubtree(state: ReplayState, folderId: string): ReplayState {
  const items: Record<string, ReplayItem> = {};
  const folder = state.items[folderId];
  if (folder) items[folder.id] = structuredCopy(folder);
  for (const item of descendants(state, folderId)) items[item.id] = structuredCopy(item);
  return { items, seq: state.seq, at: state.at, legacy: [...state.legacy] };
}

/** Whether the item `id` is the folder `folderId` or lies below it in `state`. */
export function inSubtree(state: ReplayState, id: string, folderId: string): boolean {
  return id === folderId ? state.items[id] !== undefined : isBelow(state, id, folderId);
}

/**
 * The ids of the items an event may change in `state` (read before and after applying it): its
 * item, the items below a folder it moves, archives, restores, deletes or copies, and the copies.
 */
export function touchedIds(state: ReplayState, event: ReplayEvent): string[] {
  const ids = new Set<string>();
  if (ITEM_TYPES.has(event.entity_type)) {
    ids.add(event.entity_id);
    const item = state.items[event.entity_id];
    if (item?.type === 'folder' && FOLDER_WIDE.has(event.action)) {
      for (const below of descendants(state, item.id)) ids.add(below.id);
    }
    const copies = facts(event).copies;
    if (event.action === 'copy' && Array.isArray(copies)) for (const [, to] of copies) ids.add(to);
  } else if (event.entity_type === 'applied_index') {
    ids.add(text(event.attributes.entity_id) ?? event.item_id ?? '');
  } else if (event.entity_type === 'folder_permission') {
    const folders = Array.isArray(event.attributes.folders) ? event.attributes.folders : [];
    for (const f of folders) {
      const id = text(rec(f)?.id);
      if (id !== null) ids.add(id);
    }
    if (event.item_id) ids.add(event.item_id);
  } else if (event.item_id) {
    ids.add(event.item_id);
  }
  ids.delete('');
  return [...ids];
}

/** Folder actions that reach what is below the folder. */
const FOLDER_WIDE = new Set(['move', 'archive', 'restore', 'delete', 'copy']);

/** A deep copy of an item (plain JSON data). */
export function structuredCopy(item: ReplayItem): ReplayItem {
  return {
    ...item,
    favorites: [...item.favorites],
    colors: { ...item.colors },
    indexes: item.indexes.map((i) => ({ ...i })),
    contacts: item.contacts.map((c) => ({ ...c })),
    permissions: item.permissions.map((p) => ({ ...p })),
    shares: item.shares.map((s) => ({ ...s })),
    version: item.version ? { ...item.version } : null,
  };
}

/**
 * One step of a subtree along the timeline (the client's replay): applies `event` to the subtree
 * `state` of `folderId`, adds the items `enters` names (the server's state of what the event
 * brought in from outside: a move in, a copy from elsewhere, a restore into it), and drops what
 * left. In place, like {@link applyEvent}.
 */
export function stepSubtree(
  state: ReplayState,
  folderId: string,
  event: ReplayEvent,
  enters: readonly ReplayItem[] = [],
): void {
  applyEvent(state, event);
  for (const item of enters) putItem(state, structuredCopy(item));
  // What the event took elsewhere (a move or restore out, a copy made outside) leaves the
  // subtree, with everything below it.
  for (const id of touchedIds(state, event)) {
    if (!state.items[id] || inSubtree(state, id, folderId)) continue;
    for (const below of descendants(state, id)) dropItem(state, below.id);
    dropItem(state, id);
  }
}

/**
 * {@link stepSubtree} without changing `prev`: answers a new state that shares every item the
 * event leaves alone (copy-on-write; the items {@link touchedIds} names are copied before the
 * step), so a step costs the items the event touches, not a copy of the whole subtree. Neither
 * `prev` nor the items it shares are written (they may be frozen, as the client's store keeps
 * them).
 */
export function stepSubtreeShared(
  prev: ReplayState,
  folderId: string,
  event: ReplayEvent,
  enters: readonly ReplayItem[] = [],
): ReplayState {
  const items = { ...prev.items };
  for (const id of touchedIds(prev, event)) {
    const item = items[id];
    if (item) items[id] = structuredCopy(item);
  }
  const next: ReplayState = { items, seq: prev.seq, at: prev.at, legacy: [...prev.legacy] };
  const index = childIndexes.get(prev);
  if (index) {
    childIndexes.set(next, new Map([...index].map(([parent, ids]) => [parent, new Set(ids)])));
  }
  stepSubtree(next, folderId, event, enters);
  return next;
}

/** A copy of a whole state (plain JSON data), with its own child index. */
export function copyState(state: ReplayState): ReplayState {
  const items: Record<string, ReplayItem> = {};
  for (const item of Object.values(state.items)) items[item.id] = structuredCopy(item);
  return { items, seq: state.seq, at: state.at, legacy: [...state.legacy] };
}

/** What an event changed on an item, for the timeline's highlights. */
export type ReplayChange =
  | 'added'
  | 'renamed'
  | 'moved_in'
  | 'moved_out'
  | 'moved'
  | 'archived'
  | 'restored'
  | 'destroyed'
  | 'favorite'
  | 'color'
  | 'index'
  | 'contact'
  | 'permission'
  | 'shared'
  | 'version';

/** The changes of one item between two states of a subtree. */
export interface ReplayItemChange {
  id: string;
  name: string;
  changes: ReplayChange[];
}

/**
 * What changed between two states of one subtree (before and after an event), item by item:
 * added or moved in, moved out, renamed, moved within, archived, restored, destroyed, favourites,
 * colours, index values, contacts, permissions, shares and versions.
 */
export function diffStates(
  before: ReplayState,
  after: ReplayState,
  ids?: Iterable<string>,
): ReplayItemChange[] {
  const out: ReplayItemChange[] = [];
  const afterItems = ids
    ? [...ids].map((id) => after.items[id]).filter((i): i is ReplayItem => i !== undefined)
    : Object.values(after.items);
  for (const item of afterItems) {
    const prev = before.items[item.id];
    if (!prev) {
      out.push({ id: item.id, name: item.name, changes: [addedOrIn(item, after)] });
      continue;
    }
    const changes: ReplayChange[] = [];
    if (prev.name !== item.name) changes.push('renamed');
    if (prev.parentId !== item.parentId) changes.push('moved');
    if (prev.archivedRootId === null && item.archivedRootId !== null) changes.push('archived');
    if (prev.archivedRootId !== null && item.archivedRootId === null) changes.push('restored');
    if (prev.destroyedAt === null && item.destroyedAt !== null) changes.push('destroyed');
    if (!same(prev.favorites, item.favorites)) changes.push('favorite');
    if (!same(prev.colors, item.colors)) changes.push('color');
    if (!same(prev.indexes, item.indexes)) changes.push('index');
    if (!same(prev.contacts, item.contacts)) changes.push('contact');
    if (!same(prev.permissions, item.permissions)) changes.push('permission');
    if (!same(prev.shares, item.shares)) changes.push('shared');
    if (!same(prev.version, item.version)) changes.push('version');
    if (changes.length > 0) out.push({ id: item.id, name: item.name, changes });
  }
  const beforeItems = ids
    ? [...ids].map((id) => before.items[id]).filter((i): i is ReplayItem => i !== undefined)
    : Object.values(before.items);
  for (const item of beforeItems) {
    if (!after.items[item.id]) out.push({ id: item.id, name: item.name, changes: ['moved_out'] });
  }
  return sortBy(out, (c) => c.id);
}

/** A new item of the subtree was made by the event (created there) or came in from outside. */
function addedOrIn(item: ReplayItem, after: ReplayState): ReplayChange {
  return item.createdAt === after.at ? 'added' : 'moved_in';
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The items of a subtree state directly in `parentId`, folders first then by name (the listing's
 * default order), live ones only unless `archived`.
 */
export function childrenAt(
  state: ReplayState,
  parentId: string,
  options: { archived?: boolean } = {},
): ReplayItem[] {
  const list = Object.values(state.items).filter(
    (item) =>
      item.parentId === parentId &&
      item.destroyedAt === null &&
      (options.archived === true || item.archivedRootId === null),
  );
  return list.sort((a, b) =>
    a.type !== b.type ? (a.type === 'folder' ? -1 : 1) : a.name.localeCompare(b.name),
  );
}

/** Whether `folderId` is the root. */
export function isRootFolder(folderId: string): boolean {
  return folderId === ROOT_FOLDER_ID;
}
