/**
 * The small chart above the history list: events per day of the range as SVG
 * bars, and per activity type as CSS bars that toggle that type's filter. No chart library.
 */
import { Alert, Skeleton } from 'antd';
import type { HistoryLabel } from '@common/history';
import type { HistoryStatsDto } from '@common/history';
import { formatDayLabel } from './historyFormat';

/** Props of {@link HistoryStatsChart}. */
export interface HistoryStatsChartProps {
  stats: HistoryStatsDto | null;
  status: 'idle' | 'loading' | 'succeeded' | 'failed';
  error: string | null;
  /** What the range is called, e.g. "This month" or "Last 30 days". */
  rangeLabel: string;
  /** The activity types currently filtered. */
  selectedTypes: readonly string[];
  /** Toggles one activity type's filter; absent for 'Other', which has no label. */
  onToggleType: (label: HistoryLabel) => void;
}

const BAR = 10;
const HEIGHT = 60;

/** Renders the chart, a skeleton while loading, or the error. */
export function HistoryStatsChart({
  stats,
  status,
  error,
  rangeLabel,
  selectedTypes,
  onToggleType,
}: HistoryStatsChartProps) {
  if (status === 'failed') {
    return (
      <Alert type="warning" showIcon title={`The activity chart is unavailable: ${error ?? ''}`} />
    );
  }
  if (!stats) {
    return (
      <div className="history-stats" aria-busy="true">
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      </div>
    );
  }
  const max = Math.max(1, ...stats.days.map((d) => d.count));
  const types = stats.types.filter((t) => t.count > 0);
  const maxType = Math.max(1, ...types.map((t) => t.count));
  const first = stats.days[0]?.date;
  const last = stats.days[stats.days.length - 1]?.date;
  const total = stats.total.toLocaleString('en-US');
  return (
    <figure className="history-stats" aria-label="Activity chart" data-testid="history-stats">
      <figcaption className="history-stats-caption">
        {rangeLabel}: {total} {stats.total === 1 ? 'event' : 'events'}
        {stats.labels.length > 0 ? ` (${stats.labels.join(', ')})` : ''}
      </figcaption>
      <div>
        <svg
          className="history-stats-days"
          viewBox={`0 0 ${Math.max(stats.days.length, 1) * BAR} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`Events per day, ${first ?? ''} to ${last ?? ''}: ${total} in all`}
        >
          {stats.days.map((day, i) => {
            const height = day.count === 0 ? 2 : Math.max(3, (day.count / max) * HEIGHT);
            return (
              <rect
                key={day.date}
                className={day.count === 0 ? 'history-stats-day-empty' : 'history-stats-day'}
                x={i * BAR + 1}
                y={HEIGHT - height}
                width={BAR - 2}
                height={height}
                data-date={day.date}
                data-count={day.count}
              >
                <title>{`${formatDayLabel(day.date)}: ${day.count}`}</title>
              </rect>
            );
          })}
        </svg>
        <div className="history-stats-axis" aria-hidden>
          <span>{first ? formatDayLabel(first) : ''}</span>
          <span>{last ? formatDayLabel(last) : ''}</span>
        </div>
      </div>
      <ul className="history-stats-types" aria-label="Events per activity type">
        {types.length === 0 ? (
          <li className="history-summary-line">No activity in this range.</li>
        ) : null}
        {types.map((type) => {
          const filterable = type.label !== 'Other';
          const content = (
            <>
              <span>{type.label}</span>
              <span
                className="history-stats-bar"
                style={{ width: `${Math.max(4, (type.count / maxType) * 100)}%` }}
                aria-hidden
              />
              <span className="history-stats-count">{type.count.toLocaleString('en-US')}</span>
            </>
          );
          return (
            <li key={type.label}>
              {filterable ? (
                <button
                  type="button"
                  className="history-stats-type"
                  aria-pressed={selectedTypes.includes(type.label)}
                  title={`Show only "${type.label}"`}
                  onClick={() => onToggleType(type.label as HistoryLabel)}
                >
                  {content}
                </button>
              ) : (
                <div className="history-stats-type" title="Changes no activity type covers">
                  {content}
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </figure>
  );
}
