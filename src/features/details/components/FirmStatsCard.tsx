/**
 * The firm-wide statistics (flag fileStats): live files and folders, their bytes,
 * archived files, and the files per category. Shown at the top of the Recent page and in the
 * root's side panel; renders nothing while the flag is off.
 */
import { Button, Card, Spin } from 'antd';
import { useEffect } from 'react';
import { formatSize } from '@common/format';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectFeatureFlag } from '@src/features/flags/flagsSelectors';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import { selectFirmStats } from '../detailsSelectors';
import { detailsActions } from '../detailsSlice';
import { StatsBreakdown } from './StatsBreakdown';
import './details.css';

/** Title of the card. */
const FIRM_STATS_TITLE = 'Firm statistics';

/** Props of {@link FirmStatsCard}. */
export interface FirmStatsCardProps {
  /** Read the statistics when mounted (false when the parent already asked for them). */
  load?: boolean;
}

/** The card; reads the statistics when it mounts. */
export function FirmStatsCard({ load = true }: FirmStatsCardProps) {
  const dispatch = useAppDispatch();
  const enabled = useAppSelector((state) => selectFeatureFlag(state, 'fileStats'));
  const firm = useAppSelector(selectFirmStats);
  // Read again when the firm database changes (a switch clears the statistics).
  const databaseId = useAppSelector(selectCurrentDatabaseId);

  useEffect(() => {
    if (enabled && load) dispatch(detailsActions.firmStatsRequested());
  }, [dispatch, enabled, load, databaseId]);

  if (!enabled) return null;

  let body;
  if (firm.status === 'failed') {
    body = (
      <p role="alert" className="stats-error">
        {firm.error}{' '}
        <Button size="small" onClick={() => dispatch(detailsActions.firmStatsRequested())}>
          Try again
        </Button>
      </p>
    );
  } else if (!firm.totals) {
    body = (
      <span role="status">
        <Spin size="small" /> Loading statistics…
      </span>
    );
  } else {
    const { totals } = firm;
    body = (
      <div className="firm-stats-body">
        <dl className="stats-totals">
          <div>
            <dt>Files</dt>
            <dd>{totals.files}</dd>
          </div>
          <div>
            <dt>Folders</dt>
            <dd>{totals.folders}</dd>
          </div>
          <div>
            <dt>Total size</dt>
            <dd>{formatSize(totals.size)}</dd>
          </div>
          <div>
            <dt>Archived files</dt>
            <dd>{totals.archived_files}</dd>
          </div>
        </dl>
        <StatsBreakdown byType={firm.byType} label="Firm files by type" />
      </div>
    );
  }

  return (
    <Card
      size="small"
      className="firm-stats"
      title={<h2 className="stats-title">{FIRM_STATS_TITLE}</h2>}
      data-testid="firm-stats"
    >
      {body}
    </Card>
  );
}
