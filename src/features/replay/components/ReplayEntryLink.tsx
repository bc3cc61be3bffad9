/**
 * The "View as of…" link of a History entry about a folder or a file: it opens the Replay page of
 * that folder (a file's: the folder it was in) right after the entry's event. Nothing for other
 * entries (sign-ins, users, firms…), and nothing for guests.
 */
import { FieldTimeOutlined } from '@ant-design/icons';
import { createSelector } from '@reduxjs/toolkit';
import { Link } from 'react-router';
import type { HistoryEventDto } from '@common/history';
import { useAppSelector } from '@src/store/hooks';
import type { RootState } from '@src/store/rootReducer';
import { selectIsGuest } from '../../sharing/sharingSelectors';
import { replayPagePath } from '../replayLinks';
import { VIEW_AS_OF_LABEL } from '../replayTexts';
import './replayEntryLink.css';

/**
 * The folder whose past a History entry opens: a folder event's folder, a file event's parent
 * ('' is the root), or null for entries about anything else.
 */
export function replayFolderOf(event: HistoryEventDto): string | null {
  if (event.entity_type === 'folder') return event.entity_id;
  if (event.entity_type !== 'file') return null;
  const parent = event.attributes.parent?.id;
  return typeof parent === 'string' ? parent : null;
}

/** The loaded History entries (the page's and the item panel's) by id. */
const selectHistoryEventsById = createSelector(
  [(state: RootState) => state.history.events, (state: RootState) => state.history.item.events],
  (events, itemEvents) =>
    new Map<string, HistoryEventDto>([...events, ...itemEvents].map((e) => [e.id, e])),
);

/** Props of {@link ReplayEntryLink}. */
export interface ReplayEntryLinkProps {
  /** The History entry's id. */
  eventId: string;
}

/** The link, or nothing when the entry is about neither a folder nor a file. */
export function ReplayEntryLink({ eventId }: ReplayEntryLinkProps) {
  const event = useAppSelector((state) => selectHistoryEventsById(state).get(eventId));
  const guest = useAppSelector(selectIsGuest);
  const folderId = event && !guest ? replayFolderOf(event) : null;
  if (folderId === null) return null;
  return (
    <Link
      className="replay-entry-link"
      to={replayPagePath(folderId, {
        moment: { as_of: null, event: eventId, before_event: null },
      })}
    >
      <FieldTimeOutlined aria-hidden /> {VIEW_AS_OF_LABEL}
    </Link>
  );
}
