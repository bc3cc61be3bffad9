/**
 * The Replay page's timeline: Previous and Next, and the window's entries oldest first (summary,
 * time, user and context), the current one marked (`aria-current="step"`) and opened to list
 * what it changed item by item (moved-out items included, since the list no longer shows them),
 * or that replay could not read it. A click on an entry goes to it.
 */
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useRef } from 'react';
import type { ReplayItemChange } from '@common/replay';
import { REPLAY_CHANGE_LABELS, REPLAY_MESSAGES } from '@common/replayViews';
import type { TimelineRow } from '../replayModel';
import {
  EARLIER_EVENTS_TEXT,
  LATER_EVENTS_TEXT,
  NO_EVENTS_TEXT,
  formatMoment,
} from '../replayTexts';

/** Props of {@link ReplayTimeline}. */
export interface ReplayTimelineProps {
  rows: readonly TimelineRow[];
  /** The current entry's index (-1: before the first). */
  position: number;
  /** What the current entry changed. */
  changes: readonly ReplayItemChange[];
  /** Whether replay could not read the current entry. */
  legacy: boolean;
  hasEarlier: boolean;
  hasLater: boolean;
  canPrevious: boolean;
  canNext: boolean;
  /** Whether another window is being read. */
  loading: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onSelect: (position: number) => void;
}

/** Keeps the current entry visible inside the list's own scroll box (never the page's). */
function useCurrentInView(position: number) {
  const box = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const list = box.current;
    const item = list?.querySelector<HTMLElement>('[data-current="true"]');
    if (!list || !item) return;
    if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
    else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
    }
  }, [position]);
  return box;
}

/** The timeline. */
export function ReplayTimeline({
  rows,
  position,
  changes,
  legacy,
  hasEarlier,
  hasLater,
  canPrevious,
  canNext,
  loading,
  onPrevious,
  onNext,
  onSelect,
}: ReplayTimelineProps) {
  const box = useCurrentInView(position);
  return (
    <section className="replay-timeline" aria-label="Timeline">
      <div className="replay-timeline-head">
        <h2 className="replay-section-title">Timeline</h2>
        <div className="replay-timeline-buttons">
          <Button
            icon={<LeftOutlined aria-hidden />}
            disabled={!canPrevious || loading}
            onClick={onPrevious}
            aria-keyshortcuts="ArrowLeft ArrowUp"
          >
            Previous
          </Button>
          <Button
            disabled={!canNext || loading}
            onClick={onNext}
            aria-keyshortcuts="ArrowRight ArrowDown"
          >
            Next <RightOutlined aria-hidden />
          </Button>
        </div>
      </div>
      {loading ? (
        <p className="replay-timeline-note" role="status">
          Loading…
        </p>
      ) : null}
      {hasEarlier ? <p className="replay-timeline-note">{EARLIER_EVENTS_TEXT}</p> : null}
      {rows.length === 0 ? <p className="replay-timeline-note">{NO_EVENTS_TEXT}</p> : null}
      <ol className="replay-timeline-list" ref={box} aria-label="Events">
        {rows.map((row, index) => {
          const current = index === position;
          const user = row.summary.startsWith(row.userName) ? '' : row.userName;
          return (
            <li
              key={row.id}
              className={current ? 'replay-entry replay-entry-current' : 'replay-entry'}
              data-current={current ? 'true' : undefined}
              data-testid="replay-entry"
            >
              <button
                type="button"
                className="replay-entry-button"
                aria-current={current ? 'step' : undefined}
                onClick={() => onSelect(index)}
              >
                <span className="replay-entry-summary">{row.summary}</span>
                <span className="replay-entry-meta">
                  <time dateTime={row.at}>{formatMoment(row.at)}</time>
                  {user ? ` · ${user}` : ''}
                  {row.context ? ` · ${row.context}` : ''}
                </span>
              </button>
              {current && (legacy || changes.length > 0) ? (
                <div className="replay-entry-details">
                  {legacy ? <p className="replay-entry-legacy">{REPLAY_MESSAGES.legacy}</p> : null}
                  {changes.length > 0 ? (
                    <ul className="replay-entry-changes" aria-label="What it changed">
                      {changes.map((change) => (
                        <li key={change.id}>
                          {change.name}:{' '}
                          {change.changes.map((c) => REPLAY_CHANGE_LABELS[c]).join(', ')}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>
      {hasLater ? <p className="replay-timeline-note">{LATER_EVENTS_TEXT}</p> : null}
    </section>
  );
}
