/**
 * Sagas of the organising actions: each request event of organiseEvents.ts calls the API,
 * announces the result with `organise/itemsChanged` (every list updates itself from it) and shows
 * the success toast; move, colour, archive and restore offer Undo through `undoable`, which
 * reverses exactly that action from the answer's BulkItemResult fields (prev_parent_id,
 * prev_color; archive ↔ restore). Failures are shown as error info messages with the server's text
 * and announced with `organise/actionFailed`.
 */
import type { Action, PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, select, takeEvery } from 'typed-redux-saga';
import { BULK_MAX_ITEMS, FOLDER_COLORS, MAX_PAGE_SIZE } from '@common/constants';
import { MESSAGES, formatMessage } from '@common/messages';
import type { EntityDto, EntityRef, FileDto } from '@common/entities';
import type { BulkItemResult, BulkResultDto, FolderColorKey } from '@common/organise';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import { undoEvents, undoable, type ActionPredicate } from '@src/sagas/undoable';
import { folderOpened, selectFolderItems } from '../folderEvents';
import { notificationsActions } from '../notifications/notificationsSlice';
import * as organiseApi from './organiseApi';
import { organiseEvents, type ItemsChanged } from './organiseEvents';
import { organiseActions, type PickerFolder } from './organiseSlice';
import type { Saga } from '@src/sagas/saga';

/** Most files one "Make a copy" copies (one call each). */
export const MAKE_COPY_MAX_FILES = 50;

/** Most picker pages read for one folder (MAX_PAGE_SIZE each: 10,000 subfolders). */
export const PICKER_MAX_PAGES = 20;

/** "Navigated away" for an undo: another route, or another folder opened. */
export const leftOrganisedPage: ActionPredicate = (action: Action) =>
  undoEvents.locationChanged.match(action) || folderOpened.match(action);

/** “Name” for one item, "N items" for more. */
export function itemsLabel(items: readonly { name?: string }[]): string {
  if (items.length === 1 && items[0]!.name) return `“${items[0]!.name}”`;
  return items.length === 1 ? '1 item' : `${items.length.toLocaleString('en-US')} items`;
}

/** The label of a palette colour ("Dark Red"), or the key when unknown. */
export function colorLabel(color: FolderColorKey): string {
  return FOLDER_COLORS.find((entry) => entry.key === color)?.label ?? color;
}

/** Shows an error info message and announces the failure. */
function* failed(action: string, error: unknown): Saga {
  const message = errorMessage(error);
  yield* put(organiseEvents.actionFailed({ action, message }));
  yield* put(notificationsActions.infoMessageRequested({ text: message, kind: 'error' }));
}

/** Refuses a bulk request over BULK_MAX_ITEMS before calling the server; true when refused. */
function* tooMany(action: string, items: readonly EntityRef[]): Saga<boolean> {
  if (items.length <= BULK_MAX_ITEMS) return false;
  yield* call(
    failed,
    action,
    new Error(formatMessage(MESSAGES.tooManyItems, { n: BULK_MAX_ITEMS })),
  );
  return true;
}

/** The loaded rows of the folder page by id (what an undo puts back into the list). */
function* knownItems(): Saga<Map<string, EntityDto>> {
  const items = yield* select(selectFolderItems);
  return new Map(items.map((item) => [item.id, item]));
}

/**
 * The rows of the results as they are after an undo put them back, from the rows known before the
 * action: the server's (possibly unique-made) name and the parent they are in now.
 */
function rowsFor(
  results: readonly BulkItemResult[],
  known: ReadonlyMap<string, EntityDto>,
  parentOf: (result: BulkItemResult) => string | undefined,
): EntityDto[] {
  const rows: EntityDto[] = [];
  for (const result of results) {
    const row = known.get(result.id);
    if (!row) continue;
    const parent = parentOf(result);
    if (row.type === 'folder') {
      rows.push({
        ...row,
        name: result.name,
        archived_at: null,
        ...(parent === undefined ? {} : { parent_id: parent }),
      });
    } else {
      rows.push({
        ...row,
        name: result.name,
        archived_at: null,
        ...(parent === undefined ? {} : { folder_id: parent }),
      });
    }
  }
  return rows;
}

