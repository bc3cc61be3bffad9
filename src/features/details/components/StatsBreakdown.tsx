/** The by-type breakdown of file statistics: the 8 categories of SPEC section 3, in order. */
import { formatSize } from '@common/format';
import { plural } from '@common/text';
import type { TypeStatDto } from '@common/stats';
import { completeByType } from '../detailsSelectors';

/** Props of {@link StatsBreakdown}. */
export interface StatsBreakdownProps {
  byType: readonly TypeStatDto[];
  /** Accessible name of the list. */
  label: string;
}

/** One row per category: name, file count, bytes and a bar of its share of the files. */
export function StatsBreakdown({ byType, label }: StatsBreakdownProps) {
  const rows = completeByType(byType);
  const most = Math.max(1, ...rows.map((row) => row.count));
  return (
    <ul className="stats-breakdown" aria-label={label}>
      {rows.map((row) => (
        <li key={row.category} className="stats-breakdown-row" data-category={row.category}>
          <span className="stats-breakdown-name">{row.category}</span>
          <span className="stats-breakdown-bar" aria-hidden>
            <span
              className="stats-breakdown-fill"
              style={{ width: `${Math.round((row.count / most) * 100)}%` }}
            />
          </span>
          <span className="stats-breakdown-count">
            {row.count} {plural(row.count, 'file')}
          </span>
          <span className="stats-breakdown-size">{formatSize(row.size)}</span>
        </li>
      ))}
    </ul>
  );
}
