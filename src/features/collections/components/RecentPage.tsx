/**
 * The Recent page (/recent): the items the user created, opened or changed most
 * recently, across folders, newest first: name, where, when (relative date, SPEC section 9) and
 * what. With the fileStats flag the firm's statistics head the page.
 */
import { Tooltip } from 'antd';
import { memo, useEffect, useState } from 'react';
import { PageTitle } from '@src/components/PageTitle';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { FirmStatsCard } from '@src/features/details/components/FirmStatsCard';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import { selectRecentRows, type RecentRow } from '../collectionsSelectors';
import { collectionsActions } from '../collectionsSlice';
import { CollectionList } from './CollectionList';
import { CollectionHeader, DetailsButton, NameCell, WhereCell } from './cells';

/** Text of the empty Recent page. */
export const EMPTY_RECENT_TEXT =
  'Nothing here yet. Folders and files you add, open or change appear here.';

/** One recent item. */
const RecentRowView = memo(function RecentRowView({
  row,
  index,
}: {
  row: RecentRow;
  index: number;
}) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className="collection-row"
      data-testid="recent-row"
      data-entity-id={row.id}
    >
      <NameCell row={row} />
      <WhereCell row={row} />
      <div role="cell" className="entity-cell entity-cell-date">
        <Tooltip title={row.dateText}>
          <time dateTime={row.at}>{row.whenText}</time>
        </Tooltip>
      </div>
      <div role="cell" className="entity-cell collection-cell-what">
        {row.whatText}
      </div>
      <div role="cell" className="entity-cell entity-cell-actions">
        <DetailsButton row={row} />
      </div>
    </div>
  );
});

const renderRow = (row: RecentRow, index: number) => <RecentRowView row={row} index={index} />;

/** The page: opens the list (again when the firm database changes). */
export function RecentPage() {
  const dispatch = useAppDispatch();
  const databaseId = useAppSelector(selectCurrentDatabaseId);
  // The reference of the relative dates: when the page opened.
  const [now, setNow] = useState(() => Date.now());
  const rows = useAppSelector((state) => selectRecentRows(state, now));

  useEffect(() => {
    setNow(Date.now());
    dispatch(collectionsActions.opened({ kind: 'recent' }));
  }, [dispatch, databaseId]);

  const header = <CollectionHeader where="Location" date="When" detail="what" />;

  return (
    <div className="page collection-page">
      <PageTitle>Recent</PageTitle>
      <FirmStatsCard />
      <CollectionList
        kind="recent"
        rows={rows}
        findItem={(id) => rows.find((row) => row.id === id)}
        renderRow={renderRow}
        header={header}
        label="Recent items"
        emptyText={EMPTY_RECENT_TEXT}
        noun="Recent items"
      />
    </div>
  );
}
