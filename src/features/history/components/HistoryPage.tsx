/**
 * The activity history (SPEC section 2): filters that live in the URL, a small
 * stats chart, an Export button, and the virtualised list, newest first, a summary and a detail
 * line per entry, loading the next page at its end.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Empty, Result, Spin } from 'antd';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { withoutDetailsParam } from '@src/features/details/detailsLink';
import type { HistoryLabel } from '@common/history';
import { PageTitle } from '@src/components/PageTitle';
import { VirtualList } from '@src/components/VirtualList';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import {
  selectHistoryCountText,
  selectHistoryExport,
  selectHistoryList,
  selectHistoryMore,
  selectHistoryRows,
  selectHistoryStats,
  selectHistoryUserOptions,
  selectHistoryUsers,
  type HistoryRow,
} from '../historySelectors';
import { historyActions } from '../historySlice';
import {
  filtersForView,
  hasFilters,
  orderLabels,
  searchFromView,
  statsRangeForView,
  viewFromSearch,
  type HistoryView,
} from '../historyView';
import { HistoryFilterBar } from './HistoryFilterBar';
import { HistoryRowView } from './HistoryRowView';
import { HistoryStatsChart } from './HistoryStatsChart';
import { rangeLabelOf } from './historyFormat';
import './history.css';

/** Text of the empty history. */
const EMPTY_HISTORY_TEXT = 'No activity yet. Uploads, new folders and sign-ins appear here.';
/** Text of a filtered history with no match. */
const NO_MATCH_TEXT = 'No activity matches these filters.';

const rowKey = (row: HistoryRow) => row.id;
const renderRow = (row: HistoryRow) => <HistoryRowView row={row} />;

/** Opens the view of the URL (again after a firm switch) and shows it. */
export function HistoryPage() {
  const dispatch = useAppDispatch();
  const { message } = AntApp.useApp();
  const [searchParams, setSearchParams] = useSearchParams();
  const search = withoutDetailsParam(searchParams);
  const view = useMemo(() => viewFromSearch(search), [search]);
  const databaseId = useAppSelector(selectCurrentDatabaseId);
  const rows = useAppSelector(selectHistoryRows);
  const list = useAppSelector(selectHistoryList);
  const more = useAppSelector(selectHistoryMore);
  const countText = useAppSelector(selectHistoryCountText);
  const stats = useAppSelector(selectHistoryStats);
  const users = useAppSelector(selectHistoryUsers);
  const userOptions = useAppSelector(selectHistoryUserOptions);
  const exporting = useAppSelector(selectHistoryExport);

  const open = useCallback(() => {
    const now = new Date();
    dispatch(
      historyActions.viewOpened({
        view,
        filters: filtersForView(view, now),
        statsRange: statsRangeForView(view, now),
      }),
    );
  }, [dispatch, view]);

  useEffect(() => {
    open();
  }, [open, databaseId]);

  // Tell the user how the export went, once per export.
  const reported = useRef(exporting.status);
  useEffect(() => {
    if (reported.current === exporting.status) return;
    reported.current = exporting.status;
    if (exporting.status === 'succeeded' && exporting.fileName) {
      void message.success(`Exported ${exporting.fileName}`);
    } else if (exporting.status === 'failed' && exporting.error) {
      void message.error(exporting.error);
    }
  }, [exporting, message]);

  const applyView = useCallback(
    (next: HistoryView) => setSearchParams(new URLSearchParams(searchFromView(next))),
    [setSearchParams],
  );
  const toggleType = useCallback(
    (label: HistoryLabel) =>
      applyView({
        ...view,
        types: view.types.includes(label)
          ? view.types.filter((t) => t !== label)
          : orderLabels([...view.types, label]),
      }),
    [applyView, view],
  );
  const loadMore = useCallback(() => dispatch(historyActions.nextPageRequested()), [dispatch]);

  let body;
  if (list.status === 'failed') {
    body = (
      <Result
        status="warning"
        title="The history could not be loaded."
        subTitle={list.error}
        extra={<Button onClick={open}>Try again</Button>}
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
        description={hasFilters(view) ? NO_MATCH_TEXT : EMPTY_HISTORY_TEXT}
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
      <>
        <div className="history-summary-line" role="status">
          {countText}
        </div>
        <div className="history-list">
          <VirtualList
            items={rows}
            itemKey={rowKey}
            renderItem={renderRow}
            onEndReached={loadMore}
            footer={footer}
            role="list"
            focusableScroller
            ariaLabel="Activity history"
          />
        </div>
      </>
    );
  }

  return (
    <div className="page history-page">
      <PageTitle
        extra={
          <Button
            icon={<DownloadOutlined aria-hidden />}
            loading={exporting.status === 'loading'}
            disabled={list.status !== 'succeeded'}
            onClick={() => dispatch(historyActions.exportRequested())}
          >
            Export
          </Button>
        }
      >
        History
      </PageTitle>
      <HistoryFilterBar
        view={view}
        users={userOptions}
        usersLoading={users.status === 'loading'}
        onChange={applyView}
      />
      <HistoryStatsChart
        stats={stats.data}
        status={stats.status}
        error={stats.error}
        rangeLabel={rangeLabelOf(view)}
        selectedTypes={view.types}
        onToggleType={toggleType}
      />
      {body}
    </div>
  );
}
