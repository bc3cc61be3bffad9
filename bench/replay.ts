/**
 * Replay benchmark: `npm run bench -- replay`. Prints figures; asserts nothing.
 *
 * For SQLite, and for PostgreSQL when one answers at BENCH_PG_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres):
 * 1. generates one firm's history: a folder "Clients" of BENCH_REPLAY_ITEMS (default 10,000)
 *    folders and files and BENCH_REPLAY_EVENTS (default 200,000) events over two years, in the
 *    shapes the services record (server/services/historyEvents.ts; its event builders where they
 *    need no transaction): the creates over the first 60% of the time, and all along renames,
 *    moves within, favourites, colours, index values, archives and restores, share links and
 *    guests, contacts, permissions, versions, a few folder copies and permanent deletes, and the
 *    downloads, previews and sign-ins replay skips; about 5% of the items and their events are
 *    in an "Internal" folder beside it. Ids are UUIDv7 of the event time (items' of their create),
 *    the hash chain is computed; inserted in chain order (SQLite: prepared inserts, one
 *    transaction per batch; PostgreSQL: psql \copy, else multi-row inserts), with the folders and
 *    files rows of the final state (replay asks which items exist now);
 * 2. the replay view of "Clients" (server/services/replay/view.ts replayView, an administrator's
 *    context) as of random moments: one cold run (no snapshots stored: it replays from the first
 *    event), then warm (every snapshot written, awaited) p50/p95, beside a plain SELECT of the
 *    same history rows its two passes read; the same for a small sub-folder;
 * 3. one step on the client, through the selector's code (src/features/replay/replayModel.ts
 *    stepAt): the first state at a random position k of a warm window (stepped from base), then
 *    Next (k to k+1), p50/p95, beside copyState(base) for reference; and the server round trip of the next window (`event=` the window's last entry; through the app with
 *    inject, gzip as a browser asks, gunzip and JSON.parse included) p50/p95;
 * 4. references for other machines: JSON.parse of the firm's state, a snapshot's decode.
 * Targets (the issue): the view p95 under 500 ms on both databases; one step p95 under 50 ms.
 *
 * BENCH_REPLAY_ITEMS, BENCH_REPLAY_EVENTS, BENCH_REPLAY_MOMENTS (warm moments, default 30),
 * BENCH_REPLAY_DB (default sqlite,postgres) make a quick run.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Papa from 'papaparse';
import { sql } from 'kysely';
import pg from 'pg';
import { ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import { nameKey } from '@common/names';
import {
  applyEvent,
  copyState,
  emptyReplayState,
  projectSubtree,
  type ReplayEvent,
  type ReplayItem,
  type ReplayState,
  type ReplayVersion,
} from '@common/replay';
import { REPLAY_SNAPSHOT_INTERVAL, type ReplayViewDto } from '@common/replayViews';
import { buildApp } from '@server/app';
import { loadConfig } from '@server/config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '@server/db/database';
import { systemClock } from '@server/ids';
import { CHAIN_COLUMNS } from '@server/repositories/history';
import { positionBefore, REPLAY_ENTITY_TYPES, replayEvents } from '@server/repositories/replay';
import type { RequestContext, Services } from '@server/services/context';
import type { NewEvent } from '@server/services/history';
import {
  canonicalJson,
  chainHash,
  GENESIS_HASH,
  historyIdAt,
  idLowerBound,
  type ChainLink,
} from '@server/services/historyChain';
import { exportRecordText, HISTORY_EXPORT_FORMAT } from '@server/services/historyCsv';
import {
  folderColorEvent,
  itemMovedEvent,
  itemReadEvent,
  itemRenamedEvent,
  itemStateEvent,
  type AppliedIndexValue,
  type ParentRef,
  type TypedItemRef,
} from '@server/services/historyEvents';
import { snapshotsSettled, stateAt } from '@server/services/replay/engine';
import { LOOK } from '@server/services/replay/scope';
import { replayView } from '@server/services/replay/view';
import { LocalObjectStore } from '@server/storage/localObjectStore';
import { stepAt } from '@src/features/replay/replayModel';
import { BENCH_ADMIN_NAME, seedBenchFirm, type BenchFirm } from './benchFirm';
import { percentile, postgresReachable, prng, scratchDatabase } from './benchUtils';

const PASSWORD = 'bench-replay-password';
/** Views measured cold (after dropping every snapshot). */
const COLD_RUNS = 1;
/** Views of the sub-folder measured. */
const SUB_MOMENTS = 10;
/** Random positions stepped per warm window. */
const STEPS_PER_WINDOW = 5;
/** Next windows fetched through the app. */
const ROUND_TRIPS = 15;

/** Options of {@link runReplayBench}. */
export interface ReplayBenchOptions {
  items?: number;
  events?: number;
  moments?: number;
}

/** One stored history row, as recordEvents writes it: the chain link and its export record. */
type Row = ChainLink & { export_record: string; export_format: number };

const COLUMNS: readonly (keyof Row)[] = [...CHAIN_COLUMNS, 'export_record', 'export_format'];

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15',
];
const COLORS = ['red', 'orange', 'green', 'blue', 'purple'];
const INDEX_FIELDS = [
  { id: 'field-tax-year', name: 'Tax year' },
  { id: 'field-client', name: 'Client number' },
  { id: 'field-kind', name: 'Document type' },
];

// ---- The events, in the shapes of historyEvents.ts's record functions -----------------------
// (those that need a transaction; the others are its own builders, imported above)

function nameField(item: TypedItemRef) {
  return item.type === 'file' ? { file_name: item.name } : { folder_name: item.name };
}

function sharedItem(item: TypedItemRef) {
  return item.type === 'folder'
    ? { folder: { id: item.id, name: item.name }, folder_id: item.id, folder_name: item.name }
    : { file: { id: item.id, name: item.name }, file_name: item.name };
}

