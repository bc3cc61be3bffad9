/**
 * One row of the folder list: selection checkbox, icon (a folder takes its colour), name (or the
 * inline rename), size, date, and the actions: favorite star, download (a file, or a folder as a
 * zip), preview (disabled for a file the browser cannot show inline), history, and the row menu
 * (rename, move, copy, colour, archive, details). A file's name opens its preview, or downloads it
 * when it has none. Rows are selected by click, Ctrl/Cmd-click and Shift-click, dragged onto
 * folders and breadcrumbs to move, and folder rows take dropped rows.
 */
import {
  DownloadOutlined,
  EyeOutlined,
  FileZipOutlined,
  HistoryOutlined,
  MoreOutlined,
  StarFilled,
  StarOutlined,
} from '@ant-design/icons';
import { Button, Checkbox, Dropdown, Tooltip, type MenuProps } from 'antd';
import type { CheckboxChangeEvent } from 'antd/es/checkbox';
import {
  memo,
  useState,
  type CSSProperties,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { Link, useNavigate } from 'react-router';
import type { EntityRef } from '../../../../common/types';
import { useStore } from 'react-redux';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import type { AppStore } from '../../../store/store';
import { detailsActions } from '../../details/detailsSlice';
import { selectFeatureFlag } from '../../flags/flagsSelectors';
import { historyActions } from '../../history/historySlice';
import { FileThumbnail } from '../../imaging/components/FileThumbnail';
import { colorFromMenuKey, colorMenuItems, folderColor } from '../../organise/components/colorMenu';
import { RenameInput } from '../../organise/components/RenameInput';
import { endItemsDrag, startItemsDrag } from '../../organise/dragItems';
import { folderDownloadUrl } from '../../organise/organiseApi';
import { organiseEvents } from '../../organise/organiseEvents';
import {
  selectCanOrganise,
  selectIsSelected,
  selectOrderedIds,
  selectSelectionAnchor,
  selectRename,
  selectSelectedItems,
} from '../../organise/organiseSelectors';
import { organiseActions, type SelectModifier } from '../../organise/organiseSlice';
import { useFolderDrop } from '../../organise/useFolderDrop';
import { useOpenInViewer } from '../../viewer/viewerNavigation';
import { fileUrl } from '../entitiesApi';
import type { EntityRow } from '../entitiesSelectors';
import { FileNameLink, NoPreviewButton, startDownload } from './FileNameLink';
import { folderRoute } from './FolderBreadcrumbs';

/** Props of {@link EntityRowView}. */
export interface EntityRowViewProps {
  row: EntityRow;
  /** Position in the list, from 0. */
  index: number;
}

/** The store, typed (read at click time, so rows do not re-render for the list order). */
const useAppStore = useStore.withTypes<AppStore>();

/** Clicks on these (inside a row) are their own actions, not row selection. */
const INTERACTIVE = 'a, button, input, label, .ant-checkbox-wrapper, .ant-dropdown';

/** The selection modifier of a click: Shift → range, Ctrl/Cmd → toggle. */
export function clickModifier(event: {
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}): SelectModifier {
  if (event.shiftKey) return 'range';
  return event.ctrlKey || event.metaKey ? 'toggle' : 'none';
}

/** The row menu of one item. */
function RowMenu({ row }: { row: EntityRow }) {
  const dispatch = useAppDispatch();
  const colorsOn = useAppSelector((state) => selectFeatureFlag(state, 'folderColors'));
  const canOrganise = useAppSelector(selectCanOrganise);
  const isFolder = row.type === 'folder';
  const ref: EntityRef = { id: row.id, type: row.type };
  const [mounted, setMounted] = useState(false);
  const [open, setOpen] = useState(true);

  const items: MenuProps['items'] = [
    ...(canOrganise
      ? [
          { key: 'rename', label: 'Rename' },
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

  const onClick: MenuProps['onClick'] = ({ key, domEvent }) => {
    domEvent.stopPropagation();
    setOpen(false);
    const color = colorFromMenuKey(key);
    if (color) {
      dispatch(organiseEvents.colorRequested({ items: [ref], color }));
      return;
    }
    switch (key) {
      case 'rename':
        dispatch(organiseActions.renameStarted({ id: row.id }));
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
        dispatch(organiseEvents.folderDownloadRequested({ folderId: row.id }));
        break;
      case 'details':
        dispatch(detailsActions.panelOpened(ref));
        break;
      case 'archive':
        dispatch(organiseEvents.archiveRequested({ items: [ref] }));
        break;
    }
  };

  const button = (
    <Button
      type="text"
      size="small"
      icon={<MoreOutlined aria-hidden />}
      aria-label={`More actions for ${row.name}`}
      aria-haspopup="menu"
      onClick={(event) => {
        event.stopPropagation();
        if (!mounted) setMounted(true);
      }}
    />
  );
  // The menu is built on first use: a page of rows pays for one button each, not a dropdown.
  if (!mounted) return button;
  return (
    <Dropdown
      menu={{ items, onClick }}
      trigger={['click']}
      open={open}
      onOpenChange={(next) => setOpen(next)}
    >
      {button}
    </Dropdown>
  );
}

/**
 * The row `step` rows after `row` (before it when negative) among the rendered rows of its table,
 * or null at either end. The list is virtualised: moving focus to the last rendered row scrolls it
 * into view, which renders the next ones.
 */
function adjacentRow(row: HTMLElement, step: 1 | -1): HTMLElement | null {
  const table = row.closest('[role="table"]');
  if (!table) return null;
  const rows = Array.from(table.querySelectorAll<HTMLElement>('[data-testid="entity-row"]'));
  return rows[rows.indexOf(row) + step] ?? null;
}

/**
 * A focusable row (role "row", `data-entity-id`) of `row` at position `index`: Enter opens a
 * folder, a previewable file in the viewer, or downloads any other file; F2 renames, Space toggles the selection, the Up and Down arrows move to the previous
 * or next row, and with Shift they also extend the selection to it (as Shift-click does).
 */
export const EntityRowView = memo(function EntityRowView({ row, index }: EntityRowViewProps) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const selected = useAppSelector((state) => selectIsSelected(state, row.id));
  const renaming = useAppSelector((state) => selectRename(state).itemId === row.id);
  const canOrganise = useAppSelector(selectCanOrganise);
  const isFolder = row.type === 'folder';
  const openInViewer = useOpenInViewer();
  const drop = useFolderDrop(row.id, row.name, isFolder && !renaming && canOrganise);
  const color = isFolder ? folderColor(row.color) : undefined;

  const select = (modifier: SelectModifier) =>
    dispatch(
      organiseActions.rowClicked({
        id: row.id,
        modifier,
        orderedIds: selectOrderedIds(store.getState()),
      }),
    );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      if (isFolder) void navigate(folderRoute(row.id));
      else if (row.previewable) openInViewer(row.id);
      else startDownload(fileUrl(row.id, 'download'), row.name);
    } else if (event.key === 'F2' && canOrganise) {
      event.preventDefault();
      dispatch(organiseActions.renameStarted({ id: row.id }));
    } else if (event.key === ' ') {
      event.preventDefault();
      select(event.shiftKey ? 'range' : 'toggle');
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = adjacentRow(event.currentTarget, event.key === 'ArrowDown' ? 1 : -1);
      const nextId = next?.dataset.entityId;
      if (!next || !nextId) return;
      next.focus();
      next.scrollIntoView?.({ block: 'nearest' });
      if (event.shiftKey) {
        // The range starts at this row when nothing anchors it yet.
        if (selectSelectionAnchor(store.getState()) === null) select('none');
        dispatch(
          organiseActions.rowClicked({
            id: nextId,
            modifier: 'range',
            orderedIds: selectOrderedIds(store.getState()),
          }),
        );
      }
    }
  };

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if ((event.target as Element).closest(INTERACTIVE)) return;
    select(clickModifier(event));
  };

  // Shift-click would otherwise select the text between the two rows.
  const onMouseDown = (event: MouseEvent<HTMLDivElement>) => {
    if (event.shiftKey) event.preventDefault();
  };

  // A selected row drags the whole selection; another row drags itself (the selection stays).
  const onDragStart = (event: DragEvent<HTMLDivElement>) => {
    const items = selected
      ? selectSelectedItems(store.getState())
      : [{ id: row.id, type: row.type, name: row.name }];
    startItemsDrag(event.dataTransfer, items);
  };

  const onCheck = (event: CheckboxChangeEvent) => {
    const native = event.nativeEvent as unknown as { shiftKey?: boolean };
    select(native.shiftKey ? 'range' : 'toggle');
  };

  const className = [
    'entity-row',
    selected ? 'entity-row-selected' : '',
    drop.over ? 'entity-row-drop' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const colorStyle = color ? ({ '--folder-color': color.dark } as CSSProperties) : undefined;

  return (
    <div
      role="row"
      tabIndex={0}
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={className}
      data-testid="entity-row"
      data-entity-id={row.id}
      draggable={canOrganise && !renaming}
      onKeyDown={onKeyDown}
      onClick={onClick}
      onMouseDown={onMouseDown}
      onDragStart={onDragStart}
      onDragEnd={endItemsDrag}
      {...drop.handlers}
    >
      <div role="cell" className="entity-cell entity-cell-select">
        <Checkbox checked={selected} aria-label={`Select ${row.name}`} onChange={onCheck} />
      </div>
      <div role="cell" className="entity-cell entity-cell-name">
        <span
          className={color ? 'folder-color folder-colored' : 'folder-color'}
          style={colorStyle}
          data-color={color?.key}
        >
          <FileThumbnail id={row.id} kind={row.kind} thumbnail={row.thumbnail} />
        </span>
        {renaming ? (
          <RenameInput item={{ id: row.id, type: row.type }} name={row.name} />
        ) : isFolder ? (
          <Link className="entity-name" to={folderRoute(row.id)} tabIndex={-1} draggable={false}>
            {row.name}
          </Link>
        ) : (
          <FileNameLink file={row} tabIndex={-1} draggable={false} />
        )}
      </div>
      <div role="cell" className="entity-cell entity-cell-size">
        {row.sizeText}
      </div>
      <div role="cell" className="entity-cell entity-cell-date">
        <time dateTime={row.date}>{row.dateText}</time>
      </div>
      <div role="cell" className="entity-cell entity-cell-actions">
        <Button
          type="text"
          size="small"
          className={row.favorite ? 'favorite-star favorite-star-on' : 'favorite-star'}
          icon={row.favorite ? <StarFilled aria-hidden /> : <StarOutlined aria-hidden />}
          aria-label={`Favorite ${row.name}`}
          aria-pressed={row.favorite}
          title={row.favorite ? 'Remove from favorites' : 'Add to favorites'}
          onClick={() =>
            dispatch(
              organiseEvents.favoriteRequested({
                item: { id: row.id, type: row.type },
                enabled: !row.favorite,
              }),
            )
          }
        />
        {isFolder ? (
          <Button
            type="text"
            size="small"
            icon={<FileZipOutlined aria-hidden />}
            href={folderDownloadUrl(row.id)}
            download={`${row.name}.zip`}
            title="Download as zip"
            aria-label={`Download ${row.name} as zip`}
          />
        ) : (
          <>
            <Tooltip title="Download">
              <Button
                type="text"
                size="small"
                icon={<DownloadOutlined aria-hidden />}
                href={fileUrl(row.id, 'download')}
                download={row.name}
                aria-label={`Download ${row.name}`}
              />
            </Tooltip>
            {row.previewable ? (
              <Tooltip title="Preview">
                <Button
                  type="text"
                  size="small"
                  icon={<EyeOutlined aria-hidden />}
                  aria-label={`Preview ${row.name}`}
                  onClick={() => openInViewer(row.id)}
                />
              </Tooltip>
            ) : (
              <NoPreviewButton type="text" size="small" label={`Preview ${row.name}`} />
            )}
          </>
        )}
        <Button
          type="text"
          size="small"
          icon={<HistoryOutlined aria-hidden />}
          title="History"
          aria-label={`History of ${row.name}`}
          onClick={() =>
            dispatch(historyActions.itemPanelOpened({ type: row.type, id: row.id, name: row.name }))
          }
        />
        <RowMenu row={row} />
      </div>
    </div>
  );
});