/** The parent a row had before (the folder page's rows know it). */
function parentOfRow(row: EntityDto | undefined): string | undefined {
  if (!row) return undefined;
  return row.type === 'folder' ? row.parent_id : row.folder_id;
}

/** Announces a change. */
function changed(payload: Partial<ItemsChanged> & Pick<ItemsChanged, 'change'>) {
  return organiseEvents.itemsChanged({ entities: [], results: [], ...payload });
}

/** Shows MESSAGES.restoredToRoot for the items a restore had to put in the root (at most 5). */
function* restoredToRootMessages(results: readonly BulkItemResult[]): Saga {
  const moved = results.filter((result) => result.restored_to_root);
  for (const result of moved.slice(0, 5)) {
    yield* put(
      notificationsActions.infoMessageRequested({
        text: formatMessage(MESSAGES.restoredToRoot, { name: result.name }),
        kind: 'info',
      }),
    );
  }
}

/** Tells the user that an undo went through. */
function* undone(text: string): Saga {
  yield* put(notificationsActions.infoMessageRequested({ text, kind: 'success' }));
}

// ---------------------------------------------------------------------------------------------
// Rename, favorite

/** Renames one item back to its name before a rename (the undo of a rename). */
function* reverseRename(item: EntityRef, name: string): Saga {
  try {
    const entity = yield* call(organiseApi.renameItem, item, name);
    yield* put(changed({ change: 'renamed', entities: [entity], undo: true }));
    yield* call(undone, 'Rename undone.');
  } catch (error) {
    yield* call(failed, 'rename', error);
  }
}

/**
 * Renames one item; the server answers the final (unique) name, which the toast names. Undo
 * renames it back when its name before is known (given, or a row of the open folder).
 */
export function* renameItem(
  action: PayloadAction<{ item: EntityRef; name: string; previousName?: string }>,
): Saga {
  const { item, name } = action.payload;
  const known = yield* call(knownItems);
  const previous = action.payload.previousName ?? known.get(item.id)?.name;
  let entity: EntityDto;
  try {
    entity = yield* call(organiseApi.renameItem, item, name.trim());
  } catch (error) {
    yield* call(failed, 'rename', error);
    return;
  }
  yield* put(changed({ change: 'renamed', entities: [entity] }));
  const body =
    previous === undefined
      ? `Renamed to “${entity.name}”.`
      : `“${previous}” renamed to “${entity.name}”.`;
  if (previous === undefined || previous === entity.name) {
    yield* put(notificationsActions.infoMessageRequested({ text: body, kind: 'success' }));
    return;
  }
  yield* call(
    undoable,
    { title: 'Renamed', body },
    () => reverseRename(item, previous),
    leftOrganisedPage,
  );
}

/** Turns the current user's favorite of one item on or off. */
export function* favoriteItem(action: PayloadAction<{ item: EntityRef; enabled: boolean }>): Saga {
  const { item, enabled } = action.payload;
  try {
    const entity = yield* call(organiseApi.setFavorite, item, enabled);
    yield* put(changed({ change: enabled ? 'favorited' : 'unfavorited', entities: [entity] }));
  } catch (error) {
    yield* call(failed, 'favorite', error);
  }
}

// ---------------------------------------------------------------------------------------------
// Move

/**
 * Moves the items back to where each came from (grouped by `prev_parent_id`), putting the rows the
 * folder page knew back into its list.
 */
export function* reverseMove(
  results: readonly BulkItemResult[],
  known: ReadonlyMap<string, EntityDto>,
): Saga {
  const groups = new Map<string, BulkItemResult[]>();
  for (const result of results) {
    if (result.prev_parent_id === undefined) continue;
    const group = groups.get(result.prev_parent_id) ?? [];
    group.push(result);
    groups.set(result.prev_parent_id, group);
  }
  try {
    for (const [parentId, group] of groups) {
      const answer = yield* call(organiseApi.moveItems, group, parentId);
      yield* put(
        changed({
          change: 'moved',
          results: answer.items,
          entities: rowsFor(answer.items, known, () => parentId),
          targetFolderId: parentId,
          undo: true,
        }),
      );
    }
    yield* call(undone, 'Move undone.');
  } catch (error) {
    yield* call(failed, 'move', error);
  }
}

