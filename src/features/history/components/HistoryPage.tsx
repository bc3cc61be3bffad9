/** The activity history (SPEC section 2): newest first, a summary and a detail line per entry. */
import { Button, Empty, Result, Spin } from 'antd';
import { useCallback, useEffect } from 'react';
import { PageTitle } from '../../../components/PageTitle';
import { VirtualList } from '../../../components/VirtualList';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { selectCurrentDatabaseId } from '../../session/sessionSelectors';
import {
  selectHistoryList,
  selectHistoryMore,
  selectHistoryRows,
  type HistoryRow,
} from '../historySelectors';
import { historyActions } from '../historySlice';
import { HistoryIconView } from './HistoryIconView';

/** Text of the empty history. */
export const EMPTY_HISTORY_TEXT = 'No activity yet. Uploads, new folders and sign-ins appear here.';

const rowKey = (row: HistoryRow) => row.id;
const renderRow = (row: HistoryRow) => (
  <div role="listitem" className="history-row" data-testid="history-row">
    <HistoryIconView icon={row.icon} />
    <div className="history-text">
      <div className="history-summary">{row.summary}</div>
      {row.detail ? <div className="history-detail">{row.detail}</div> : null}
    </div>
    <time className="history-date" dateTime={row.date}>
      {row.dateText}
    </time>
  </div>
);

/** Loads the first page on arrival (again after a firm switch) and the next at the end. */
export function HistoryPage() {
  const dispatch = useAppDispatch();
  const databaseId = useAppSelector(selectCurrentDatabaseId);
  const rows = useAppSelector(selectHistoryRows);
  const list = useAppSelector(selectHistoryList);
  const more = useAppSelector(selectHistoryMore);

  useEffect(() => {
    dispatch(historyActions.opened());
  }, [dispatch, databaseId]);

  const loadMore = useCallback(() => dispatch(historyActions.nextPageRequested()), [dispatch]);

  let body;
  if (list.status === 'failed') {
    body = (
      <Result
        status="warning"
        title="The history could not be loaded."
        subTitle={list.error}
        extra={<Button onClick={() => dispatch(historyActions.opened())}>Try again</Button>}
      />
    );
  } else if (list.status !== 'succeeded') {
    body = (
      <div className="list-loading" role="status">
        <Spin description="Loading history…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  } else if (rows.length === 0) {
    body = (
      <Empty
        className="page-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={EMPTY_HISTORY_TEXT}
      />
    );
  } else {
    const footer =
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
    body = (
      <div className="history-list">
        <VirtualList
          items={rows}
          itemKey={rowKey}
          renderItem={renderRow}
          onEndReached={loadMore}
          footer={footer}
          role="list"
          ariaLabel="Activity history"
        />
      </div>
    );
  }

  return (
    <div className="page history-page">
      <PageTitle>History</PageTitle>
      {body}
    </div>
  );
}