/** recordItemCreated. */
function createdEvent(item: TypedItemRef, parent: ParentRef, version?: ReplayVersion): NewEvent {
  return {
    entityType: item.type,
    entityId: item.id,
    action: 'create',
    itemId: item.id,
    attributes: {
      name: item.name,
      next: { name: item.name },
      parent: { id: parent.id, name: parent.name },
      ...nameField(item),
      ...(version ? { replay: { version } } : {}),
    },
  };
}

/** recordFavoriteChanged. */
function favoriteEvent(
  item: TypedItemRef,
  userId: string,
  enabled: boolean,
  parent: ParentRef,
): NewEvent {
  return {
    entityType: item.type,
    entityId: item.id,
    action: 'update',
    itemId: item.id,
    attributes: {
      name: item.name,
      parent: { id: parent.id, name: parent.name },
      changes: { favorites: [{ user_id: userId, enabled }] },
    },
  };
}

/** recordIndexesApplied. */
function indexesAppliedEvent(item: TypedItemRef, values: AppliedIndexValue[]): NewEvent {
  return {
    entityType: 'applied_index',
    entityId: item.id,
    action: 'create_many',
    itemId: item.id,
    attributes: {
      index_values: values.map((v) => ({ name: v.name, value: v.value })),
      entity_id: item.id,
      ...nameField(item),
      replay: { applied: values.map((v) => ({ id: v.id, index_field_id: v.index_field_id })) },
    },
  };
}

/** recordIndexUpdated, and recordIndexArchived / Restored / Deleted (no previous value). */
function indexEvent(
  action: 'update' | 'archive' | 'restore' | 'delete',
  rowId: string,
  item: TypedItemRef,
  value: { name: string; value: string },
  previousValue?: string,
): NewEvent {
  return {
    entityType: 'applied_index',
    entityId: rowId,
    action,
    itemId: item.id,
    attributes: {
      name: value.name,
      value: value.value,
      index_values: [{ name: value.name, value: value.value }],
      ...(previousValue !== undefined ? { previous_value: previousValue } : {}),
      entity_id: item.id,
      ...nameField(item),
    },
  };
}

/** recordInviteSent / Cancelled (share_link), recordInviteAccepted / ShareRemoved (guest). */
function shareEvent(
  entityType: 'share_link' | 'external_share',
  action: 'create' | 'delete',
  shareId: string,
  email: string,
  item: TypedItemRef,
): NewEvent {
  return {
    entityType,
    entityId: shareId,
    action,
    itemId: item.id,
    attributes: { email, ...sharedItem(item) },
  };
}

/** recordContactLinked / Unlinked. */
function contactEvent(
  action: 'create' | 'delete',
  linkId: string,
  contactName: string,
  folder: ParentRef,
): NewEvent {
  return {
    entityType: 'folder_contact',
    entityId: linkId,
    action,
    itemId: folder.id,
    attributes: {
      contact_name: contactName,
      changes: { folder: { id: folder.id, name: folder.name } },
      folder_id: folder.id,
      folder_name: folder.name,
    },
  };
}

/** recordPermissionsAdded. */
function permissionsAddedEvent(folder: ParentRef, user: { id: string; name: string }): NewEvent {
  return {
    entityType: 'folder_permission',
    entityId: folder.id,
    action: 'create_many',
    itemId: folder.id,
    attributes: {
      permissions: [{ permissionable_id: user.id, permissionable_type: 'user', name: user.name }],
      folder_id: folder.id,
      folder_name: folder.name,
      folders: [{ id: folder.id, name: folder.name }],
    },
  };
}

/** recordVersionEvent add_version. */
function versionEvent(file: ParentRef, parent: ParentRef, number: number, size: number): NewEvent {
  return {
    entityType: 'file',
    entityId: file.id,
    action: 'add_version',
    itemId: file.id,
    attributes: {
      name: file.name,
      file_name: file.name,
      parent: { id: parent.id, name: parent.name },
      version: { number, size, sha256: null, content_type: 'application/pdf' },
    },
  };
}

/** recordFolderCopied. */
function copiedEvent(
  source: ParentRef,
  copy: ParentRef,
  prevParent: ParentRef,
  nextParent: ParentRef,
  copies: [string, string][],
): NewEvent {
  return {
    entityType: 'folder',
    entityId: source.id,
    action: 'copy',
    itemId: source.id,
    attributes: {
      name: source.name,
      copy: { id: copy.id, name: copy.name },
      changes: {
        prevParent: { id: prevParent.id, name: prevParent.name },
        nextParent: { id: nextParent.id, name: nextParent.name },
      },
      parent: { id: nextParent.id, name: nextParent.name },
      replay: { copies },
    },
  };
}

/** recordUserLogin / Logout. */
function userEvent(action: 'login' | 'logout', user: { id: string; name: string }): NewEvent {
  return {
    entityType: 'user',
    entityId: user.id,
    action,
    itemId: null,
    attributes: { name: user.name },
  };
}

// ---- The generator ----------------------------------------------------------------------------

/** What the generator made, besides the rows. */
interface Generated {
  /** The firm's state after the last event (the folders and files rows are made from it). */
  state: ReplayState;
  topId: string;
  /** A small folder in the top folder (for the sub-folder line), and when it was created. */
  sub: { id: string; items: number; createdMs: number } | null;
  start: number;
  end: number;
  events: number;
  replayable: number;
}

