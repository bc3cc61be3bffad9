/**
 * The actions of one item as a menu, shared by a row's "More actions" menu and the lists' context
 * menu (right-click, Shift+F10, the ContextMenu key), and how a row opens its item (Enter, a
 * double-click): one builder and one runner, so both menus always offer the same actions.
 */
import type { MenuProps } from 'antd';
import type { EntityRef } from '@common/entities';
import type { AppDispatch } from '@src/store/store';
import { detailsActions } from '../details/detailsSlice';
import { colorFromMenuKey, colorMenuItems } from '../organise/components/colorMenu';
import { organiseEvents } from '../organise/organiseEvents';
import { organiseActions } from '../organise/organiseSlice';
import { fileUrl } from './entitiesApi';
import { startDownload } from './components/FileNameLink';

/** The item a row's actions work on: any row view model with these fields. */
export interface RowActionItem {
  id: string;
  type: EntityRef['type'];
  name: string;
  /** Files: whether the browser shows it inline (its preview); always false for folders. */
  previewable: boolean;
}

/** What the current user and list allow. */
export interface RowMenuOptions {
  /** The user may rename, move, copy and archive (not a read-only member). */
  canOrganise: boolean;
  /** The folderColors flag is on. */
  colorsOn: boolean;
  /** The list edits names in the row (the folder view); elsewhere Rename is not offered. */
  renameInRow: boolean;
}

/** Keys of the menu items that open a submenu (their children are chosen, not them). */
export const ROW_SUBMENU_KEYS = ['colour'] as const;

/**
 * The menu items of `item`: Rename, Move to…, Copy to… (folders), Make a copy (files, into the
 * same folder), Colour (folders, with
 * folderColors), Download as zip (folders), Details and Archive, as `options` allow.
 *
 * @param item the row's item
 * @param options what the user and the list allow
 * @returns antd menu items, keyed as {@link runRowAction} expects
 */
export function rowMenuItems(item: RowActionItem, options: RowMenuOptions): MenuProps['items'] {
  const isFolder = item.type === 'folder';
  const { canOrganise, colorsOn, renameInRow } = options;
  return [
    ...(canOrganise && renameInRow ? [{ key: 'rename', label: 'Rename' }] : []),
    ...(canOrganise
      ? [
          { key: 'move', label: 'Move to…' },
          ...(isFolder
            ? [{ key: 'copy', label: 'Copy to…' }]
            : [{ key: 'duplicate', label: 'Make a copy' }]),
        ]
      : []),
    ...(isFolder && colorsOn
      ? [{ key: 'colour', label: 'Colour', children: colorMenuItems() }]
      : []),
    ...(isFolder ? [{ key: 'zip', label: 'Download as zip' }] : []),
    { key: 'details', label: 'Details' },
    ...(canOrganise
      ? [{ type: 'divider' as const }, { key: 'archive', label: 'Archive', danger: true }]
      : []),
  ];
}

/**
 * Runs the menu item `key` of {@link rowMenuItems} on `item` (a colour key sets the colour).
 *
 * @param dispatch the store's dispatch
 * @param item the row's item
 * @param key the chosen menu key; an unknown key does nothing
 */
export function runRowAction(dispatch: AppDispatch, item: RowActionItem, key: string): void {
  const ref: EntityRef = { id: item.id, type: item.type };
  const color = colorFromMenuKey(key);
  if (color) {
    dispatch(organiseEvents.colorRequested({ items: [ref], color }));
    return;
  }
  switch (key) {
    case 'rename':
      dispatch(organiseActions.renameStarted({ id: item.id }));
      break;
    case 'move':
      dispatch(organiseEvents.moveDialogOpened({ items: [ref] }));
      break;
    case 'copy':
      dispatch(organiseActions.copyDialogOpened({ item: ref }));
      break;
    case 'duplicate':
      dispatch(organiseEvents.fileCopyRequested({ items: [ref] }));
      break;
    case 'zip':
      dispatch(organiseEvents.folderDownloadRequested({ folderId: item.id }));
      break;
    case 'details':
      dispatch(detailsActions.panelOpened(ref));
      break;
    case 'archive':
      dispatch(organiseEvents.archiveRequested({ items: [ref] }));
      break;
  }
}

/** The folder view's route of a folder ('' is the root: /home). */
function folderViewRoute(folderId: string): string {
  return folderId ? `/home/folders/${encodeURIComponent(folderId)}` : '/home';
}

/** How {@link openRowItem} opens things; each has a default. */
export interface OpenRowOptions {
  /** The route of a folder; the folder view's by default (Shared has its own). */
  route?: (folderId: string) => string;
  /**
   * Opens a previewable file; by default its preview in a new tab (where the in-app viewer is
   * mounted, pass its opener, e.g. `useOpenInViewer()`).
   */
  openPreview?: (fileId: string) => void;
}

/** Opens a file's preview in a new tab. */
function openPreviewTab(fileId: string): void {
  window.open(fileUrl(fileId, 'preview'), '_blank', 'noopener,noreferrer');
}

/**
 * Opens `item` as its name link does (Enter on a row, a double-click): a folder in the folder
 * view, a file that has a preview in it, any other file is downloaded.
 *
 * @param item the row's item
 * @param navigate the router's navigate (a folder)
 * @param options the folder route and the preview opener, if not the defaults
 */
export function openRowItem(
  item: RowActionItem,
  navigate: (to: string) => unknown,
  { route = folderViewRoute, openPreview = openPreviewTab }: OpenRowOptions = {},
): void {
  if (item.type === 'folder') void navigate(route(item.id));
  else if (item.previewable) openPreview(item.id);
  else startDownload(fileUrl(item.id, 'download'), item.name);
}