/** Moves items into a folder, then offers Undo. */
export function* moveItems(
  action: PayloadAction<{ items: EntityRef[]; folderId: string; folderName: string }>,
): Saga {
  const { items, folderId, folderName } = action.payload;
  if (yield* call(tooMany, 'move', items)) return;
  const known = yield* call(knownItems);
  let answer: BulkResultDto;
  try {
    answer = yield* call(organiseApi.moveItems, items, folderId);
  } catch (error) {
    yield* call(failed, 'move', error);
    return;
  }
  // An older server may not echo prev_parent_id: the rows known before the move tell it.
  const results = answer.items.map((result) =>
    result.prev_parent_id === undefined && parentOfRow(known.get(result.id)) !== undefined
      ? { ...result, prev_parent_id: parentOfRow(known.get(result.id)) }
      : result,
  );
  yield* put(
    changed({
      change: 'moved',
      results,
      entities: rowsFor(results, known, () => folderId),
      targetFolderId: folderId,
    }),
  );
  yield* call(
    undoable,
    { title: 'Moved', body: `${itemsLabel(results)} moved to ${folderName}.` },
    () => reverseMove(results, known),
    leftOrganisedPage,
  );
}

// ---------------------------------------------------------------------------------------------
// Archive, restore, destroy

/** Restores archived items (the undo of an archive, or a restore asked for). */
function* restoreAndAnnounce(
  items: readonly EntityRef[],
  known: ReadonlyMap<string, EntityDto>,
  undo: boolean,
): Saga<BulkResultDto> {
  const answer = yield* call(organiseApi.restoreItems, items);
  yield* put(
    changed({
      change: 'restored',
      results: answer.items,
      entities: rowsFor(answer.items, known, (result) =>
        result.restored_to_root ? '' : parentOfRow(known.get(result.id)),
      ),
      undo,
    }),
  );
  yield* call(restoredToRootMessages, answer.items);
  return answer;
}

/** Archives items (the undo of a restore, or an archive asked for). */
function* archiveAndAnnounce(items: readonly EntityRef[], undo: boolean): Saga<BulkResultDto> {
  const answer = yield* call(organiseApi.archiveItems, items);
  yield* put(changed({ change: 'archived', results: answer.items, undo }));
  return answer;
}

/** Undo of an archive: restores exactly the archived items. */
export function* reverseArchive(
  results: readonly BulkItemResult[],
  known: ReadonlyMap<string, EntityDto>,
): Saga {
  try {
    yield* call(restoreAndAnnounce, results, known, true);
    yield* call(undone, 'Archive undone.');
  } catch (error) {
    yield* call(failed, 'restore', error);
  }
}

/** Undo of a restore: archives exactly the restored items again. */
export function* reverseRestore(results: readonly BulkItemResult[]): Saga {
  try {
    yield* call(archiveAndAnnounce, results, true);
    yield* call(undone, 'Restore undone.');
  } catch (error) {
    yield* call(failed, 'archive', error);
  }
}

/** Archives items, then offers Undo. */
export function* archiveItems(action: PayloadAction<{ items: EntityRef[] }>): Saga {
  const { items } = action.payload;
  if (yield* call(tooMany, 'archive', items)) return;
  const known = yield* call(knownItems);
  let answer: BulkResultDto;
  try {
    answer = yield* call(archiveAndAnnounce, items, false);
  } catch (error) {
    yield* call(failed, 'archive', error);
    return;
  }
  yield* call(
    undoable,
    { title: 'Archived', body: `${itemsLabel(answer.items)} archived.` },
    () => reverseArchive(answer.items, known),
    leftOrganisedPage,
  );
}

/** Restores archived items, then offers Undo. */
export function* restoreItems(action: PayloadAction<{ items: EntityRef[] }>): Saga {
  const { items } = action.payload;
  if (yield* call(tooMany, 'restore', items)) return;
  const known = yield* call(knownItems);
  let answer: BulkResultDto;
  try {
    answer = yield* call(restoreAndAnnounce, items, known, false);
  } catch (error) {
    yield* call(failed, 'restore', error);
    return;
  }
  yield* call(
    undoable,
    { title: 'Restored', body: `${itemsLabel(answer.items)} restored.` },
    () => reverseRestore(answer.items),
    leftOrganisedPage,
  );
}

