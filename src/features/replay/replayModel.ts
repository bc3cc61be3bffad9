/**
 * The pure part of the Replay screen (docs/architecture/replay.md): the state at a position of a
 * view's window (common/replay.ts stepSubtree from `base`), what the entry there changed, where a
 * step goes (inside the window, or a read of the next one), the breadcrumbs at a position and
 * the timeline's words (common/history.ts). No React, no store.
 */
import { ROOT_FOLDER_ID } from '@common/constants';
import { summarizeHistoryEvent, type HistoryEventDto } from '@common/history';
import {
  copyState,
  diffStates,
  stepSubtree,
  stepSubtreeShared,
  touchedIds,
  type ReplayEvent,
  type ReplayItemChange,
  type ReplayState,
} from '@common/replay';
import type { ReplayCrumb, ReplayTimelineEntry, ReplayViewDto } from '@common/replayViews';
import type { ReplayDirection, ReplayMoment } from './replaySlice';

/** How many computed states stay cached per view besides `base` (the latest ones). */
const RECENT_KEPT = 4;

/** The computed states of a view by position (-1: base) and the order they were computed in. */
interface StateCache {
  states: Map<number, ReplayState>;
  recent: number[];
}

const stateCaches = new WeakMap<ReplayViewDto, StateCache>();

/**
 * The state of the view's subtree right after entry `position` (-1: `base` itself), from the
 * nearest state cached for the view at or before it (`base` and the latest few): one entry away,
 * a copy-on-write step (common/replay.ts stepSubtreeShared, which copies only what the event
 * touches); further, a copy of that state stepped in place (a shared step copies the item map,
 * which would cost more than one copy over many entries).
 * @returns a state shared with the cache and the view: read it, never change it
 */
export function stateThrough(view: ReplayViewDto, position: number): ReplayState {
  let cache = stateCaches.get(view);
  if (!cache) {
    cache = { states: new Map([[-1, view.base]]), recent: [] };
    stateCaches.set(view, cache);
  }
  const last = Math.max(-1, Math.min(position, view.entries.length - 1));
  let from = last;
  while (!cache.states.has(from)) from -= 1;
  const cached = cache.states.get(from)!;
  if (from === last) return cached;
  let state: ReplayState;
  if (last === from + 1) {
    const entry = view.entries[last]!;
    state = stepSubtreeShared(cached, view.folder_id, entry.event, entry.enters);
  } else {
    state = copyState(cached);
    for (let i = from + 1; i <= last; i++) {
      const entry = view.entries[i]!;
      stepSubtree(state, view.folder_id, entry.event, entry.enters);
    }
  }
  cache.states.set(last, state);
  cache.recent.push(last);
  while (cache.recent.length > RECENT_KEPT) cache.states.delete(cache.recent.shift()!);
  return state;
}

/** The states around the entry at a position: before it (null at -1) and after it. */
export interface ReplayStep {
  entry: ReplayTimelineEntry | null;
  before: ReplayState | null;
  after: ReplayState;
}

/** The entry at `position` of `view` and the states before and after it. */
export function stepAt(view: ReplayViewDto, position: number): ReplayStep {
  const entry = view.entries[position] ?? null;
  if (!entry) return { entry: null, before: null, after: stateThrough(view, -1) };
  const before = stateThrough(view, position - 1);
  const after = stateThrough(view, position);
  return { entry, before, after };
}

/**
 * What the step's entry changed, item by item (common/replay.ts diffStates), looked at only on
 * the items the event touched (before and after it) and those the server says it brought in.
 */
export function changesOf(step: ReplayStep): ReplayItemChange[] {
  if (!step.entry || !step.before) return [];
  const { event, enters } = step.entry;
  const ids = new Set([
    ...touchedIds(step.before, event),
    ...touchedIds(step.after, event),
    ...enters.map((item) => item.id),
  ]);
  return diffStates(step.before, step.after, ids);
}

/** Whether the step's entry is one replay could not read (common/replay.ts `legacy`). */
export function isLegacyStep(step: ReplayStep): boolean {
  return step.entry !== null && step.after.legacy.includes(step.entry.event.id);
}

/**
 * Whether the replayed folder did not exist at the step: not the root, and neither the state
 * after the step nor the base holds it.
 */
export function folderMissing(view: ReplayViewDto, step: ReplayStep): boolean {
  if (view.folder_id === ROOT_FOLDER_ID) return false;
  return step.after.items[view.folder_id] === undefined;
}

