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
  StarFilled,
  StarOutlined,
} from '@ant-design/icons';
import { Button, Checkbox, Tooltip } from 'antd';
import type { CheckboxChangeEvent } from 'antd/es/checkbox';
import {
  memo,
  type CSSProperties,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { Link, useNavigate } from 'react-router';
import { useStore } from 'react-redux';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import type { AppStore } from '@src/store/store';
import { historyActions } from '@src/features/history/historySlice';
import { FileThumbnail } from '@src/features/imaging/components/FileThumbnail';
import { folderColor } from '@src/features/organise/components/colorMenu';
import { RenameInput } from '@src/features/organise/components/RenameInput';
import { endItemsDrag, startItemsDrag } from '@src/features/organise/dragItems';
import { folderDownloadUrl } from '@src/features/organise/organiseApi';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import {
  selectCanOrganise,
  selectIsSelected,
  selectOrderedIds,
  selectSelectionAnchor,
  selectRename,
  selectSelectedItems,
} from '@src/features/organise/organiseSelectors';
import { organiseActions, type SelectModifier } from '@src/features/organise/organiseSlice';
import { useFolderDrop } from '@src/features/organise/useFolderDrop';
import { useOpenInViewer } from '@src/features/viewer/viewerNavigation';
import { fileUrl } from '../entitiesApi';
import type { EntityRow } from '../entitiesSelectors';
import { openRowItem } from '../rowActions';
import { FileNameLink, NoPreviewButton } from './FileNameLink';
import { folderRoute } from './FolderBreadcrumbs';
import { RowMenu } from './RowMenu';

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
function clickModifier(event: {
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}): SelectModifier {
  if (event.shiftKey) return 'range';
  return event.ctrlKey || event.metaKey ? 'toggle' : 'none';
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
 * A focusable row (role "row", `data-entity-id`) of `row` at position `index`: Enter and a
 * double-click open a folder, a previewable file in the viewer, or download any other file
 * (`openRowItem`); F2 renames, Space toggles the selection, the Up and Down arrows move to the previous
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
      openRowItem(row, navigate, { openPreview: openInViewer });
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

  const onDoubleClick = (event: MouseEvent<HTMLDivElement>) => {
    if ((event.target as Element).closest(INTERACTIVE) || renaming) return;
    openRowItem(row, navigate, { openPreview: openInViewer });
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
      onDoubleClick={onDoubleClick}
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
          <FileThumbnail
            id={row.id}
            kind={row.kind}
            thumbnail={row.thumbnail}
            awaited={row.thumbnailAwaited}
          />
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
        <RowMenu item={row} />
      </div>
    </div>
  );
});
