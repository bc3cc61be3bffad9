/** Small display helpers of the history components. */
import dayjs from 'dayjs';
import type { DateChoice, HistoryView } from '../historyView';
import { DEFAULT_STATS_DAYS } from '../historyView';

/** "Mar 5, 2024" for a YYYY-MM-DD day. */
export function formatDayLabel(day: string): string {
  return dayjs(day).format('MMM D, YYYY');
}

/** What the stats chart's range is called for a view. */
export function rangeLabelOf(view: Pick<HistoryView, 'date' | 'from' | 'to'>): string {
  const date: DateChoice = view.date;
  if (date === 'custom' && view.from && view.to) {
    return `${formatDayLabel(view.from)} – ${formatDayLabel(view.to)}`;
  }
  if (date && date !== 'custom') return date;
  return `Last ${DEFAULT_STATS_DAYS} days`;
}
