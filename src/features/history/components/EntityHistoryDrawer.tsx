/**
 * The entity side panel (SPEC section 2), showing one folder's or file's history:
 * opened by the History action of a row, newest first, the next page at the end, and a link to
 * the History page filtered to the item. Later features add their sections to this panel.
 */
import { Button, Drawer, Empty, Result, Spin } from 'antd';
import { useCallback } from 'react';
import { Link } from 'react-router';
import { useReturnFocus } from '@src/components/useReturnFocus';
import { VirtualList } from '@src/components/VirtualList';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectItemHistory, selectItemHistoryRows, type HistoryRow } from '../historySelectors';
import { historyActions } from '../historySlice';
import { EMPTY_VIEW, searchFromView } from '../historyView';
import { HistoryRowView } from './HistoryRowView';
import './history.css';

/** Text of an item without events. */
const EMPTY_ITEM_HISTORY_TEXT = 'No activity recorded for this item yet.';

const rowKey = (row: HistoryRow) => row.id;
const renderRow = (row: HistoryRow) => <HistoryRowView row={row} />;

/** The panel; renders nothing until an item is chosen; closed, the focus returns to its opener. */
export function EntityHistoryDrawer() {
  const dispatch = useAppDispatch();
  const item = useAppSelector(selectItemHistory);
  const rows = useAppSelector(selectItemHistoryRows);
  const target = item.target;
  const close = useCallback(() => dispatch(historyActions.itemPanelClosed()), [dispatch]);
  const loadMore = useCallback(() => dispatch(historyActions.itemNextPageRequested()), [dispatch]);
  // Closing gives the focus back to what opened the panel (a row's History button).
  useReturnFocus(target !== null);

  // Nothing is mounted until an item is chosen, so the folder view pays nothing for the panel.
  if (!target) return null;

  let body;
  if (item.list.status === 'failed') {
    body = (
      <Result
        status="warning"
        title="This history could not be loaded."
        subTitle={item.list.error}
        extra={
          <Button onClick={() => dispatch(historyActions.itemPanelOpened(target))}>
            Try again
          </Button>
        }
      />
    );
  } else if (item.list.status !== 'succeeded') {
    body = (
      <div className="list-loading" role="status">
        <Spin description="Loading history…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  } else if (rows.length === 0) {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={EMPTY_ITEM_HISTORY_TEXT} />;
  } else {
    const footer =
      item.more.status === 'loading' ? (
        <span role="status">
          <Spin size="small" /> Loading more…
        </span>
      ) : item.more.status === 'failed' ? (
        <span role="alert">
          {item.more.error}{' '}
          <Button size="small" onClick={loadMore}>
            Try again
          </Button>
        </span>
      ) : null;
    body = (
      <div className="history-list">
        <VirtualList
          items={rows}
          itemKey={rowKey}
          renderItem={renderRow}
          onEndReached={loadMore}
          footer={footer}
          role="list"
          focusableScroller
          ariaLabel={`History of ${target.name}`}
        />
      </div>
    );
  }

  const historyLink = `/history?${searchFromView({ ...EMPTY_VIEW, item: target.id, itemName: target.name })}`;

  return (
    <Drawer
      open
      onClose={close}
      size={480}
      title={`History of "${target.name}"`}
      extra={
        <Link to={historyLink} onClick={close}>
          Open in History
        </Link>
      }
    >
      <div className="item-history" data-testid="item-history">
        {body}
      </div>
    </Drawer>
  );
}
