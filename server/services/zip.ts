/**
 * Folder download as a zip (SPEC section 7 "GET REST/folders/{id}/download").
 *
 * The zip is streamed with zip-stream (archiver's streaming core): the tree is walked depth first,
 * each folder's files and subfolders read in keyset batches of {@link ZIP_BATCH} rows, and each
 * file's object is piped in only after the previous entry is written, so memory holds one batch
 * per folder level and one object's buffers, whatever the folder's size. (The zip format's central
 * directory is written at the end, so the writer keeps a small record per entry.) The response
 * applies backpressure: nothing more is read while the client is not reading.
 *
 * Paths are `<folder>/<sub>/<file>`; every folder is a directory entry, so empty folders survive.
 * Formats that are already compressed (PDF, images, video, Office Open XML…) are stored; text-like
 * formats are deflated.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import ZipStream, { type FileDataInput } from 'zip-stream';
import { PRODUCT_NAME, ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import { MESSAGES } from '@common/messages';
import { uniqueName } from '@common/names';
import type { EntityRef } from '@common/entities';
import { AppError, badRequest, notFound } from '../errors';
import { isoAt } from '../ids';
import { folderItems } from '../repositories/organise';
import {
  deleteExpiredZipRequests,
  insertZipRequest,
  liveTreesBytes,
  takeZipRequest,
  zipFiles,
  zipFolders,
} from '../repositories/zips';
import { listLiveFilesAfter } from '../repositories/files';
import { listLiveFoldersAfter } from '../repositories/folders';
import type { ListPosition } from '../repositories/listOrder';
import { folderTreeStats } from '../repositories/lists';
import type { Executor } from '../repositories/types';
import type { ObjectStore } from '../storage/objectStore';
import { accessibleFolder, hiddenRoots } from './access';
import type { RequestContext, Services } from './context';
import { assertBulkSize, loadItems } from './bulk';
import { recordEvents } from './history';
import { itemReadEvent, recordItemRead, type ParentRef } from './historyEvents';

/** Rows read per query while walking the tree. */
export const ZIP_BATCH = 500;

/** Trees of at least this many bytes are written with Zip64 records (4 GiB less room for headers). */
export const ZIP64_THRESHOLD = 0xffffffff - 64 * 1024 * 1024;

/** Extensions worth deflating; everything else is stored as is (already compressed). */
const DEFLATE_EXTENSIONS = new Set([
  'txt',
  'csv',
  'tsv',
  'doc',
  'xls',
  'ppt',
  'rtf',
  'json',
  'xml',
  'html',
  'htm',
  'md',
  'log',
  'eml',
  'msg',
  'svg',
  'bmp',
]);

/** One entry of the zip, in the order written. */
export type ZipItem =
  | { kind: 'directory'; path: string; date: Date }
  | { kind: 'file'; path: string; date: Date; storageKey: string; extension: string };

/** Whether a file of this extension is deflated in a zip (else stored: already compressed). */
export function deflates(extension: string): boolean {
  return DEFLATE_EXTENSIONS.has(extension);
}

/** A name as one path segment: never a separator or a relative step (names are validated anyway). */
export function segment(name: string): string {
  const clean = name.replace(/[/\\]/g, '_');
  return clean === '.' || clean === '..' || clean === '' ? '_' : clean;
}

/**
 * The live tree under a folder, depth first: the folder's directory entry, its files by name,
 * then each subfolder's tree by name. Reads batches of {@link ZIP_BATCH} rows as it goes.
 * @param path the folder's path in the zip, without a trailing slash
 * @param exclude restricted folders hidden from the session: they and their trees are left out
 */
export async function* walkTree(
  db: Executor,
  databaseId: string,
  folder: { id: string; updated_at: string },
  path: string,
  exclude: readonly string[] = [],
): AsyncGenerator<ZipItem> {
  yield { kind: 'directory', path: `${path}/`, date: new Date(folder.updated_at) };
  let afterFile: ListPosition | null = null;
  for (;;) {
    const files = await listLiveFilesAfter(db, databaseId, folder.id, afterFile, ZIP_BATCH);
    for (const file of files) {
      yield {
        kind: 'file',
        path: `${path}/${segment(file.name)}`,
        date: new Date(file.updated_at),
        storageKey: file.storage_key,
        extension: file.extension,
      };
    }
    const last = files[files.length - 1];
    if (!last || files.length < ZIP_BATCH) break;
    afterFile = [last.name_key, last.id];
  }
  let afterFolder: ListPosition | null = null;
  for (;;) {
    const folders = await listLiveFoldersAfter(
      db,
      databaseId,
      folder.id,
      afterFolder,
      ZIP_BATCH,
      exclude,
    );
    for (const sub of folders) {
      yield* walkTree(db, databaseId, sub, `${path}/${segment(sub.name)}`, exclude);
    }
    const last = folders[folders.length - 1];
    if (!last || folders.length < ZIP_BATCH) break;
    afterFolder = [last.name_key, last.id];
  }
}

