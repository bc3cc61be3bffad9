/**
 * Replay's API contract (docs/architecture/replay.md): a folder as it was at a moment, with a
 * window of its timeline the client steps through with common/replay.ts, and the case file of a
 * period. Shared by the server and the client; times are ISO 8601 UTC.
 */
import type { ReplayEvent, ReplayItem, ReplayState } from './replay';

/** The `:id` of the replay routes that names the firm's root folder (whose id is ''). */
export const REPLAY_ROOT_ID = 'root';

/** GET: a folder as it was (query {@link ReplayViewQuery}). `:id` is the folder's id. */
export const REPLAY_VIEW_ROUTE = '/api/rest/replay/folders/:id';
/** GET: the case file of a folder between two moments (query {@link CaseFileQuery}). */
export const REPLAY_CASE_FILE_ROUTE = '/api/rest/replay/folders/:id/case_file';

/** Events of the timeline a view answers on each side of the moment, at most. */
export const REPLAY_WINDOW_EVENTS = 50;
/** Events a case file lists, at most. */
export const CASE_FILE_MAX_EVENTS = 5_000;
/** Events between two stored snapshots of a firm's replayed state. */
export const REPLAY_SNAPSHOT_INTERVAL = 1_000;

/**
 * The moment of a view: `event` (the state right after that history event), or `as_of` (after
 * the last event at or before that time), or `before_event` (the last timeline event of the
 * folder before that one: the step back past a window's start). None: now.
 */
export interface ReplayViewQuery {
  as_of?: string;
  event?: string;
  before_event?: string;
}

/** One step of the timeline: the event and the items the server says it brought in or changed. */
export interface ReplayTimelineEntry {
  event: ReplayEvent;
  /**
   * Items of the subtree after this event that the client's step cannot derive from the subtree
   * alone (moved or copied in from outside, or changed by an event on a folder above): their state
   * after the event. Applied by stepSubtree.
   */
  enters: ReplayItem[];
}

/** A folder or crumb as it was named at the moment. */
export interface ReplayCrumb {
  id: string;
  name: string;
}

/** GET REST/replay/folders/{id}: the folder as it was and a window of its timeline. */
export interface ReplayViewDto {
  folder_id: string;
  /** The moment asked for: the event the state is right after (null: before any event). */
  moment: { event_id: string | null; at: string | null };
  /** The folder's ancestors as they were at the moment, the root first (the folder excluded). */
  breadcrumbs: ReplayCrumb[];
  /**
   * The folder's subtree (the folder itself included) right before the window's first entry;
   * the state at the moment is `base` stepped through entries[0..position].
   */
  base: ReplayState;
  entries: ReplayTimelineEntry[];
  /** Index in `entries` of the moment's event; -1 when the moment is `base` itself. */
  position: number;
  /** Whether the folder's timeline goes on before the window, and after it. */
  has_earlier: boolean;
  has_later: boolean;
  /** Items of the window destroyed since (id → ISO time of the permanent delete). */
  destroyed_since: Record<string, string>;
  /** The user whose favourites and colours the view shows. */
  viewer_id: string;
}

/** GET REST/replay/folders/{id}/case-file query: the period and the format. */
export interface CaseFileQuery {
  from: string;
  to: string;
  format?: 'csv' | 'json';
}

/** One row of the case file's timeline. */
export interface CaseFileRow {
  at: string;
  user_name: string;
  /** The event in words (common/history.ts describeHistoryEvent). */
  summary: string;
  /** What it changed, item by item ("Statement.pdf: renamed, moved"). */
  changes: string;
}

/** One item of a state at an end of the case file. */
export interface CaseFileItem {
  /** Its path below the folder ("Tax/2024/Statement.pdf"). */
  path: string;
  type: 'folder' | 'file';
  archived: boolean;
  index_values: string;
  contacts: string;
  shares: string;
}

/** The case file as the printable page reads it (format json). */
export interface CaseFileDto {
  folder_id: string;
  folder_name: string;
  from: string;
  to: string;
  rows: CaseFileRow[];
  state_from: CaseFileItem[];
  state_to: CaseFileItem[];
}

/** Messages of replay (shown as they are). */
export const REPLAY_MESSAGES = {
  badMoment: 'Choose a valid moment.',
  badPeriod: 'Choose a start before the end.',
  tooManyEvents: `This period holds more than ${CASE_FILE_MAX_EVENTS.toLocaleString('en-US')} events. Choose a shorter one.`,
  notYet: 'This folder did not exist yet at this moment.',
  legacy: 'Recorded before history kept enough detail to replay it.',
} as const;

/** Words of the timeline's highlights (common/replay.ts ReplayChange). */
export const REPLAY_CHANGE_LABELS = {
  added: 'Added',
  renamed: 'Renamed',
  moved_in: 'Moved in',
  moved_out: 'Moved out',
  moved: 'Moved',
  archived: 'Archived',
  restored: 'Restored',
  destroyed: 'Deleted permanently',
  favorite: 'Favorite changed',
  color: 'Colour changed',
  index: 'Index changed',
  contact: 'Contact changed',
  permission: 'Permissions changed',
  shared: 'Sharing changed',
  version: 'New version',
} as const;
