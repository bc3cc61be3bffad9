/**
 * Helpers of the replay tests (replay.test.ts, replayProperty.test.ts): uploads through the API
 * (so each file has its create event), the firm's newest event, the replay view and the state it
 * steps to, and the "listing" of a folder's subtree — read from the tables as they are now, or
 * projected from a replayed state — in one shape, so the two can be compared.
 */
import { createHash } from 'node:crypto';
import { expect } from '@jest/globals';
import { contentTypeFor } from '@common/files';
import type { FileDto } from '@common/entities';
import { splitFileName } from '@common/names';
import { copyState, stepSubtree, type ReplayState } from '@common/replay';
import { REPLAY_ROOT_ID, type ReplayViewDto, type ReplayViewQuery } from '@common/replayViews';
import type { CreateUploadResponse } from '@common/uploads';
import { call, type Actor } from './organiseHelpers';
import type { TestServer } from './helpers';

/**
 * Uploads a file through the API (create, presigned PUT, record) and answers the record; with
 * `extra.version_of` the upload is a new version of that file (in `folderId`, its folder).
 */
export async function uploadFile(
  server: TestServer,
  actor: Actor,
  folderId: string,
  name: string,
  content = `content of ${name}`,
  extra: { version_of?: string } = {},
): Promise<FileDto> {
  const bytes = Buffer.from(content);
  const { extension } = splitFileName(name);
  const created = await call(server, actor, 'POST', '/api/rest/files', {
    folder_id: folderId,
    name,
    extension,
    content_type: contentTypeFor(extension),
    size: bytes.length,
    ...extra,
  });
  expect(created.statusCode).toBe(201);
  const upload = created.json<CreateUploadResponse>();
  let status: number;
  if (upload.url.startsWith('/')) {
    status = (
      await server.app.inject({
        method: upload.method,
        url: upload.url,
        headers: upload.headers,
        payload: bytes,
      })
    ).statusCode;
  } else {
    status = (
      await fetch(upload.url, {
        method: upload.method,
        headers: upload.headers,
        body: new Uint8Array(bytes),
      })
    ).status;
  }
  expect(status).toBe(200);
  const recorded = await call(server, actor, 'POST', '/api/rest/files/record', {
    id: upload.id,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  });
  expect(recorded.statusCode).toBe(201);
  return recorded.json<FileDto>();
}

