/**
 * GET REST/replay/folders/{id}: a folder as it was at a moment, with a window of its timeline
 * (docs/architecture/replay.md).
 *
 * The folder's timeline is the events that changed its subtree (the folder included) or a folder
 * above it (a rename, move, archive, restore or delete there). The view answers the subtree
 * right before the window's first entry (`base`) and up to REPLAY_WINDOW_EVENTS entries on each
 * side of the moment; the client steps through them with common/replay.ts stepSubtree.
 *
 * One replay over the chain, from the snapshot nearest the moment to the window's end, records
 * each entry of the folder's timeline and what it brings in; when it holds too few entries before
 * the moment, the segment before it (from the snapshot about LOOK positions back) is recorded
 * too. The base is the subtree at the start, stepped through the entries before the window the
 * way the client steps. What "now" answers (items destroyed since, what a member may see) comes
 * from the firm's newest state kept in memory (engine.ts newestState).
 *
 * Access: members of the firm only (guests 404). A member sees the past of a folder they may see
 * now, and of its items only those they may see now (an item in a restricted folder hidden from
 * them today is left out, wherever it was then, and so are the entries of events about it); an
 * administrator sees everything of their firm.
 * Everything is read in the session's firm only.
 */
import { ROOT_FOLDER_ID } from '@common/constants';
import { projectSubtree, stepSubtree, type ReplayState } from '@common/replay';
import {
  REPLAY_WINDOW_EVENTS,
  type ReplayCrumb,
  type ReplayTimelineEntry,
  type ReplayViewDto,
  type ReplayViewQuery,
} from '@common/replayViews';
import { existingItemIds } from '../../repositories/replay';
import type { RequestContext, Services } from '../context';
import {
  newestState as newestStateOf,
  replayForward,
  snapshotBefore,
  type Replayed,
} from './engine';
import {
  assertReplayAccess,
  crumbsOf,
  eventVisible,
  LOOK,
  momentOf,
  SubtreeWatch,
  visibleNow,
} from './scope';

/**
 * The view of a folder at a moment (see the module comment).
 * @throws AppError 400 bad_moment, 404 the folder not visible to the session now (a member) or
 *   never part of the firm (an administrator), or an event of no such id
 */
export async function replayView(
  services: Services,
  ctx: RequestContext,
  folderId: string,
  query: ReplayViewQuery,
): Promise<ReplayViewDto> {
  await assertReplayAccess(services, ctx, folderId);
  const { seq: target, newest } = await momentOf(services, ctx, query);

  // One replay from the snapshot nearest the moment to the window's end records the folder's
  // entries; when it holds too few before the moment, the segment before it (from the snapshot
  // about LOOK positions back) is recorded too. The base is the subtree at the first segment's
  // start, stepped through the entries before the window as the client steps (stepSubtree).
  const watch = new SubtreeWatch(folderId, 'entries');
  const near = await recordSegment(services, ctx, watch, target, {
    target,
    upto: Math.min(newest, target + LOOK),
  });
  const lookUpTo = Math.min(newest, target + LOOK);
  const hasLater = near.after >= REPLAY_WINDOW_EVENTS ? near.reached < newest : lookUpTo < newest;
  let recorded = near.recorded;
  let start = near;
  const countBefore = (list: Recorded[]) => list.filter((r) => r.entry.event.seq <= target).length;
  if (countBefore(recorded) <= REPLAY_WINDOW_EVENTS && near.seq > 0 && target - near.seq < LOOK) {
    const early = await recordSegment(services, ctx, watch, Math.min(target - LOOK, near.seq - 1), {
      target,
      upto: near.seq,
    });
    recorded = [...early.recorded, ...recorded];
    start = early;
  }
  const before = countBefore(recorded);
  const firstIndex = Math.max(0, before - REPLAY_WINDOW_EVENTS);
  const first = recorded[firstIndex];
  const firstSeq = first && first.entry.event.seq <= target ? first.entry.event.seq : target + 1;
  // Before the recorded range only a folder that already existed has a past: its create (or the
  // copy that made it) is on its timeline. The root always existed.
  const hasEarlier = before > REPLAY_WINDOW_EVENTS || (start.seq > 0 && start.existed);

  const base = start.projection;
  for (const { entry } of recorded.slice(0, firstIndex)) {
    stepSubtree(base, folderId, entry.event, entry.enters);
  }
  // The legacy events before the window name none of its entries (the client looks an entry up
  // there), and which of them the state still lists depends on the snapshot the replay started
  // from (a snapshot keeps none): the base lists none, the entries' own are added as stepped.
  base.legacy = [];
  base.seq = Math.max(start.seq, firstSeq - 1);
  base.at = firstSeq <= target ? first!.atBefore : near.atTarget;
  let entries = recorded.slice(firstIndex).map((r) => r.entry);
  const crumbs = near.crumbs;
  // What the session may see, and what was destroyed since.
  let newestState: Promise<Replayed> | null = null;
  const newestOnce = () => (newestState ??= newestStateOf(services, ctx.databaseId, newest));
  const visible = await visibleNow(services, ctx, newestOnce);
  if (visible) {
    for (const id of Object.keys(base.items)) if (!visible(id)) delete base.items[id];
    entries = entries.filter((entry) => eventVisible(entry.event, visible));
    for (const entry of entries) entry.enters = entry.enters.filter((i) => visible(i.id));
  }
  const ids = new Set([
    ...Object.keys(base.items),
    ...entries.flatMap((e) => e.enters.map((i) => i.id)),
  ]);
  const destroyedSince: Record<string, string> = {};
  const missing = [...ids].filter((id) => base.items[id]?.destroyedAt === null || !base.items[id]);
  if (missing.length > 0) {
    // Every destruction writes its event in the same transaction, so the newest state knows
    // what is gone and when; an id it does not hold is looked up in the tables.
    const { state } = await newestOnce();
    const unknown: string[] = [];
    for (const id of missing) {
      const now = state.items[id];
      if (!now) unknown.push(id);
      else if (now.destroyedAt !== null) destroyedSince[id] = now.destroyedAt;
    }
    if (unknown.length > 0) {
      const existing = await existingItemIds(services.db, ctx.databaseId, unknown);
      for (const id of unknown) if (!existing.has(id)) destroyedSince[id] = '';
    }
  }
  const position = entries.findLastIndex((e) => e.event.seq <= target);
  const momentEvent = position >= 0 ? entries[position]!.event : null;
  return {
    folder_id: folderId,
    moment: {
      event_id: momentEvent?.id ?? null,
      at: momentEvent?.created_at ?? base.at,
    },
    breadcrumbs: crumbs,
    base,
    entries,
    position,
    has_earlier: hasEarlier,
    has_later: hasLater,
    destroyed_since: destroyedSince,
    viewer_id: ctx.userId,
  };
}

