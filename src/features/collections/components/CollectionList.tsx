/**
 * The list part shared by the Archive, Favorites and Recent pages: the loading, error and empty
 * states, the list/grid layout switch, a header row, and the virtualised rows or cards
 * (react-virtuoso) that load the next page when the end is reached. Lists of live items also take
 * a double-click (open), Delete (archive, with Undo) and the rows' context menu.
 */
import { Button, Empty, Result, Spin } from 'antd';
import { useCallback, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { VirtualList } from '@src/components/VirtualList';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { RowContextMenu } from '@src/features/entities/components/RowContextMenu';
import { openRowItem, type RowActionItem } from '@src/features/entities/rowActions';
import { isTextField } from '@src/features/notifications/useUndoShortcut';
import { organiseEvents } from '@src/features/organise/organiseEvents';
import { selectCanOrganise } from '@src/features/organise/organiseSelectors';
import { ListLayoutToggle } from '@src/features/imaging/components/ListLayoutToggle';
import { selectListLayout } from '@src/features/imaging/imagingSelectors';
import { useOpenInViewer } from '@src/features/viewer/viewerNavigation';
import { selectCollection } from '../collectionsSelectors';
import { collectionsActions, type CollectionKind } from '../collectionsSlice';
import './collections.css';

/** Props of {@link CollectionList}. */
export interface CollectionListProps<Row extends { id: string }> {
  kind: CollectionKind;
  rows: readonly Row[];
  renderRow: (row: Row, index: number) => ReactNode;
  /** The header row's cells. */
  header: ReactNode;
  /** Accessible name of the table. */
  label: string;
  /** Text of the empty list. */
  emptyText: string;
  /** What the list is, for "This … could not be loaded." */
  noun: string;
  /**
   * The item of a row id, for lists of live items (Favorites, Recent): a double-click opens the
   * row's item, Delete archives it, and its context menu offers the row actions.
   */
  findItem?: (id: string) => RowActionItem | undefined;
}

/** Clicks on these inside a row are their own actions. */
const INTERACTIVE = 'a, button, input, label';

/** The item of the row around `target`, if any. */
function itemAt(
  target: EventTarget | null,
  findItem: (id: string) => RowActionItem | undefined,
): RowActionItem | undefined {
  const row = target instanceof Element ? target.closest<HTMLElement>('[data-entity-id]') : null;
  return row?.dataset.entityId ? findItem(row.dataset.entityId) : undefined;
}

const rowKey = (row: { id: string }) => row.id;

/** The list with its states. */
export function CollectionList<Row extends { id: string }>({
  kind,
  rows,
  renderRow,
  header,
  label,
  emptyText,
  noun,
  findItem,
}: CollectionListProps<Row>) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const openInViewer = useOpenInViewer();
  const canOrganise = useAppSelector(selectCanOrganise);
  const list = useAppSelector((state) => selectCollection(state, kind));
  const layout = useAppSelector(selectListLayout);
  const loadMore = useCallback(
    () => dispatch(collectionsActions.nextPageRequested({ kind })),
    [dispatch, kind],
  );

  if (list.list.status === 'failed') {
    return (
      <Result
        status="warning"
        title={`${noun} could not be loaded.`}
        subTitle={list.list.error}
        extra={
          <Button onClick={() => dispatch(collectionsActions.opened({ kind }))}>Try again</Button>
        }
      />
    );
  }
  if (list.list.status !== 'succeeded') {
    return (
      <div className="list-loading" role="status">
        <Spin description="Loading…">
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
        description={emptyText}
        data-testid={`${kind}-empty`}
      />
    );
  }

  const footer =
    list.more.status === 'loading' ? (
      <span role="status">
        <Spin size="small" /> Loading more…
      </span>
    ) : list.more.status === 'failed' ? (
      <span role="alert">
        {list.more.error}{' '}
        <Button size="small" onClick={loadMore}>
          Try again
        </Button>
      </span>
    ) : null;

  const onDoubleClick = (event: MouseEvent<HTMLElement>) => {
    if (!findItem || (event.target as Element).closest(INTERACTIVE)) return;
    const item = itemAt(event.target, findItem);
    if (item) openRowItem(item, navigate, { openPreview: openInViewer });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!findItem || !canOrganise || event.key !== 'Delete' || isTextField(event.target)) return;
    const item = itemAt(event.target, findItem);
    if (!item) return;
    event.preventDefault();
    dispatch(organiseEvents.archiveRequested({ items: [{ id: item.id, type: item.type }] }));
  };
  const body = (
    <div className="entity-table-body" onDoubleClick={onDoubleClick} onKeyDown={onKeyDown}>
      <VirtualList
        items={rows}
        itemKey={rowKey}
        renderItem={renderRow}
        onEndReached={loadMore}
        footer={footer}
        role="rowgroup"
        layout={layout}
      />
    </div>
  );

  return (
    <>
      <div className="list-layout-bar">
        <ListLayoutToggle />
      </div>
      <div
        className={`entity-table collection-table collection-${kind}${layout === 'grid' ? ' entity-table-grid' : ''}`}
        role="table"
        aria-label={label}
        aria-rowcount={list.total + 1}
      >
        <div role="rowgroup" className="entity-table-head">
          <div role="row" aria-rowindex={1} className="collection-row entity-row-head">
            {header}
          </div>
        </div>
        {findItem ? (
          <RowContextMenu findItem={findItem} renameInRow={false}>
            {body}
          </RowContextMenu>
        ) : (
          body
        )}
      </div>
    </>
  );
}
