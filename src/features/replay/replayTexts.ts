/**
 * The Replay screen's own words (the contract's messages and change labels are in
 * common/replayViews.ts REPLAY_MESSAGES and REPLAY_CHANGE_LABELS, shown as they are).
 */
import dayjs from 'dayjs';

/** The entry points' label (folder toolbar, History entries). */
export const VIEW_AS_OF_LABEL = 'View as of…';
/** The banner's button back to the folder's page. */
export const BACK_TO_NOW_LABEL = 'Back to now';
/** The tag of an item that was permanently deleted after the moment shown. */
export const DELETED_SINCE_LABEL = 'Deleted since';
/** The name the Replay page gives the root folder. */
export const HOME_FOLDER_NAME = 'Home';
/** Shown when a view cannot be read (followed by the server's reason). */
export const COULD_NOT_LOAD_REPLAY = 'This folder’s past could not be shown.';
/** Shown when the case file cannot be read (followed by the server's reason). */
export const COULD_NOT_LOAD_CASE_FILE = 'The case file could not be made.';
/** The details panel without a selection. */
export const NO_SELECTION_TEXT = 'Select an item to see how it was.';
/** The timeline's note before its first entry while earlier events exist. */
export const EARLIER_EVENTS_TEXT = 'Earlier events: press Previous.';
/** The timeline's note after its last entry while later events exist. */
export const LATER_EVENTS_TEXT = 'Later events: press Next.';
/** A level of the subtree with nothing in it. */
export const EMPTY_LEVEL_TEXT = 'This folder was empty at this moment.';
/** The timeline without any entry. */
export const NO_EVENTS_TEXT = 'Nothing happened in this folder around this moment.';

/** The moments' format: the app's date format with seconds, e.g. "Mar 5, 2024 2:07:09 pm". */
export const MOMENT_FORMAT = 'MMM D, YYYY h:mm:ss a';

/** An ISO time in {@link MOMENT_FORMAT}, local time; '' when missing or not a time. */
export function formatMoment(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = dayjs(iso);
  return date.isValid() ? date.format(MOMENT_FORMAT) : '';
}

/**
 * The banner's sentence: "Viewing Clients as of Mar 5, 2024 2:07:09 pm" (local time), or without a
 * time before any event.
 */
export function bannerText(folderName: string, at: string | null): string {
  const time = formatMoment(at);
  return time ? `Viewing ${folderName} as of ${time}` : `Viewing ${folderName} before any activity`;
}
