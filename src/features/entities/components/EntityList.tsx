/** The folder's contents: a virtualised table-like list that loads the next page at its end. */
import { Button, Checkbox, Empty, Result, Spin } from 'antd';
import { useCallback, type KeyboardEvent } from 'react';
import { useStore } from 'react-redux';
import { VirtualList } from '@src/components/VirtualList';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import type { AppStore } from '@src/store/store';
import {
  selectOrderedIds,
  selectRename,
  selectSelectAllState,
} from '@src/features/organise/organiseSelectors';
import { organiseActions } from '@src/features/organise/organiseSlice';
import { selectListLayout } from '@src/features/imaging/imagingSelectors';
import { selectUploadPanel } from '@src/features/uploads/uploadsSelectors';
import {
  selectCreateFolder,
  selectCurrentFolder,
  selectEntityRows,
  selectFolderTotal,
  selectListRequest,
  selectMoreRequest,
  type EntityRow,
} from '../entitiesSelectors';
import { entitiesActions } from '../entitiesSlice';
import { useListShortcuts } from '../useListShortcuts';
import { EntityRowView } from './EntityRowView';
import { RowContextMenu } from './RowContextMenu';
import { SortableHeader, type SortColumn } from './SortableHeader';

/** Text of the empty folder. */
export const EMPTY_FOLDER_TEXT = 'This folder is empty. Drop files here or use Upload files.';

/** The sort buttons of the headers: Name (and Type), Size, Modified. */
const NAME_COLUMNS: SortColumn[] = [
  { column: 'name', label: 'Name' },
  { column: 'type', label: 'Type' },
];
const SIZE_COLUMNS: SortColumn[] = [{ column: 'size', label: 'Size' }];
const DATE_COLUMNS: SortColumn[] = [{ column: 'modified', label: 'Modified' }];

const rowKey = (row: EntityRow) => row.id;
const renderRow = (row: EntityRow, index: number) => <EntityRowView row={row} index={index} />;

const useAppStore = useStore.withTypes<AppStore>();

/** Whether a key event comes from a text field (its own Ctrl/Cmd-A and Esc). */
function inTextField(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement;
  return target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable;
}

/**
 * The list with its loading, error and empty states. Ctrl/Cmd-A selects every loaded row, Esc
 * clears the selection, Delete archives and F2 renames (useListShortcuts); the header checkbox
 * selects all or none; a row's context menu offers its actions (RowContextMenu).
 */
export function EntityList() {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const selectAll = useAppSelector(selectSelectAllState);
  const renaming = useAppSelector((state) => selectRename(state).itemId !== null);
  const rows = useAppSelector(selectEntityRows);
  const total = useAppSelector(selectFolderTotal);
  const list = useAppSelector(selectListRequest);
  const more = useAppSelector(selectMoreRequest);
  const folder = useAppSelector(selectCurrentFolder);
  const uploadPanel = useAppSelector(selectUploadPanel);
  const layout = useAppSelector(selectListLayout);
  // A folder just created here is brought into view, wherever the name puts it.
  const createdId = useAppSelector(selectCreateFolder).createdId;

  const findRow = (id: string) => selectEntityRows(store.getState()).find((row) => row.id === id);
  const loadMore = useCallback(() => dispatch(entitiesActions.nextPageRequested()), [dispatch]);
  const toggleAll = () => {
    if (selectAll === 'all') dispatch(organiseActions.selectionCleared());
    else dispatch(organiseActions.allSelected({ ids: selectOrderedIds(store.getState()) }));
  };
  const shortcuts = useListShortcuts();
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    shortcuts(event);
    if (inTextField(event) || renaming) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      dispatch(organiseActions.allSelected({ ids: selectOrderedIds(store.getState()) }));
    } else if (event.key === 'Escape') {
      dispatch(organiseActions.selectionCleared());
    }
  };

  if (list.status === 'failed') {
    return (
      <Result
        status="warning"
        title="This folder could not be loaded."
        subTitle={list.error}
        extra={
          <Button onClick={() => dispatch(entitiesActions.folderOpened({ folderId: folder.id }))}>
            Try again
          </Button>
        }
      />
    );
  }
  if (list.status !== 'succeeded') {
    return (
      <div className="list-loading" role="status">
        <Spin description="Loading folder…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  }
  if (rows.length === 0) {
    return (
      <Empty
        className="page-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={EMPTY_FOLDER_TEXT}
      />
    );
  }

  const moreState =
    more.status === 'loading' ? (
      <span role="status">
        <Spin size="small" /> Loading more…
      </span>
    ) : more.status === 'failed' ? (
      <span role="alert">
        {more.error}{' '}
        <Button size="small" onClick={loadMore}>
          Try again
        </Button>
      </span>
    ) : null;
  // Room below the last row so that the fixed upload panel never hides it.
  const footer =
    uploadPanel === 'hidden' ? (
      moreState
    ) : (
      <div className="list-footer-stack">
        {moreState}
        <div className={`upload-panel-spacer upload-panel-spacer-${uploadPanel}`} aria-hidden />
      </div>
    );

  return (
    <div
      className={layout === 'grid' ? 'entity-table entity-table-grid' : 'entity-table'}
      role="table"
      aria-label={`Contents of ${folder.id ? folder.name : 'Home'}`}
      aria-rowcount={total + 1}
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" className="entity-table-head">
        <div role="row" aria-rowindex={1} className="entity-row entity-row-head">
          <div role="columnheader" className="entity-cell entity-cell-select">
            <Checkbox
              aria-label="Select all"
              checked={selectAll === 'all'}
              indeterminate={selectAll === 'some'}
              onChange={toggleAll}
            />
          </div>
          <SortableHeader className="entity-cell entity-cell-name" columns={NAME_COLUMNS} />
          <SortableHeader className="entity-cell entity-cell-size" columns={SIZE_COLUMNS} />
          <SortableHeader className="entity-cell entity-cell-date" columns={DATE_COLUMNS} />
          <div role="columnheader" className="entity-cell entity-cell-actions">
            <span className="visually-hidden">Actions</span>
          </div>
        </div>
      </div>
      <RowContextMenu findItem={findRow}>
        <div className="entity-table-body">
          <VirtualList
            items={rows}
            itemKey={rowKey}
            renderItem={renderRow}
            onEndReached={loadMore}
            footer={footer}
            role="rowgroup"
            scrollToKey={createdId}
            layout={layout}
          />
        </div>
      </RowContextMenu>
    </div>
  );
}
