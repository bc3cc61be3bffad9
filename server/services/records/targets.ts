/**
 * The folders, files and contacts a retention schedule or a legal hold names: checking the ones
 * an administrator sends (they must be the firm's; archived folders and files count) and showing
 * the ones stored, with their names and the paths of the folders they sit in.
 */
import { ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import {
  recordsMessage,
  RECORDS_MESSAGES,
  RECORDS_TARGETS_MAX,
  type HoldTargetType,
  type RecordsTargetDto,
  type RecordsTargetRequest,
} from '@common/retention';
import type { HistoryTargetRef } from '@common/history';
import { badRequest, notFound } from '@server/errors';
import {
  contactNames,
  folderLinks,
  recordFiles,
  type FolderLink,
} from '@server/repositories/records';
import type { Executor } from '@server/repositories/types';

/** The folders above some folders, level by level (id → place and name). */
async function foldersAbove(
  db: Executor,
  databaseId: string,
  start: Iterable<string>,
): Promise<Map<string, FolderLink>> {
  const known = new Map<string, FolderLink>();
  let wanted = [...new Set(start)].filter((id) => id !== ROOT_FOLDER_ID);
  for (let depth = 0; wanted.length > 0 && depth < 1000; depth += 1) {
    const rows = await folderLinks(db, databaseId, wanted);
    for (const row of rows) known.set(row.id, row);
    wanted = [...new Set(rows.map((r) => r.parent_id))].filter(
      (id) => id !== ROOT_FOLDER_ID && !known.has(id),
    );
  }
  return known;
}

/** "Root / A / B": the path of a folder (the folder itself included). */
function pathTo(folders: Map<string, FolderLink>, folderId: string): string {
  const names: string[] = [];
  const seen = new Set<string>();
  for (let id = folderId; id !== ROOT_FOLDER_ID && !seen.has(id);) {
    const folder = folders.get(id);
    if (!folder) break;
    names.unshift(folder.name);
    seen.add(id);
    id = folder.parent_id;
  }
  return [ROOT_FOLDER_NAME, ...names].join(' / ');
}

/**
 * The items some targets name, as history names them, in the order given (repeats dropped).
 * @param allowed the target types this kind of target takes
 * @throws AppError 400 `target_type` for a type not allowed, `too_many_targets` past
 *   RECORDS_TARGETS_MAX; 404 for an item that is not the firm's (or a pending upload)
 */
export async function resolveTargets(
  db: Executor,
  databaseId: string,
  requests: readonly RecordsTargetRequest[],
  allowed: readonly HoldTargetType[],
  typeMessage: string,
): Promise<HistoryTargetRef[]> {
  if (requests.length > RECORDS_TARGETS_MAX) {
    throw badRequest(
      recordsMessage(RECORDS_MESSAGES.tooManyTargets, { n: RECORDS_TARGETS_MAX }),
      'too_many_targets',
    );
  }
  const seen = new Set<string>();
  const wanted = requests.filter((r) => {
    const key = `${r.type}:${r.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (wanted.some((r) => !allowed.includes(r.type))) throw badRequest(typeMessage, 'target_type');
  const ids = (type: HoldTargetType) => wanted.filter((r) => r.type === type).map((r) => r.id);
  const names = new Map<string, string>();
  for (const f of await folderLinks(db, databaseId, ids('folder')))
    names.set(`folder:${f.id}`, f.name);
  for (const f of await recordFiles(db, databaseId, ids('file'))) {
    if (f.status === 'ready') names.set(`file:${f.id}`, f.name);
  }
  for (const [id, name] of await contactNames(db, databaseId, ids('contact'))) {
    names.set(`contact:${id}`, name);
  }
  return wanted.map((r) => {
    const name = names.get(`${r.type}:${r.id}`);
    if (name === undefined) throw notFound();
    return { type: r.type, id: r.id, name };
  });
}

/** A stored target row, of a schedule or of a hold. */
export interface StoredTarget {
  id: string;
  target_type: HoldTargetType;
  target_id: string;
}

/** Stored targets as lists show them: names now, the paths of their folders, missing items. */
export async function presentTargets(
  db: Executor,
  databaseId: string,
  rows: readonly StoredTarget[],
): Promise<RecordsTargetDto[]> {
  const ids = (type: HoldTargetType) =>
    rows.filter((r) => r.target_type === type).map((r) => r.target_id);
  const files = new Map((await recordFiles(db, databaseId, ids('file'))).map((f) => [f.id, f]));
  const folders = await foldersAbove(db, databaseId, [
    ...ids('folder'),
    ...[...files.values()].map((f) => f.folder_id),
  ]);
  const contacts = await contactNames(db, databaseId, ids('contact'));
  return rows.map((row) => {
    const base = { id: row.id, type: row.target_type, item_id: row.target_id };
    if (row.target_type === 'contact') {
      const name = contacts.get(row.target_id);
      return { ...base, name: name ?? '', path: '', missing: name === undefined };
    }
    if (row.target_type === 'file') {
      const file = files.get(row.target_id);
      return file
        ? { ...base, name: file.name, path: pathTo(folders, file.folder_id), missing: false }
        : { ...base, name: '', path: '', missing: true };
    }
    const folder = folders.get(row.target_id);
    return folder
      ? { ...base, name: folder.name, path: pathTo(folders, folder.parent_id), missing: false }
      : { ...base, name: '', path: '', missing: true };
  });
}