/** A pool of ids to draw from (swap-remove). */
class Pool {
  readonly ids: string[] = [];
  constructor(private readonly random: () => number) {}
  add(id: string): void {
    this.ids.push(id);
  }
  any(): string | undefined {
    return this.ids[Math.floor(this.random() * this.ids.length)];
  }
  take(): string | undefined {
    if (this.ids.length === 0) return undefined;
    const i = Math.floor(this.random() * this.ids.length);
    const id = this.ids[i]!;
    this.ids[i] = this.ids[this.ids.length - 1]!;
    this.ids.pop();
    return id;
  }
}

/**
 * Generates the events oldest first with the hash chain, applying each to a state to pick valid
 * targets (live items to rename, archived ones to restore, folders a move may go to).
 */
async function generate(
  firm: BenchFirm,
  options: { items: number; events: number },
  sink: (rows: Row[]) => Promise<void> | void,
): Promise<Generated> {
  const random = prng(7);
  const state = emptyReplayState();
  const end = Date.now() - 60_000;
  const start = end - 2 * 365 * 86_400_000;
  const span = end - start;
  const outsideItems = Math.max(20, Math.round(options.items * 0.05));
  /** The creates are spread over this share of the events. */
  const createSpan = 0.6 * options.events;

  const top = { folders: new Pool(random), files: new Pool(random) };
  const outside = { folders: new Pool(random), files: new Pool(random) };
  const archived = new Pool(random);
  const indexed = new Pool(random);
  const links: { id: string; itemId: string; email: string }[] = [];
  const guests: { id: string; itemId: string; email: string }[] = [];
  const contacts: { id: string; folderId: string; name: string }[] = [];
  let topCreated = 0;
  let topFolders = 0;
  let outsideCreated = 0;
  let replayable = 0;
  let topId = '';
  let outsideId = '';
  let sub: Generated['sub'] = null;

  const live = (id: string | undefined): ReplayItem | undefined => {
    const item = id === undefined ? undefined : state.items[id];
    return item && item.archivedRootId === null && item.destroyedAt === null ? item : undefined;
  };
  /** A live item of a pool (a few tries; pools keep ids of archived and destroyed items too). */
  const liveOf = (pool: Pool): ReplayItem | undefined => {
    for (let i = 0; i < 8; i++) {
      const item = live(pool.any());
      if (item) return item;
    }
    return undefined;
  };
  const ref = (id: string): ParentRef =>
    id === ROOT_FOLDER_ID
      ? { id: ROOT_FOLDER_ID, name: ROOT_FOLDER_NAME }
      : { id, name: state.items[id]?.name ?? '' };
  const typed = (item: ReplayItem): TypedItemRef => ({
    type: item.type,
    id: item.id,
    name: item.name,
  });
  const depth = (id: string): number => {
    let d = 0;
    for (let item = state.items[id]; item && d < 50; item = state.items[item.parentId]) d++;
    return d;
  };
  const size = (id: string) => Object.keys(projectSubtree(state, id).items).length;
  /** The pools an event on an item picks from: the top folder's mostly, 5% beside it. */
  const pools = () => (random() < 0.05 && outsideId ? outside : top);
  /** A live folder of `pool` with at most `max` items in it (itself included). */
  const smallFolder = (pool: Pool, max: number): ReplayItem | undefined => {
    const folder = liveOf(pool);
    return folder && size(folder.id) <= max ? folder : undefined;
  };
  /** A live folder to move or copy `item` into (the pool's, or its top folder). */
  const targetFor = (item: ReplayItem, pool: Pool, topOf: string): ReplayItem | undefined => {
    const target = random() < 0.2 ? state.items[topOf] : liveOf(pool);
    if (!target || target.id === item.parentId || target.id === item.id) return undefined;
    if (item.type === 'folder' && projectSubtree(state, item.id).items[target.id]) return undefined;
    return target;
  };

  /** The next event at `ms` (k: the event's index), or null to make a read instead. */
  const next = (k: number, ms: number, user: BenchFirm['users'][number]): NewEvent | null => {
    const newId = () => historyIdAt(ms);
    if (k === 0 || k === 1) {
      const id = newId();
      if (k === 0) topId = id;
      else outsideId = id;
      return createdEvent(
        { type: 'folder', id, name: k === 0 ? 'Clients' : 'Internal' },
        ref(ROOT_FOLDER_ID),
      );
    }
    const due = (n: number) => Math.min(n, Math.ceil((n * k) / createSpan));
    if (topCreated < due(options.items) || outsideCreated < due(outsideItems)) {
      const inTop = topCreated < due(options.items);
      const pool = inTop ? top : outside;
      const folderWanted = inTop ? topFolders * 10 <= topCreated : outsideCreated % 8 === 0;
      const id = newId();
      if (inTop) topCreated++;
      else outsideCreated++;
      if (folderWanted) {
        if (inTop) topFolders++;
        const parent = liveOf(pool.folders);
        const parentId =
          parent && random() < 0.6 && depth(parent.id) < 4 ? parent.id : inTop ? topId : outsideId;
        pool.folders.add(id);
        return createdEvent(
          { type: 'folder', id, name: `Client ${String(k).padStart(6, '0')}` },
          ref(parentId),
        );
      }
      const parent = random() < 0.9 ? liveOf(pool.folders) : undefined;
      pool.files.add(id);
      const bytes = 20_000 + Math.floor(random() * 2_000_000);
      return createdEvent(
        { type: 'file', id, name: `Statement ${String(k).padStart(6, '0')}.pdf` },
        ref(parent?.id ?? (inTop ? topId : outsideId)),
        { number: 1, size: bytes, sha256: null },
      );
    }
    const pool = pools();
    const topOf = pool === top ? topId : outsideId;
    let r = random() * TOTAL_WEIGHT;
    let kind: OpKind = 'download';
    for (const [name, weight] of OP_WEIGHTS) {
      r -= weight;
      if (r <= 0) {
        kind = name;
        break;
      }
    }
    const fileOrFolder = (folderShare: number) =>
      random() < folderShare ? liveOf(pool.folders) : liveOf(pool.files);
    switch (kind) {
      case 'download':
      case 'preview': {
        const file = liveOf(pool.files);
        return file
          ? itemReadEvent(
              typed(file),
              kind === 'preview' ? 'preview' : 'download',
              ref(file.parentId),
            )
          : null;
      }
      case 'login':
        return userEvent('login', user);
      case 'logout':
        return userEvent('logout', user);
      case 'rename': {
        const item = fileOrFolder(0.15);
        if (!item) return null;
        const name =
          item.type === 'file'
            ? `Document ${String(k).padStart(6, '0')}.pdf`
            : `Client ${String(k).padStart(6, '0')}`;
        return itemRenamedEvent(item, { prev: item.name, next: name }, ref(item.parentId));
      }
      case 'move': {
        const item = random() < 0.15 ? smallFolder(pool.folders, 30) : liveOf(pool.files);
        const target = item && targetFor(item, pool.folders, topOf);
        if (!item || !target) return null;
        return itemMovedEvent(typed(item), ref(item.parentId), ref(target.id));
      }
      case 'favorite': {
        const item = fileOrFolder(0.3);
        if (!item) return null;
        const enabled = !item.favorites.includes(user.id);
        return favoriteEvent(typed(item), user.id, enabled, ref(item.parentId));
      }
      case 'color': {
        const folder = liveOf(pool.folders);
        if (!folder) return null;
        const clear = folder.colors[user.id] !== undefined && random() < 0.3;
        const color = clear ? null : COLORS[Math.floor(random() * COLORS.length)]!;
        return folderColorEvent(typed(folder), ref(folder.parentId), user.id, color);
      }
      case 'indexApply': {
        const item = fileOrFolder(0.1);
        if (!item) return null;
        const fields = random() < 0.5 ? [INDEX_FIELDS[0]!] : [INDEX_FIELDS[1]!, INDEX_FIELDS[2]!];
        indexed.add(item.id);
        return indexesAppliedEvent(
          typed(item),
          fields.map((f) => ({
            id: newId(),
            index_field_id: f.id,
            name: f.name,
            value: f.name === 'Tax year' ? String(2018 + (k % 8)) : `V${k % 997}`,
          })),
        );
      }
      case 'indexChange': {
        const item = liveOf(indexed);
        const row = item?.indexes[Math.floor(random() * item.indexes.length)];
        if (!item || !row?.id) return null;
        const value = { name: row.name, value: row.value };
        const roll = random();
        if (roll < 0.6) {
          return indexEvent(
            'update',
            row.id,
            typed(item),
            { ...value, value: `W${k % 991}` },
            row.value,
          );
        }
        if (roll < 0.9)
          return indexEvent(row.archived ? 'restore' : 'archive', row.id, typed(item), value);
        return indexEvent('delete', row.id, typed(item), value);
      }
      case 'archive': {
        const item = random() < 0.1 ? smallFolder(pool.folders, 30) : liveOf(pool.files);
        if (!item) return null;
        archived.add(item.id);
        return itemStateEvent('archive', typed(item), ref(item.parentId));
      }
      case 'restore':
      case 'delete': {
        const id = archived.take();
        const item = id === undefined ? undefined : state.items[id];
        if (!item || item.archivedRootId !== item.id || item.destroyedAt !== null) return null;
        if (kind === 'delete') return itemStateEvent('delete', typed(item), ref(item.parentId));
        const parent = state.items[item.parentId];
        const back =
          item.parentId === ROOT_FOLDER_ID ||
          (parent !== undefined && parent.archivedRootId === null && parent.destroyedAt === null);
        return itemStateEvent('restore', typed(item), ref(back ? item.parentId : ROOT_FOLDER_ID));
      }
      case 'invite': {
        const item = fileOrFolder(0.3);
        if (!item) return null;
        const link = { id: newId(), itemId: item.id, email: `client${k % 4000}@example.com` };
        links.push(link);
        return shareEvent('share_link', 'create', link.id, link.email, typed(item));
      }
      case 'cancel':
      case 'accept': {
        const link = links.splice(Math.floor(random() * links.length), 1)[0];
        const item = live(link?.itemId);
        if (!link || !item) return null;
        if (kind === 'cancel') {
          return shareEvent('share_link', 'delete', link.id, link.email, typed(item));
        }
        const guest = { id: newId(), itemId: item.id, email: link.email };
        guests.push(guest);
        return shareEvent('external_share', 'create', guest.id, guest.email, typed(item));
      }
      case 'unshare': {
        const guest = guests.splice(Math.floor(random() * guests.length), 1)[0];
        const item = live(guest?.itemId);
        if (!guest || !item) return null;
        return shareEvent('external_share', 'delete', guest.id, guest.email, typed(item));
      }
      case 'contact': {
        if (random() < 0.3 && contacts.length > 0) {
          const link = contacts.splice(Math.floor(random() * contacts.length), 1)[0]!;
          if (!live(link.folderId)) return null;
          return contactEvent('delete', link.id, link.name, ref(link.folderId));
        }
        const folder = liveOf(pool.folders);
        if (!folder) return null;
        const link = { id: newId(), folderId: folder.id, name: `Contact ${k % 1500}` };
        contacts.push(link);
        return contactEvent('create', link.id, link.name, ref(folder.id));
      }
      case 'permission': {
        const folder = liveOf(pool.folders);
        return folder ? permissionsAddedEvent(ref(folder.id), user) : null;
      }
      case 'version': {
        const file = liveOf(pool.files);
        if (!file) return null;
        const number = (file.version?.number ?? 1) + 1;
        return versionEvent(ref(file.id), ref(file.parentId), number, 20_000 + (k % 90_000));
      }
      case 'copy': {
        const source = smallFolder(pool.folders, 20);
        const target = source && targetFor(source, pool.folders, topOf);
        if (!source || !target) return null;
        const tree = projectSubtree(state, source.id);
        const kept = Object.values(tree.items).filter(
          (i) => i.archivedRootId === null && i.destroyedAt === null,
        );
        const folders = [source, ...kept.filter((i) => i.type === 'folder' && i.id !== source.id)];
        const files = kept.filter((i) => i.type === 'file');
        const pairs: [string, string][] = [...folders, ...files].map((i) => [i.id, newId()]);
        for (const [from, to] of pairs) {
          (state.items[from]?.type === 'folder' ? pool.folders : pool.files).add(to);
        }
        return copiedEvent(
          ref(source.id),
          { id: pairs[0]![1], name: `${source.name} (copy ${k})` },
          ref(source.parentId),
          ref(target.id),
          pairs,
        );
      }
    }
  };

  let prev = GENESIS_HASH;
  let lastId: string | null = null;
  let batch: Row[] = [];
  for (let k = 0; k < options.events; k++) {
    const ms = Math.floor(start + ((k + random()) * span) / options.events);
    const user = firm.users[Math.floor(random() * firm.users.length)]!;
    let event = next(k, ms, user);
    if (!event) {
      const file = liveOf(top.files);
      event = file
        ? itemReadEvent(typed(file), 'download', ref(file.parentId))
        : userEvent('login', user);
    }
    const id: string = historyIdAt(ms, lastId);
    lastId = id;
    const content = {
      id,
      database_id: firm.databaseId,
      chain_seq: k + 1,
      entity_type: event.entityType,
      entity_id: event.entityId,
      item_id:
        event.itemId !== undefined
          ? event.itemId
          : event.entityType === 'folder' || event.entityType === 'file'
            ? event.entityId
            : null,
      action: event.action,
      user_id: user.id,
      user_name: user.name,
      attributes: canonicalJson(event.attributes),
      ip: `10.0.${k % 200}.${k % 250}`,
      user_agent: AGENTS[k % AGENTS.length]!,
      created_at: new Date(ms).toISOString(),
    };
    const hash = chainHash(prev, content);
    batch.push({
      ...content,
      prev_hash: prev,
      hash,
      export_record: exportRecordText({ ...content, hash }),
      export_format: HISTORY_EXPORT_FORMAT,
    });
    prev = hash;
    const replayEvent: ReplayEvent = {
      id,
      seq: k + 1,
      entity_type: content.entity_type,
      entity_id: content.entity_id,
      item_id: content.item_id,
      action: content.action,
      user_id: user.id,
      user_name: user.name,
      attributes: event.attributes as Record<string, unknown>,
      created_at: content.created_at,
    };
    if ((REPLAY_ENTITY_TYPES as readonly string[]).includes(content.entity_type)) replayable++;
    applyEvent(state, replayEvent);
    // The sub-folder: the first folder of the top folder past a tenth of the events.
    if (
      !sub &&
      k > options.events / 10 &&
      event.entityType === 'folder' &&
      event.action === 'create'
    ) {
      const parentId = state.items[event.entityId]?.parentId;
      if (parentId === topId) sub = { id: event.entityId, items: 0, createdMs: ms };
    }
    if (batch.length === 10_000) {
      await sink(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await sink(batch);
  if (sub) sub.items = Object.keys(projectSubtree(state, sub.id).items).length;
  return { state, topId, sub, start, end, events: options.events, replayable };
}

type OpKind =
  | 'download'
  | 'preview'
  | 'login'
  | 'logout'
  | 'rename'
  | 'move'
  | 'favorite'
  | 'color'
  | 'indexApply'
  | 'indexChange'
  | 'archive'
  | 'restore'
  | 'delete'
  | 'invite'
  | 'cancel'
  | 'accept'
  | 'unshare'
  | 'contact'
  | 'permission'
  | 'version'
  | 'copy';

/** How often each operation happens once the items exist, roughly as in a document office. */
const OP_WEIGHTS: [OpKind, number][] = [
  ['download', 22],
  ['preview', 12],
  ['login', 5],
  ['logout', 3],
  ['rename', 8],
  ['move', 6],
  ['favorite', 8],
  ['color', 3],
  ['indexApply', 7],
  ['indexChange', 3],
  ['archive', 3],
  ['restore', 2],
  ['delete', 0.1],
  ['invite', 3],
  ['cancel', 1],
  ['accept', 1],
  ['unshare', 0.3],
  ['contact', 1],
  ['permission', 0.5],
  ['version', 2],
  ['copy', 0.1],
];
const TOTAL_WEIGHT = OP_WEIGHTS.reduce((s, [, w]) => s + w, 0);

// ---- Loading ---------------------------------------------------------------------------------

function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/** Generates the history into the database (see the module comment). */
async function loadHistory(
  database: DatabaseHandle,
  url: string,
  firm: BenchFirm,
  options: { items: number; events: number },
  dir: string,
): Promise<Generated> {
  const sqlite = database.sqlite?.connection;
  if (sqlite) {
    const insert = sqlite.prepare(
      `insert into history_events (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')})`,
    );
    const insertMany = sqlite.transaction((rows: Row[]) => {
      for (const row of rows) insert.run(...COLUMNS.map((c) => row[c]));
    });
    return generate(firm, options, (rows) => insertMany(rows));
  }
  if (hasCommand('psql')) {
    const csvFile = path.join(dir, 'events.csv');
    const out = createWriteStream(csvFile);
    const generated = await generate(firm, options, async (rows) => {
      const text = `${Papa.unparse(rows.map((r) => COLUMNS.map((c) => r[c])))}\r\n`;
      if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', resolve));
    });
    await new Promise<void>((resolve) => out.end(resolve));
    const copy = spawnSync(
      'psql',
      [
        url,
        '-v',
        'ON_ERROR_STOP=1',
        '-c',
        `\\copy history_events (${COLUMNS.join(', ')}) from '${csvFile}' csv`,
      ],
      { encoding: 'utf8' },
    );
    if (copy.status !== 0) throw new Error(`psql \\copy failed: ${copy.stderr}`);
    rmSync(csvFile);
    return generated;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const generated = await generate(firm, options, async (rows) => {
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const values: unknown[] = [];
      const tuples = chunk.map((row, r) => {
        for (const c of COLUMNS) values.push(row[c]);
        return `(${COLUMNS.map((_, n) => `$${r * COLUMNS.length + n + 1}`).join(', ')})`;
      });
      await client.query(
        `insert into history_events (${COLUMNS.join(', ')}) values ${tuples.join(', ')}`,
        values,
      );
    }
  });
  await client.end();
  return generated;
}

/** The folders and files rows of the final state (every item not destroyed). */
async function loadItems(
  database: DatabaseHandle,
  firm: BenchFirm,
  state: ReplayState,
): Promise<number> {
  const now = state.at ?? new Date().toISOString();
  const taken = new Set<string>();
  /** A name unique among the live rows of its folder (copies may meet their sources). */
  const unique = (item: ReplayItem) => {
    let name = item.name;
    if (item.archivedRootId === null) {
      if (taken.has(`${item.parentId}\u0000${nameKey(name)}`))
        name = `${name} ${item.id.slice(-6)}`;
      taken.add(`${item.parentId}\u0000${nameKey(name)}`);
    }
    return name;
  };
  const items = Object.values(state.items).filter((i) => i.destroyedAt === null);
  const folders = items.filter((i) => i.type === 'folder');
  const files = items.filter((i) => i.type === 'file');
  for (let i = 0; i < folders.length; i += 500) {
    await database.db
      .insertInto('folders')
      .values(
        folders.slice(i, i + 500).map((f) => {
          const name = unique(f);
          return {
            id: f.id,
            database_id: firm.databaseId,
            parent_id: f.parentId,
            name,
            name_key: nameKey(name),
            created_by: firm.adminId,
            created_at: f.createdAt,
            updated_at: f.updatedAt,
            archived_at: f.archivedRootId === null ? null : now,
            archived_root_id: f.archivedRootId,
          };
        }),
      )
      .execute();
  }
  for (let i = 0; i < files.length; i += 500) {
    await database.db
      .insertInto('files')
      .values(
        files.slice(i, i + 500).map((f) => {
          const name = unique(f);
          return {
            id: f.id,
            database_id: firm.databaseId,
            folder_id: f.parentId,
            name,
            name_key: nameKey(name),
            extension: 'pdf',
            size: f.version?.size ?? 0,
            content_type: 'application/pdf',
            storage_key: `${firm.databaseId}/${f.id}`,
            status: 'ready' as const,
            sha256: null,
            created_by: firm.adminId,
            created_at: f.createdAt,
            updated_at: f.updatedAt,
            archived_at: f.archivedRootId === null ? null : now,
            archived_root_id: f.archivedRootId,
            upload_batch_id: null,
            upload_client_key: null,
            upload_name_key: null,
            store_upload_id: null,
            upload_version_of: null,
          };
        }),
      )
      .execute();
  }
  return items.length;
}

// ---- Measuring -------------------------------------------------------------------------------

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(1)} ms`);
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const count = (n: number) => n.toLocaleString('en-US');

interface Figures {
  p50: number;
  p95: number;
  n: number;
}

function figures(times: number[]): Figures {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length };
}

function median(times: number[]): number {
  return figures(times).p50;
}

/** One line of the table: label, p50, p95, and the target beside them. */
function line(label: string, f: Figures, target?: number): string {
  const verdict =
    target === undefined
      ? ''
      : `p95 < ${ms(target)}: ${f.p95 < target ? 'met' : `MISSED (${(f.p95 / target).toFixed(1)}×)`}`;
  return `  ${label.padEnd(58)} ${ms(f.p50).padStart(9)} ${ms(f.p95).padStart(9)}  ${String(f.n).padStart(4)}  ${verdict}`;
}

/** The chain position of the moment `iso` (the view's `as_of`). */
async function seqAt(services: Services, databaseId: string, iso: string): Promise<number> {
  const position = await positionBefore(services.db, databaseId, idLowerBound(Date.parse(iso) + 1));
  return position?.seq ?? 0;
}

/** The snapshots stored for the firm. */
async function snapshotCount(services: Services, databaseId: string): Promise<number> {
  const row = await services.db
    .selectFrom('replay_snapshots')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('database_id', '=', databaseId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Random ISO moments in [from, to], from a seeded PRNG. */
function momentsBetween(random: () => number, n: number, from: number, to: number): string[] {
  return Array.from({ length: n }, () => new Date(from + random() * (to - from)).toISOString());
}

/** A firm's replay history in a scratch database, ready to measure (see {@link makeReplayFirm}). */
export interface ReplayFirm {
  database: DatabaseHandle;
  services: Services;
  /** An administrator of the firm. */
  ctx: RequestContext;
  store: LocalObjectStore;
  generated: Generated;
  /** Folders and files rows written (the items not destroyed). */
  rows: number;
  /** Time to generate, hash and load it all. */
  loadMs: number;
  /** Closes the database and removes it with its folder. */
  close: () => Promise<void>;
}

/**
 * Makes the benchmark's firm (step 1 of the module comment) in a new SQLite or PostgreSQL
 * database, for the benchmark and for experiments beside it.
 */
export async function makeReplayFirm(
  kind: 'sqlite' | 'postgres',
  options: { items: number; events: number },
): Promise<ReplayFirm> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `dossier-bench-replay-${kind}-`));
  const { databaseUrl, dropDatabase } = await scratchDatabase(
    kind,
    dataDir,
    'dossier_bench_replay',
  );
  const database = openDatabase(databaseUrl);
  const close = async () => {
    await snapshotsSettled();
    await database.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const started = performance.now();
    await migrateToLatest(database.db);
    const firm = await seedBenchFirm(database.db, PASSWORD, 9);
    const generated = await loadHistory(database, databaseUrl, firm, options, dataDir);
    const rows = await loadItems(database, firm, generated.state);
    if (kind === 'postgres') {
      await database.pool?.query('vacuum analyze history_events');
      await database.pool?.query('analyze');
    } else {
      database.sqlite?.connection.exec('analyze');
    }
    const loadMs = performance.now() - started;
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      LOGIN_RATE_LIMIT: '1000',
      UPLOAD_CLEANUP_INTERVAL_MINUTES: '0',
    });
    const store = new LocalObjectStore(dataDir, config.sessionSecret);
    await store.init();
    const services: Services = {
      db: database.db,
      dialect: database.dialect,
      store,
      clock: systemClock,
      config,
    };
    const ctx: RequestContext = {
      userId: firm.adminId,
      userName: BENCH_ADMIN_NAME,
      databaseId: firm.databaseId,
      role: 'admin',
      sessionId: 'bench',
      ip: '127.0.0.1',
      userAgent: 'bench',
    };
    return { database, services, ctx, store, generated, rows, loadMs, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** One database kind, end to end. */
async function benchDatabase(
  kind: 'sqlite' | 'postgres',
  options: { items: number; events: number; moments: number },
): Promise<void> {
  console.log(
    `\nreplay [${kind}]: a folder of ${count(options.items)} items, ${count(options.events)} events over 2 years (snapshots every ${count(REPLAY_SNAPSHOT_INTERVAL)} positions)`,
  );
  const made = await makeReplayFirm(kind, options);
  const { database, services, ctx, store, generated } = made;
  const databaseId = ctx.databaseId;
  try {
    const topItems = Object.keys(projectSubtree(generated.state, generated.topId).items).length;
    console.log(
      `  data: ${count(generated.events)} events (${count(generated.replayable)} of the entity types replay reads), ${count(Object.keys(generated.state.items).length)} items in the firm's state (${count(topItems)} in the folder, ${count(made.rows)} rows not destroyed); generated, hashed and loaded in ${ms(made.loadMs)}`,
    );
    let started = performance.now();
    const random = prng(11);
    // Moments after the folder's first items, up to now.
    const from = generated.start + (generated.end - generated.start) * 0.02;
    const view = (folderId: string, asOf: string) =>
      replayView(services, ctx, folderId, { as_of: asOf });

    // (a) Cold: no snapshots (the run starts from the empty state; it stores the snapshots it
    // passes, in the background).
    const cold: { seq: number; time: number }[] = [];
    for (const asOf of momentsBetween(random, COLD_RUNS, from, generated.end)) {
      await snapshotsSettled();
      await database.db.deleteFrom('replay_snapshots').execute();
      const t = performance.now();
      await view(generated.topId, asOf);
      cold.push({ seq: await seqAt(services, databaseId, asOf), time: performance.now() - t });
    }
    await snapshotsSettled();
    const afterCold = await snapshotCount(services, databaseId);

    // Warm: every snapshot written (a replay to the newest position stores those still missing).
    started = performance.now();
    await stateAt(services, databaseId, generated.events);
    await snapshotsSettled();
    const snapshotSeconds = (performance.now() - started) / 1000;
    const snapshots = await database.db
      .selectFrom('replay_snapshots')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        sql<number | null>`max(length(state))`.as('largest'),
      ])
      .where('database_id', '=', databaseId)
      .executeTakeFirstOrThrow();

    const warm: number[] = [];
    const selects: number[] = [];
    const rowsRead: number[] = [];
    const steps: number[] = [];
    const firsts: number[] = [];
    const copies: number[] = [];
    /** The next windows to fetch through the app: the folder and its window's last entry. */
    const nextWindows: { folderId: string; eventId: string }[] = [];
    for (const asOf of momentsBetween(random, options.moments, from, generated.end)) {
      const t = performance.now();
      const dto = await view(generated.topId, asOf);
      warm.push(performance.now() - t);
      // The same rows with a plain SELECT: pass 1 (snapshot, moment], pass 2 (snapshot, end].
      const target = await seqAt(services, databaseId, asOf);
      const snapshot = Math.max(0, target - LOOK);
      const startSeq = snapshot - (snapshot % REPLAY_SNAPSHOT_INTERVAL);
      const endSeq = Math.max(target, dto.entries.at(-1)?.event.seq ?? target);
      const s = performance.now();
      const read =
        (await replayEvents(services.db, databaseId, startSeq, target, target)).length +
        (await replayEvents(services.db, databaseId, startSeq, endSeq, endSeq)).length;
      selects.push(performance.now() - s);
      rowsRead.push(read);
      const last = dto.entries.at(-1);
      if (last && dto.has_later)
        nextWindows.push({ folderId: dto.folder_id, eventId: last.event.id });

      // (b) One step on the client, in the window as the client has it (JSON), through the
      // selector's own code (replayModel.ts stepAt): the first state shown at a random position
      // k (stepped from base), then Next (k → k+1, from the states it cached); beside it the
      // reference of copying the whole base, the way before copy-on-write steps.
      const client = JSON.parse(JSON.stringify(dto)) as ReplayViewDto;
      if (client.entries.length < 2) continue;
      for (let i = 0; i < STEPS_PER_WINDOW; i++) {
        const fresh = JSON.parse(JSON.stringify(dto)) as ReplayViewDto;
        const k = Math.floor(random() * (fresh.entries.length - 1));
        const t0 = performance.now();
        stepAt(fresh, k);
        firsts.push(performance.now() - t0);
        const u = performance.now();
        stepAt(fresh, k + 1);
        steps.push(performance.now() - u);
        const c = performance.now();
        copyState(client.base);
        copies.push(performance.now() - c);
      }
    }

    // The sub-folder, at moments after it was made.
    const subTimes: number[] = [];
    if (generated.sub) {
      const moments = momentsBetween(random, SUB_MOMENTS, generated.sub.createdMs, generated.end);
      for (const asOf of moments) {
        const t = performance.now();
        await view(generated.sub.id, asOf);
        subTimes.push(performance.now() - t);
      }
    }

    // The server round trip of the next window, through the app (gzip, as a browser asks).
    const app = await buildApp({
      ...services,
      localStore: store,
      serveClient: false,
      ...(database.pool ? { dbPool: database.pool } : {}),
    });
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/rest/private/users/authenticate',
      payload: { username: 'admin', password: PASSWORD },
    });
    const setCookie = signIn.headers['set-cookie'];
    const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0] ?? '';
    const trips: number[] = [];
    let payloadBytes = 0;
    let wireBytes = 0;
    for (const next of nextWindows.slice(0, ROUND_TRIPS)) {
      const t = performance.now();
      const response = await app.inject({
        method: 'GET',
        url: `/api/rest/replay/folders/${next.folderId}?event=${next.eventId}`,
        headers: { cookie, 'accept-encoding': 'gzip' },
      });
      if (response.statusCode !== 200) {
        throw new Error(`next window: ${response.statusCode} ${response.payload.slice(0, 200)}`);
      }
      const body =
        response.headers['content-encoding'] === 'gzip'
          ? gunzipSync(response.rawPayload)
          : response.rawPayload;
      JSON.parse(body.toString('utf8'));
      trips.push(performance.now() - t);
      payloadBytes = Math.max(payloadBytes, body.length);
      wireBytes = Math.max(wireBytes, response.rawPayload.length);
    }
    await app.close();

    // References: JSON.parse of the firm's state, a snapshot's decode.
    const stateJson = JSON.stringify(generated.state);
    const zipped = gzipSync(Buffer.from(stateJson));
    const parses: number[] = [];
    const decodes: number[] = [];
    for (let i = 0; i < 7; i++) {
      let t = performance.now();
      JSON.parse(stateJson);
      parses.push(performance.now() - t);
      t = performance.now();
      JSON.parse(gunzipSync(Buffer.from(zipped.toString('base64'), 'base64')).toString('utf8'));
      decodes.push(performance.now() - t);
    }

    const largest = Number(snapshots.largest ?? 0);
    console.log(
      `  snapshots: ${count(Number(snapshots.n))} stored, ${count(afterCold)} of them by the cold view (its check for items destroyed since replays to the newest event), the rest written and settled in ${snapshotSeconds.toFixed(1)} s; a state of ${mb(stateJson.length)} JSON, ${mb(largest)} stored (gzip, base64) at most`,
    );
    console.log(
      `  ${'measure'.padEnd(58)} ${'p50'.padStart(9)} ${'p95'.padStart(9)}  ${'n'.padStart(4)}  target`,
    );
    console.log(
      `  view cold (no snapshots stored yet): ${cold.map((c) => `${ms(c.time)} at position ${count(c.seq)}`).join('; ')}`,
    );
    console.log(line('view as of a random moment (warm)', figures(warm), 500));
    console.log(
      line(
        `  reference: plain SELECT of the same rows (median ${count(median(rowsRead))})`,
        figures(selects),
      ),
    );
    if (generated.sub) {
      console.log(
        line(
          `view of a sub-folder (${count(generated.sub.items)} items, warm)`,
          figures(subTimes),
          500,
        ),
      );
    }
    console.log(line('one step on the client (Next: stepAt k → k+1)', figures(steps), 50));
    console.log(line('  first state of a window (stepAt k from base)', figures(firsts)));
    console.log(line('  reference: copyState(base), the whole subtree', figures(copies)));
    console.log(
      line(
        `next window, server round trip (inject, gzip ${mb(wireBytes)} of ${mb(payloadBytes)})`,
        figures(trips),
      ),
    );
    console.log(
      line(`reference: JSON.parse of the firm's state (${mb(stateJson.length)})`, figures(parses)),
    );
    console.log(
      line('reference: decode of a snapshot (base64, gunzip, JSON.parse)', figures(decodes)),
    );
  } finally {
    await made.close();
  }
}

/**
 * Runs the replay benchmark on SQLite, and on PostgreSQL when reachable; prints its figures.
 */
export async function runReplayBench(options: ReplayBenchOptions = {}): Promise<void> {
  const resolved = {
    items: options.items ?? Number(process.env.BENCH_REPLAY_ITEMS ?? 10_000),
    events: options.events ?? Number(process.env.BENCH_REPLAY_EVENTS ?? 200_000),
    moments: options.moments ?? Number(process.env.BENCH_REPLAY_MOMENTS ?? 30),
  };
  const kinds = (process.env.BENCH_REPLAY_DB ?? 'sqlite,postgres').split(',');
  if (kinds.includes('sqlite')) await benchDatabase('sqlite', resolved);
  if (kinds.includes('postgres')) {
    if (await postgresReachable()) await benchDatabase('postgres', resolved);
    else console.log('\nreplay [postgres]: no PostgreSQL at BENCH_PG_URL, skipped');
  }
}

// Run directly: `tsx bench/replay.ts`.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runReplayBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
