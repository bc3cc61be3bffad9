/**
 * The list part shared by the Archive, Favorites and Recent pages: the loading, error and empty
 * states, the list/grid layout switch, a header row, and the virtualised rows or cards
 * (react-virtuoso) that load the next page when the end is reached.
 */
import { Button, Empty, Result, Spin } from 'antd';
import { useCallback, type ReactNode } from 'react';
import { VirtualList } from '../../../components/VirtualList';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { ListLayoutToggle } from '../../imaging/components/ListLayoutToggle';
import { selectListLayout } from '../../imaging/imagingSelectors';
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
}: CollectionListProps<Row>) {
  const dispatch = useAppDispatch();
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
        <div className="entity-table-body">
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
      </div>
    </>
  );
}
