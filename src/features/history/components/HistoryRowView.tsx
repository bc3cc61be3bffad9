/**
 * One entry of a history list: icon, one-line summary, detail line, date (SPEC section 2) and, for
 * an entry about a folder or a file, the "View as of…" link to that folder's past (Replay).
 */
import { ReplayEntryLink } from '@src/features/replay/components/ReplayEntryLink';
import type { HistoryRow } from '../historySelectors';
import { HistoryIconView } from './HistoryIconView';

/** Props of {@link HistoryRowView}. */
export interface HistoryRowViewProps {
  row: HistoryRow;
}

/** Renders a list item; the summary says what happened, so the icon is decorative. */
export function HistoryRowView({ row }: HistoryRowViewProps) {
  return (
    <div role="listitem" className="history-row" data-testid="history-row">
      <HistoryIconView icon={row.icon} />
      <div className="history-text">
        <div className="history-summary">{row.summary}</div>
        {row.detail ? <div className="history-detail">{row.detail}</div> : null}
        <ReplayEntryLink eventId={row.id} />
      </div>
      <time className="history-date" dateTime={row.date}>
        {row.dateText}
      </time>
    </div>
  );
}
