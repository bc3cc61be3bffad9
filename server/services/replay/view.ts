/**
 * GET REST/replay/folders/{id}: a folder as it was at a moment, with a window of its timeline
 * (docs/architecture/replay.md).
 *
 * The folder's timeline is the events that changed its subtree (the folder included) or a folder
 * above it (a rename, move, archive, restore or delete there). The view answers the subtree
 * right before the window's first entry (`base`) and up to REPLAY_WINDOW_EVENTS entries on each
 * side of the moment; the client steps through them with common/replay.ts stepSubtree.
 *
 * Two passes over the chain: the first, from a snapshot about two intervals back, finds where the
 * window starts; the second replays a copy of the same state to there, projects the subtree and
 * walks on, recording each entry and what it brings in, until the window's end.
 *
 * Access: members of the firm only (guests 404). A member sees the past of a folder they may see
 * now, and of its items only those they may see now (an item in a restricted folder hidden from
 * them today is left out, wherever it was then, and so are the entries of events about it); an
 * administrator sees everything of their firm.
 * Everything is read in the session's firm only.
 */
import { ROOT_FOLDER_ID } from '@common/constants';
import { copyState, projectSubtree } from '@common/replay';
import {
  REPLAY_WINDOW_EVENTS,
  type ReplayTimelineEntry,
  type ReplayViewDto,
  type ReplayViewQuery,
} from '@common/replayViews';
import { existingItemIds } from '../../repositories/replay';
import type { RequestContext, Services } from '../context';
import { replayForward, snapshotBefore, stateAt, type Replayed } from './engine';
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

  // Pass 1: where the window starts (the REPLAY_WINDOW_EVENTS-th relevant event back).
  const start = await snapshotBefore(services.db, ctx.databaseId, Math.max(0, target - LOOK));
  const startCopy: Replayed = { state: copyState(start.state), seq: start.seq };
  const relevantSeqs: number[] = [];
  const scout = new SubtreeWatch(folderId, 'scout');
  await replayForward(services, ctx.databaseId, start, target, {
    before: (event, state) => scout.before(event, state),
    after: (event, state) => {
      if (scout.after(event, state).relevant) relevantSeqs.push(event.seq);
    },
  });
  const firstSeq =
    relevantSeqs.length > REPLAY_WINDOW_EVENTS
      ? relevantSeqs[relevantSeqs.length - REPLAY_WINDOW_EVENTS]!
      : (relevantSeqs[0] ?? target + 1);
  // Before the scouted range only a folder that already existed has a past: its create (or the
  // copy that made it) is on its timeline. The root always existed.
  const existedAtStart =
    folderId === ROOT_FOLDER_ID || startCopy.state.items[folderId] !== undefined;
  const hasEarlier =
    relevantSeqs.length > REPLAY_WINDOW_EVENTS || (startCopy.seq > 0 && existedAtStart);

  // Pass 2: the base, then the entries up to REPLAY_WINDOW_EVENTS past the moment.
  const walk = startCopy;
  await replayForward(services, ctx.databaseId, walk, firstSeq - 1);
  const base = projectSubtree(walk.state, folderId);
  // The legacy events before the window name none of its entries (the client looks an entry up
  // there), and which of them the state still lists depends on the snapshot the replay started
  // from (a snapshot keeps none): the base lists none, the entries' own are added as stepped.
  base.legacy = [];
  base.seq = Math.max(walk.seq, firstSeq - 1);
  let entries: ReplayTimelineEntry[] = [];
  let crumbs = crumbsOf(walk.state, folderId);
  let after = 0;
  const watch = new SubtreeWatch(folderId, 'entries');
  const lookUpTo = Math.min(newest, target + LOOK);
  const reached = await replayForward(services, ctx.databaseId, walk, lookUpTo, {
    before: (event, state) => watch.before(event, state),
    after: (event, state) => {
      const step = watch.after(event, state);
      if (event.seq <= target) crumbs = crumbsOf(state, folderId);
      if (!step.relevant) return false;
      entries.push({ event, enters: step.enters });
      if (event.seq > target) after += 1;
      return after >= REPLAY_WINDOW_EVENTS;
    },
  });
  const hasLater = after >= REPLAY_WINDOW_EVENTS ? reached < newest : lookUpTo < newest;
  // What the session may see, and what was destroyed since.
  let newestState: Promise<Replayed> | null = null;
  const newestOnce = () => (newestState ??= stateAt(services, ctx.databaseId, newest));
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
    const existing = await existingItemIds(services.db, ctx.databaseId, missing);
    const gone = missing.filter((id) => !existing.has(id));
    if (gone.length > 0) {
      const { state } = await newestOnce();
      for (const id of gone) destroyedSince[id] = state.items[id]?.destroyedAt ?? '';
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