/** Deletes archived items permanently (no undo). */
export function* destroyItems(action: PayloadAction<{ items: EntityRef[] }>): Saga {
  const { items } = action.payload;
  if (yield* call(tooMany, 'destroy', items)) return;
  try {
    const answer = yield* call(organiseApi.destroyItems, items);
    yield* put(changed({ change: 'destroyed', results: answer.items }));
    yield* put(
      notificationsActions.successToastRequested({
        title: 'Deleted permanently',
        body: `${itemsLabel(answer.items)} deleted permanently.`,
      }),
    );
  } catch (error) {
    yield* call(failed, 'destroy', error);
  }
}

// ---------------------------------------------------------------------------------------------
// Colour

/** Undo of a colour change: each folder gets its `prev_color` back (grouped by colour). */
export function* reverseColor(results: readonly BulkItemResult[]): Saga {
  const groups = new Map<FolderColorKey, BulkItemResult[]>();
  for (const result of results) {
    const prev = result.prev_color ?? 'default';
    const group = groups.get(prev) ?? [];
    group.push(result);
    groups.set(prev, group);
  }
  try {
    for (const [color, group] of groups) {
      const answer = yield* call(organiseApi.colorFolders, group, color);
      yield* put(changed({ change: 'colored', results: answer.items, color, undo: true }));
    }
    yield* call(undone, 'Colour change undone.');
  } catch (error) {
    yield* call(failed, 'color', error);
  }
}

/** Colours folders (files are left out: only folders have colours), then offers Undo. */
export function* colorItems(
  action: PayloadAction<{ items: EntityRef[]; color: FolderColorKey }>,
): Saga {
  const { color } = action.payload;
  const items = action.payload.items.filter((item) => item.type === 'folder');
  if (items.length === 0) {
    yield* call(failed, 'color', new Error(MESSAGES.colorFoldersOnly));
    return;
  }
  if (yield* call(tooMany, 'color', items)) return;
  let answer: BulkResultDto;
  try {
    answer = yield* call(organiseApi.colorFolders, items, color);
  } catch (error) {
    yield* call(failed, 'color', error);
    return;
  }
  yield* put(changed({ change: 'colored', results: answer.items, color }));
  yield* call(
    undoable,
    {
      title: 'Colour changed',
      body:
        color === 'default'
          ? `${itemsLabel(answer.items)} back to the default colour.`
          : `${itemsLabel(answer.items)} coloured ${colorLabel(color)}.`,
    },
    () => reverseColor(answer.items),
    leftOrganisedPage,
  );
}

// ---------------------------------------------------------------------------------------------
// Copy, download, picker

/** Copies a folder tree into another folder (no undo: the copy can be archived). */
export function* copyFolder(action: PayloadAction<{ folderId: string; parentId: string }>): Saga {
  const { folderId, parentId } = action.payload;
  try {
    const copy = yield* call(organiseApi.copyFolder, folderId, parentId);
    yield* put(changed({ change: 'copied', entities: [copy], targetFolderId: parentId }));
    yield* put(
      notificationsActions.successToastRequested({
        title: 'Copied',
        body: `Folder copied as “${copy.name}”.`,
      }),
    );
  } catch (error) {
    yield* call(failed, 'copy', error);
  }
}

/**
 * "Make a copy" of files: each is copied beside itself under the next free name (one call per
 * file, at most MAKE_COPY_MAX_FILES), then one toast. No undo, as for a folder copy: a copy can
 * be archived. A failure part-way reports the copies already made and the server's message.
 */