/** Where a step goes: to another entry of the window, a read of another window, or nowhere. */
export type StepPlan =
  | { kind: 'move'; position: number }
  | { kind: 'fetch'; moment: ReplayMoment; followUp: ReplayDirection | null }
  | { kind: 'none' };

/**
 * Where Previous or Next goes from `position` of `view`. Back from the window's first entry (or
 * from before it) when the timeline goes on earlier: the view right before the first entry
 * (`before_event`), which the server answers with the earlier event as its moment. On from the
 * last entry when it goes on later: the view at the last entry (`event`), then one step on.
 */
export function planStep(
  view: ReplayViewDto,
  position: number,
  direction: ReplayDirection,
): StepPlan {
  const count = view.entries.length;
  const first = view.entries[0];
  const last = view.entries[count - 1];
  if (direction === 'previous') {
    if (position > 0) return { kind: 'move', position: position - 1 };
    if (view.has_earlier && first) {
      return {
        kind: 'fetch',
        moment: { as_of: null, event: null, before_event: first.event.id },
        followUp: null,
      };
    }
    return position === 0 ? { kind: 'move', position: -1 } : { kind: 'none' };
  }
  if (position < count - 1) return { kind: 'move', position: position + 1 };
  if (view.has_later && last) {
    return {
      kind: 'fetch',
      moment: { as_of: null, event: last.event.id, before_event: null },
      followUp: 'next',
    };
  }
  return { kind: 'none' };
}

/** A folder event above the replayed folder that renamed one of its crumbs. */
function crumbRename(event: ReplayEvent): { id: string; prev: string; next: string } | null {
  if (event.entity_type !== 'folder' || event.action !== 'rename') return null;
  const attrs = event.attributes as { prev?: { name?: unknown }; next?: { name?: unknown } };
  const prev = attrs.prev?.name;
  const next = attrs.next?.name;
  if (typeof prev !== 'string' || typeof next !== 'string') return null;
  return { id: event.entity_id, prev, next };
}

/**
 * The folder's ancestors at `position`, the root first: the view's breadcrumbs (at its moment)
 * with the renames of those folders between the moment and the position undone or applied.
 * (A move above the folder changes the chain itself; the crumbs after one come with the next read
 * of a view at that position, e.g. a reload.)
 */
export function crumbsAt(view: ReplayViewDto, position: number): ReplayCrumb[] {
  const crumbs = view.breadcrumbs
    .filter((crumb) => crumb.id !== view.folder_id)
    .map((crumb) => ({ ...crumb }));
  const rename = (id: string, name: string) => {
    const crumb = crumbs.find((c) => c.id === id);
    if (crumb) crumb.name = name;
  };
  if (position > view.position) {
    for (let i = view.position + 1; i <= position; i++) {
      const change = view.entries[i] ? crumbRename(view.entries[i]!.event) : null;
      if (change) rename(change.id, change.next);
    }
  } else {
    for (let i = view.position; i > position; i--) {
      const change = view.entries[i] ? crumbRename(view.entries[i]!.event) : null;
      if (change) rename(change.id, change.prev);
    }
  }
  return crumbs;
}

/** One entry of the timeline, ready to show. */
export interface TimelineRow {
  id: string;
  /** The event in words (common/history.ts summarizeHistoryEvent). */
  summary: string;
  /** Its context ("in “Clients”"), or ''. */
  context: string;
  userName: string;
  /** ISO time of the event. */
  at: string;
}

/** The view's entries as timeline rows, oldest first. */
export function timelineRows(view: ReplayViewDto): TimelineRow[] {
  return view.entries.map(({ event }) => {
    // A replay event is a history entry with its chain position (common/replay.ts).
    const words = summarizeHistoryEvent(event as unknown as HistoryEventDto);
    return {
      id: event.id,
      summary: words.summary,
      context: words.context,
      userName: event.user_name,
      at: event.created_at,
    };
  });
}

/**
 * The time the page names for `position`: the moment asked for (`as_of`) while it is the view's
 * own position, else the time of the entry's event, else the base's time or the first entry's.
 */
export function momentTimeAt(
  view: ReplayViewDto,
  position: number,
  moment: ReplayMoment,
): string | null {
  if (moment.as_of !== null && position === view.position) return moment.as_of;
  const entry = view.entries[position];
  if (entry) return entry.event.created_at;
  return view.base.at ?? view.entries[0]?.event.created_at ?? null;
}