/** The id of the firm's newest history event. */
export async function newestEventId(server: TestServer, databaseId: string): Promise<string> {
  const row = await server.services.db
    .selectFrom('history_events')
    .select('id')
    .where('database_id', '=', databaseId)
    .orderBy('chain_seq', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** GET the replay view of a folder ('' or REPLAY_ROOT_ID for the root), expecting 200. */
export async function replayView(
  server: TestServer,
  actor: Actor,
  folderId: string,
  query: ReplayViewQuery = {},
): Promise<ReplayViewDto> {
  const search = new URLSearchParams(query as Record<string, string>).toString();
  const id = folderId === '' ? REPLAY_ROOT_ID : folderId;
  const response = await call(
    server,
    actor,
    'GET',
    `/api/rest/replay/folders/${id}${search ? `?${search}` : ''}`,
  );
  expect(response.statusCode).toBe(200);
  return response.json<ReplayViewDto>();
}

/** The state at the view's moment, stepped on the client's way (base, then entries[0..position]). */
export function stateOf(view: ReplayViewDto): ReplayState {
  const state = copyState(view.base);
  for (const entry of view.entries.slice(0, view.position + 1)) {
    stepSubtree(state, view.folder_id, entry.event, entry.enters);
  }
  return state;
}

/**
 * One folder or file of a subtree as the listing compares it: what the issue asks replay to show,
 * seen by one user (their favourite and colour). Arrays are sorted.
 */
export interface ListedItem {
  type: 'folder' | 'file';
  name: string;
  parentId: string;
  archived: boolean;
  favorite: boolean;
  /** The user's colour key (folders; null: the default). */
  color: string | null;
  /** Live applied index values: [field name, value]. */
  indexes: [string, string][];
  /** Names of the linked contacts. */
  contacts: string[];
  /** Folder permissions: [permissionable type, id]. */
  permissions: [string, string][];
  /** Addresses of the share-link invitations not cancelled. */
  shares: string[];
  /**
   * A file's newest version: number and size. Its sha256 is left out: a file recorded or copied
   * before its bytes were fingerprinted gets it later in the background (services/fingerprints.ts),
   * which is no event, so replay keeps the version's sha256 as its event said (null).
   */
  version: { number: number; size: number | null } | null;
}

/** A subtree's items by id (live and archived; destroyed ones are not listed). */
export type Listing = Record<string, ListedItem>;

function sortPairs(pairs: [string, string][]): [string, string][] {
  return pairs.sort((a, b) => (a.join('\u0000') < b.join('\u0000') ? -1 : 1));
}

/** The listing of a replayed subtree state, as `viewerId` sees it (tombstones left out). */
export function projectListing(state: ReplayState, viewerId: string): Listing {
  const out: Listing = {};
  for (const item of Object.values(state.items)) {
    if (item.destroyedAt !== null) continue;
    out[item.id] = {
      type: item.type,
      name: item.name,
      parentId: item.parentId,
      archived: item.archivedRootId !== null,
      favorite: item.favorites.includes(viewerId),
      color: item.type === 'folder' ? (item.colors[viewerId] ?? null) : null,
      indexes: sortPairs(item.indexes.filter((i) => !i.archived).map((i) => [i.name, i.value])),
      contacts: item.contacts.map((c) => c.name).sort(),
      permissions: sortPairs(item.permissions.map((p) => [p.type, p.id])),
      shares: item.shares
        .filter((s) => s.kind === 'link' && s.email !== null)
        .map((s) => s.email!)
        .sort(),
      version:
        item.type === 'file' && item.version
          ? { number: item.version.number, size: item.version.size }
          : null,
    };
  }
  return out;
}

/**
 * The listing of the subtree of `rootId` (the folder itself included) as the tables hold it now,
 * as `viewerId` sees it: every folder below it and every recorded file, live or archived.
 */
export async function captureListing(
  server: TestServer,
  databaseId: string,
  rootId: string,
  viewerId: string,
): Promise<Listing> {
  const { db } = server.services;
  const rootRows = await db
    .selectFrom('folders')
    .select(['id', 'parent_id', 'name', 'archived_at'])
    .where('database_id', '=', databaseId)
    .where('id', '=', rootId)
    .execute();
  const folders = [...rootRows];
  for (let frontier = rootRows.map((r) => r.id); frontier.length > 0;) {
    const rows = await db
      .selectFrom('folders')
      .select(['id', 'parent_id', 'name', 'archived_at'])
      .where('database_id', '=', databaseId)
      .where('parent_id', 'in', frontier)
      .execute();
    folders.push(...rows);
    frontier = rows.map((r) => r.id);
  }
  const folderIds = folders.map((f) => f.id);
  if (folderIds.length === 0) return {};
  const files = await db
    .selectFrom('files')
    .select(['id', 'folder_id', 'name', 'archived_at', 'size'])
    .where('database_id', '=', databaseId)
    .where('folder_id', 'in', folderIds)
    .where('status', '=', 'ready')
    .execute();
  const ids = [...folderIds, ...files.map((f) => f.id)];
  const [favorites, colors, indexes, contacts, permissions, invitations, versions] =
    await Promise.all([
      db
        .selectFrom('favorites')
        .select(['entity_type', 'entity_id'])
        .where('database_id', '=', databaseId)
        .where('user_id', '=', viewerId)
        .where('enabled', '=', 1)
        .where('entity_id', 'in', ids)
        .execute(),
      db
        .selectFrom('folder_colors')
        .select(['folder_id', 'color'])
        .where('user_id', '=', viewerId)
        .where('folder_id', 'in', folderIds)
        .execute(),
      db
        .selectFrom('applied_indexes')
        .innerJoin('index_fields', 'index_fields.id', 'applied_indexes.index_field_id')
        .select(['applied_indexes.entity_id', 'index_fields.name', 'applied_indexes.value'])
        .where('applied_indexes.database_id', '=', databaseId)
        .where('applied_indexes.entity_id', 'in', ids)
        .where('applied_indexes.archived_at', 'is', null)
        .execute(),
      db
        .selectFrom('folder_contacts')
        .innerJoin('contacts', 'contacts.id', 'folder_contacts.contact_id')
        .select(['folder_contacts.folder_id', 'contacts.name'])
        .where('folder_contacts.database_id', '=', databaseId)
        .where('folder_contacts.folder_id', 'in', folderIds)
        .execute(),
      db
        .selectFrom('folder_permissions')
        .select(['folder_id', 'permissionable_type', 'permissionable_id'])
        .where('database_id', '=', databaseId)
        .where('folder_id', 'in', folderIds)
        .execute(),
      // Replay lists an invitation from its "invite sent" until its "invite cancelled" (a revoke
      // cancels the open ones, one event each); invitations are the link kind of its shares.
      db
        .selectFrom('share_invitations')
        .innerJoin('share_links', 'share_links.id', 'share_invitations.link_id')
        .select(['share_links.entity_id', 'share_invitations.email'])
        .where('share_links.database_id', '=', databaseId)
        .where('share_links.entity_id', 'in', ids)
        .where('share_invitations.state', '!=', 'cancelled')
        .execute(),
      db
        .selectFrom('file_versions')
        .select(['file_id', (eb) => eb.fn.max('number').as('number')])
        .where('database_id', '=', databaseId)
        .where('file_id', 'in', ids)
        .groupBy('file_id')
        .execute(),
    ]);
  const favored = new Set(favorites.map((f) => `${f.entity_type}:${f.entity_id}`));
  const colorOf = new Map(colors.map((c) => [c.folder_id, c.color]));
  const grouped = <T>(rows: T[], key: (row: T) => string) => {
    const map = new Map<string, T[]>();
    for (const row of rows) map.set(key(row), [...(map.get(key(row)) ?? []), row]);
    return (id: string) => map.get(id) ?? [];
  };
  const indexesOf = grouped(indexes, (r) => r.entity_id);
  const contactsOf = grouped(contacts, (r) => r.folder_id);
  const permissionsOf = grouped(permissions, (r) => r.folder_id);
  const sharesOf = grouped(invitations, (r) => r.entity_id);
  const newest = new Map(versions.map((v) => [v.file_id, Number(v.number)]));
  const common = (id: string, type: 'folder' | 'file') => ({
    favorite: favored.has(`${type}:${id}`),
    indexes: sortPairs(indexesOf(id).map((r): [string, string] => [r.name, r.value])),
    shares: sharesOf(id)
      .map((r) => r.email)
      .sort(),
  });
  const out: Listing = {};
  for (const f of folders) {
    out[f.id] = {
      type: 'folder',
      name: f.name,
      parentId: f.parent_id,
      archived: f.archived_at !== null,
      color: colorOf.get(f.id) ?? null,
      contacts: contactsOf(f.id)
        .map((r) => r.name)
        .sort(),
      permissions: sortPairs(
        permissionsOf(f.id).map((r): [string, string] => [
          r.permissionable_type,
          r.permissionable_id,
        ]),
      ),
      version: null,
      ...common(f.id, 'folder'),
    };
  }
  for (const f of files) {
    out[f.id] = {
      type: 'file',
      name: f.name,
      parentId: f.folder_id,
      archived: f.archived_at !== null,
      color: null,
      contacts: [],
      permissions: [],
      version: { number: newest.get(f.id) ?? 1, size: Number(f.size) },
      ...common(f.id, 'file'),
    };
  }
  return out;
}