/** Writes one entry and resolves once it is fully written (rejects if the zip is destroyed). */
export function writeEntry(
  zip: ZipStream,
  source: Readable | null,
  data: FileDataInput,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const onClose = (): void => {
      source?.destroy();
      reject(new Error('The zip stream was closed.'));
    };
    zip.once('close', onClose);
    zip.entry(source, data, (error) => {
      zip.off('close', onClose);
      if (error) reject(error);
      else resolve();
    });
  });
}

/** Writes every item into the zip and finalizes it; on failure the zip is destroyed. */
async function pump(zip: ZipStream, items: AsyncIterable<ZipItem>, store: ObjectStore) {
  try {
    for await (const item of items) {
      if (zip.destroyed) return;
      if (item.kind === 'directory') {
        await writeEntry(zip, null, { name: item.path, type: 'directory', date: item.date });
      } else {
        await writeEntry(zip, store.read(item.storageKey), {
          name: item.path,
          date: item.date,
          store: !DEFLATE_EXTENSIONS.has(item.extension),
        });
      }
    }
    zip.finalize();
  } catch (error) {
    if (!zip.destroyed) zip.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/** A folder's zip, ready to send. */
export interface FolderZip {
  /** "<folder name>.zip", for Content-Disposition. */
  fileName: string;
  /** The zip bytes; an error after the first byte ends the stream (the response is cut). */
  body: Readable;
}

/**
 * Starts the zip of a live folder's live tree and records a history download on the folder. The
 * restricted subfolders hidden from the session (and their trees) are not in the zip.
 * The history event is written before the first byte is sent.
 * @throws AppError 404 when the folder is not visible to the session or archived
 */
export async function openFolderZip(
  services: Services,
  ctx: RequestContext,
  folderId: string,
): Promise<FolderZip> {
  const folder = await accessibleFolder(services.db, ctx, folderId, 'read');
  if (!folder) throw notFound();
  await services.db.transaction().execute(async (trx) => {
    await recordItemRead(
      trx,
      services,
      ctx,
      { type: 'folder', id: folder.id, name: folder.name },
      'download',
    );
  });
  // Zip64 records when the tree may pass 4 GiB: entry sizes are only known after they are
  // written, so the whole archive uses them from the start (more than 65,535 entries switch the
  // end records to Zip64 by themselves).
  const hidden = await hiddenRoots(services.db, ctx);
  const { byExtension } = await folderTreeStats(
    services.db,
    ctx.databaseId,
    folder.id,
    { live: true },
    hidden,
  );
  const bytes = byExtension.reduce((n, e) => n + e.size, 0);
  const zip = new ZipStream({ zlib: { level: 6 }, forceZip64: bytes >= ZIP64_THRESHOLD });
  const top = segment(folder.name);
  void pump(zip, walkTree(services.db, ctx.databaseId, folder, top, hidden), services.store);
  return { fileName: `${top}.zip`, body: zip as unknown as Readable };
}

/** How long a selection's zip link may wait for its GET, in milliseconds. */
export const ZIP_REQUEST_TTL_MS = 60_000;

/** The answer of POST entities/zip: where the browser downloads the zip, and until when. */
export interface ZipRequestDto {
  /** `/api/rest/zips/{token}`: a GET with the same session streams the zip, once. */
  url: string;
  expires_at: string;
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * POST entities/zip: checks a selection of live items for the session (every id of the session's
 * firm, live, in folders the session may see; at most BULK_MAX_ITEMS) and answers a single-use
 * link, valid for {@link ZIP_REQUEST_TTL_MS}, whose GET streams their zip ({@link openSelectionZip}).
 * The browser then downloads a plain GET (streamed to disk) although the ids came in a body. Only
 * the token's sha256 is stored.
 * @throws AppError 400 zip_nothing_selected / too_many_items, 404 an item not visible or archived
 */
export async function createSelectionZip(
  services: Services,
  ctx: RequestContext,
  refs: readonly EntityRef[],
): Promise<ZipRequestDto> {
  if (refs.length === 0) throw badRequest(MESSAGES.zipNothingSelected, 'zip_nothing_selected');
  assertBulkSize(refs);
  const items = await loadItems(services.db, ctx, refs, { live: true });
  const token = randomBytes(32).toString('base64url');
  const now = services.clock();
  const expiresAt = new Date(now + ZIP_REQUEST_TTL_MS).toISOString();
  await deleteExpiredZipRequests(services.db, new Date(now).toISOString());
  await insertZipRequest(services.db, {
    token_hash: tokenHash(token),
    user_id: ctx.userId,
    database_id: ctx.databaseId,
    items: JSON.stringify(items.map(({ id, type }) => ({ id, type }))),
    expires_at: expiresAt,
  });
  return { url: `/api/rest/zips/${token}`, expires_at: expiresAt };
}

/** The zip entries of a selection: its files at the top, then each folder's tree. */
async function* selectionEntries(
  db: Executor,
  databaseId: string,
  files: { path: string; row: Awaited<ReturnType<typeof zipFiles>>[number] }[],
  folders: { path: string; row: Awaited<ReturnType<typeof zipFolders>>[number] }[],
  exclude: readonly string[],
): AsyncGenerator<ZipItem> {
  for (const { path, row } of files) {
    yield {
      kind: 'file',
      path,
      date: new Date(row.updated_at),
      storageKey: row.storage_key,
      extension: row.extension,
    };
  }
  for (const { path, row } of folders) yield* walkTree(db, databaseId, row, path, exclude);
}

/**
 * GET zips/{token}: takes the session's own zip request (single use) and starts the zip of its
 * items, checked again for the session now (an item archived, removed or hidden since the POST
 * refuses the download). Files selected are at the top of the zip, selected folders with their
 * live trees as in the folder zip (restricted subfolders hidden from the session left out). Top
 * names are made unique in the zip (case-insensitively, " (1)" as in a folder). One `download`
 * event per selected item is committed before the first byte.
 * @throws AppError 404 zip_expired (MESSAGES.zipLinkExpired) for an unknown, used, expired token
 *   or another user's; 404 for an item no longer visible
 */
export async function openSelectionZip(
  services: Services,
  ctx: RequestContext,
  token: string,
): Promise<FolderZip> {
  const { db } = services;
  const now = isoAt(services.clock);
  const stored = await db
    .transaction()
    .execute((trx) => takeZipRequest(trx, tokenHash(token), ctx.userId, ctx.databaseId, now));
  if (stored === undefined) throw new AppError(404, 'zip_expired', MESSAGES.zipLinkExpired);
  const refs = JSON.parse(stored) as EntityRef[];
  const items = await loadItems(db, ctx, refs, { live: true });
  const hidden = await hiddenRoots(db, ctx);
  const folderIds = items.filter((i) => i.type === 'folder').map((i) => i.id);
  const fileIds = items.filter((i) => i.type === 'file').map((i) => i.id);
  const [folderRows, fileRows] = [
    await zipFolders(db, ctx.databaseId, folderIds),
    await zipFiles(db, ctx.databaseId, fileIds),
  ];
  // Names at the top of the zip: unique as in one folder (files keep their extension).
  const taken: string[] = [];
  const place = (name: string, isFile: boolean) => {
    const path = uniqueName(segment(name), taken, { isFile });
    taken.push(path);
    return path;
  };
  const files = fileRows.map((row) => ({ path: place(row.name, true), row }));
  const folders = folderRows.map((row) => ({ path: place(row.name, false), row }));
  const parentIds = [...new Set(items.map((i) => i.parent_id))].filter(
    (id) => id !== ROOT_FOLDER_ID,
  );
  const parentNames = new Map(
    (await folderItems(db, ctx.databaseId, parentIds)).map((p) => [p.id, p.name]),
  );
  const parentOf = (id: string): ParentRef => ({
    id,
    name: id === ROOT_FOLDER_ID ? ROOT_FOLDER_NAME : (parentNames.get(id) ?? ''),
  });
  await db.transaction().execute(async (trx) => {
    await recordEvents(
      trx,
      services,
      ctx,
      items.map((item) =>
        itemReadEvent(
          { type: item.type, id: item.id, name: item.name },
          'download',
          parentOf(item.parent_id),
        ),
      ),
    );
  });
  const bytes =
    fileRows.reduce((n, f) => n + f.size, 0) +
    (await liveTreesBytes(db, ctx.databaseId, folderIds, hidden));
  const zip = new ZipStream({ zlib: { level: 6 }, forceZip64: bytes >= ZIP64_THRESHOLD });
  void pump(zip, selectionEntries(db, ctx.databaseId, files, folders, hidden), services.store);
  const only = items.length === 1 && folders.length === 1 ? folders[0]!.path : null;
  return {
    fileName: `${only ?? `${PRODUCT_NAME} download`}.zip`,
    body: zip as unknown as Readable,
  };
}