/** An entry of the folder's timeline, with the firm's time right before it. */
interface Recorded {
  entry: ReplayTimelineEntry;
  /** The time of the firm's state before the event (its last event's, or the snapshot's). */
  atBefore: string | null;
}

/** One replayed segment of the chain, from a snapshot. */
interface Segment {
  /** The snapshot's position the segment starts after. */
  seq: number;
  /** Whether the folder existed at the start (always for the root). */
  existed: boolean;
  /** The folder's subtree at the start (a copy, to step). */
  projection: ReplayState;
  recorded: Recorded[];
  /** Entries recorded after the moment. */
  after: number;
  /** The position the replay reached. */
  reached: number;
  /** The breadcrumbs as of the moment (when the moment lies in the segment). */
  crumbs: ReplayCrumb[];
  /** The firm's time as of the moment (when the moment lies in the segment). */
  atTarget: string | null;
}

/**
 * Replays from the snapshot at or before `fromSeq` up to `upto`, recording the folder's entries
 * with what each brings in (SubtreeWatch 'entries'); past the moment it stops after
 * REPLAY_WINDOW_EVENTS entries.
 */
async function recordSegment(
  services: Services,
  ctx: RequestContext,
  watch: SubtreeWatch,
  fromSeq: number,
  range: { target: number; upto: number },
): Promise<Segment> {
  const folderId = watch.folderId;
  const from = await snapshotBefore(services.db, ctx.databaseId, Math.max(0, fromSeq));
  const segment: Segment = {
    seq: from.seq,
    existed: folderId === ROOT_FOLDER_ID || from.state.items[folderId] !== undefined,
    projection: projectSubtree(from.state, folderId),
    recorded: [],
    after: 0,
    reached: from.seq,
    crumbs: crumbsOf(from.state, folderId),
    atTarget: from.state.at,
  };
  let atBefore: string | null = null;
  segment.reached = await replayForward(services, ctx.databaseId, from, range.upto, {
    before: (event, state) => {
      atBefore = state.at;
      watch.before(event, state);
    },
    after: (event, state) => {
      const step = watch.after(event, state);
      if (event.seq <= range.target) {
        segment.crumbs = crumbsOf(state, folderId);
        segment.atTarget = state.at;
      }
      if (!step.relevant) return false;
      segment.recorded.push({ entry: { event, enters: step.enters }, atBefore });
      if (event.seq > range.target) segment.after += 1;
      return segment.after >= REPLAY_WINDOW_EVENTS;
    },
  });
  return segment;
}