export function* copyFiles(action: PayloadAction<{ items: EntityRef[] }>): Saga {
  const files = action.payload.items.filter((item) => item.type === 'file');
  if (files.length > MAKE_COPY_MAX_FILES) {
    yield* call(
      failed,
      'duplicate',
      new Error(formatMessage(MESSAGES.tooManyCopies, { n: MAKE_COPY_MAX_FILES })),
    );
    return;
  }
  const copies: FileDto[] = [];
  let failure: unknown = null;
  for (const file of files) {
    try {
      copies.push(yield* call(organiseApi.copyFile, file.id));
    } catch (error) {
      failure = error;
      break;
    }
  }
  if (copies.length > 0) {
    yield* put(changed({ change: 'copied', entities: copies }));
    yield* put(
      notificationsActions.successToastRequested({
        title: 'Copied',
        body:
          copies.length === 1
            ? `File copied as “${copies[0]!.name}”.`
            : `${copies.length.toLocaleString('en-US')} files copied.`,
      }),
    );
  }
  if (failure) yield* call(failed, 'duplicate', failure);
}

/**
 * Downloads the selected items as one zip: the server checks them and answers a single-use link,
 * which the browser downloads as an attachment (streamed to disk, whatever its size).
 */
export function* downloadSelection(action: PayloadAction<{ items: EntityRef[] }>): Saga {
  const { items } = action.payload;
  if (yield* call(tooMany, 'download', items)) return;
  try {
    const link = yield* call(organiseApi.requestZip, items);
    yield* call(startDownload, link.url);
  } catch (error) {
    yield* call(failed, 'download', error);
  }
}

/** Starts a browser download of `url` (an attachment) without leaving the page. */
export function startDownload(url: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = '';
  anchor.rel = 'noopener';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
}

/** Downloads a folder as a zip (GET folders/{id}/download). */
export function* downloadFolder(action: PayloadAction<{ folderId: string }>): Saga {
  yield* call(startDownload, organiseApi.folderDownloadUrl(action.payload.folderId));
}

/**
 * Reads every subfolder of one folder that the user may see (GET /folders?parent_id, pages of
 * MAX_PAGE_SIZE, at most PICKER_MAX_PAGES), in the server's order (by name). Shared by the
 * picker and the folder tree pane.
 * @returns the subfolders as ids and names; throws the API's error
 */
export function* fetchAllSubfolders(parentId: string): Saga<PickerFolder[]> {
  const folders: PickerFolder[] = [];
  for (let page = 1; page <= PICKER_MAX_PAGES; page += 1) {
    const answer = yield* call(organiseApi.fetchFolders, parentId, page, MAX_PAGE_SIZE);
    for (const folder of answer.items) folders.push({ id: folder.id, name: folder.name });
    if (answer.items.length === 0 || folders.length >= answer.total) break;
  }
  return folders;
}

/** Loads every subfolder of one folder for the picker. */
export function* loadPickerLevel(action: PayloadAction<{ parentId: string }>): Saga {
  const { parentId } = action.payload;
  try {
    const folders = yield* call(fetchAllSubfolders, parentId);
    yield* put(organiseActions.pickerLevelLoaded({ parentId, folders }));
  } catch (error) {
    yield* put(organiseActions.pickerLevelFailed({ parentId, message: errorMessage(error) }));
  }
}

/** Root saga of the organise feature. */
export function* organiseSaga(): Saga {
  yield* all([
    takeEvery(organiseEvents.renameRequested.type, safely(renameItem)),
    takeEvery(organiseEvents.favoriteRequested.type, safely(favoriteItem)),
    takeEvery(organiseEvents.moveRequested.type, safely(moveItems)),
    takeEvery(organiseEvents.archiveRequested.type, safely(archiveItems)),
    takeEvery(organiseEvents.restoreRequested.type, safely(restoreItems)),
    takeEvery(organiseEvents.destroyRequested.type, safely(destroyItems)),
    takeEvery(organiseEvents.colorRequested.type, safely(colorItems)),
    takeEvery(organiseEvents.copyRequested.type, safely(copyFolder)),
    takeEvery(organiseEvents.folderDownloadRequested.type, safely(downloadFolder)),
    takeEvery(organiseEvents.selectionDownloadRequested.type, safely(downloadSelection)),
    takeEvery(organiseEvents.fileCopyRequested.type, safely(copyFiles)),
    takeEvery(organiseActions.pickerLevelRequested.type, safely(loadPickerLevel)),
  ]);
}
