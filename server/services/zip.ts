/**
 * Folder download as a zip (SPEC section 7 "GET REST/folders/{id}/download"; issue 3 item 10).
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
import type { Readable } from 'node:stream';
import ZipStream, { type FileDataInput } from 'zip-stream';
import { notFound } from '../errors';
import { listLiveFilesAfter } from '../repositories/files';
import { listLiveFoldersAfter, type NamePosition } from '../repositories/folders';
import { folderTreeStats } from '../repositories/lists';
import type { Executor } from '../repositories/types';
import type { ObjectStore } from '../storage/objectStore';
import { accessibleFolder, hiddenRoots } from './access';
import type { RequestContext, Services } from './context';
import { recordItemRead } from './historyEvents';

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

/** A name as one path segment: never a separator or a relative step (names are validated anyway). */
function segment(name: string): string {
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
  let afterFile: NamePosition | null = null;
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
    afterFile = { name_key: last.name_key, id: last.id };
  }
  let afterFolder: NamePosition | null = null;
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
    afterFolder = { name_key: last.name_key, id: last.id };
  }
}

/** Writes one entry and resolves once it is fully written (rejects if the zip is destroyed). */
function writeEntry(zip: ZipStream, source: Readable | null, data: FileDataInput): Promise<void> {
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
