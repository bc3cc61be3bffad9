/**
 * What the replay routes share: the moment a query names, who may replay a folder, which items a
 * session may see, and {@link SubtreeWatch}, which follows one folder's subtree while the firm's
 * full state is replayed (docs/architecture/replay.md).
 */
import { ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import {
  diffStates,
  inSubtree,
  projectSubtree,
  structuredCopy,
  touchedIds,
  type ReplayEvent,
  type ReplayItem,
  type ReplayItemChange,
  type ReplayState,
} from '@common/replay';
import {
  REPLAY_MESSAGES,
  REPLAY_SNAPSHOT_INTERVAL,
  type ReplayCrumb,
  type ReplayViewQuery,
} from '@common/replayViews';
import { badRequest, notFound } from '../../errors';
import {
  existingItemIds,
  hasItemHistory,
  newestPosition,
  positionBefore,
  positionOf,
  type ChainPosition,
} from '../../repositories/replay';
import { accessibleFolder, assertRole, hiddenRoots } from '../access';
import type { RequestContext, Services } from '../context';
import { idLowerBound } from '../historyChain';
import type { Replayed } from './engine';

/**
 * Replay is for members of the firm (guests 404); a member replays only a folder they may see
 * now, an administrator any folder of their firm (checked against the replay itself).
 * @throws AppError 404 a guest, or a folder hidden from the member or gone
 */
export async function assertReplayAccess(
  services: Services,
  ctx: RequestContext,
  folderId: string,
): Promise<void> {
  assertRole(ctx, 'read');
  if (folderId === ROOT_FOLDER_ID) return;
  if (ctx.role !== 'admin') {
    await accessibleFolder(services.db, ctx, folderId, 'read', { allowArchived: true });
    return;
  }
  // An administrator: a folder of their firm, now or (destroyed since) in its history.
  const now = await existingItemIds(services.db, ctx.databaseId, [folderId]);
  if (!now.has(folderId) && !(await hasItemHistory(services.db, ctx.databaseId, folderId))) {
    throw notFound();
  }
}

/** Folder actions above the folder that belong in its timeline (its path or state changed). */
const ABOVE_ACTIONS = new Set(['rename', 'move', 'archive', 'restore', 'delete']);

/** Chain positions the window looks back and ahead, at most (each way). */
export const LOOK = 2 * REPLAY_SNAPSHOT_INTERVAL;

/**
 * The chain position a view's query names: `event` (that event), `before_event` (the position
 * right before it), `as_of` (the last event at or before that time), or the newest.
 * @throws AppError 400 bad_moment (a time that does not parse), 404 an event of no such id in
 *   the session's firm
 */
export async function momentOf(
  services: Services,
  ctx: RequestContext,
  query: ReplayViewQuery,
): Promise<{ seq: number; newest: number }> {
  const newest = (await newestPosition(services.db, ctx.databaseId))?.seq ?? 0;
  const eventId = query.event ?? query.before_event;
  if (eventId) {
    const position = await positionOf(services.db, ctx.databaseId, eventId);
    if (!position) throw notFound();
    return { seq: query.event ? position.seq : position.seq - 1, newest };
  }
  if (query.as_of !== undefined) {
    const ms = Date.parse(query.as_of);
    if (!Number.isFinite(ms)) throw badRequest(REPLAY_MESSAGES.badMoment, 'bad_moment');
    const position: ChainPosition | null = await positionBefore(
      services.db,
      ctx.databaseId,
      idLowerBound(ms + 1),
    );
    return { seq: position?.seq ?? 0, newest };
  }
  return { seq: newest, newest };
}

/** Whether `event` belongs to the timeline of `folderId`, given the ids it touched in scope. */
function isAbove(state: ReplayState, event: ReplayEvent, folderId: string): boolean {
  if (event.entity_type !== 'folder' || !ABOVE_ACTIONS.has(event.action)) return false;
  return folderId !== ROOT_FOLDER_ID && inSubtree(state, folderId, event.entity_id);
}

/** What one event did to the subtree of a folder in the firm's full state. */
export interface Step {
  relevant: boolean;
  /** Items of the subtree after the event the client's step cannot derive (see the DTO). */
  enters: ReplayItem[];
  /** What it changed, item by item (mode 'changes' only). */
  changes: ReplayItemChange[];
}

/**
 * What a watch works out for each event: only whether it is in the timeline ('scout'), also
 * the items the client needs ('entries'), or also the changes item by item ('changes').
 */
export type WatchMode = 'scout' | 'entries' | 'changes';

/**
 * Watches events applied to the full state for one folder's subtree: call `before` before
 * applying an event and `after` after it.
 */
export class SubtreeWatch {
  private touched: string[] = [];
  private inBefore = new Set<string>();
  private derivable = true;
  private above = false;
  private copies = new Map<string, ReplayItem>();

  constructor(
    /** The folder whose subtree is watched. */
    readonly folderId: string,
    private readonly mode: WatchMode,
  ) {}

  before(event: ReplayEvent, state: ReplayState): void {
    this.touched = touchedIds(state, event);
    this.inBefore = new Set(this.touched.filter((id) => inSubtree(state, id, this.folderId)));
    this.above = isAbove(state, event, this.folderId);
    // The client holds the subtree only: it can replay an item event when it holds the item.
    const itemEvent = event.entity_type === 'folder' || event.entity_type === 'file';
    this.derivable = !itemEvent || this.inBefore.has(event.entity_id);
    this.copies.clear();
    if (this.mode === 'changes' || (this.mode === 'entries' && !this.derivable)) {
      for (const id of this.inBefore) {
        const item = state.items[id];
        if (item) this.copies.set(id, structuredCopy(item));
      }
    }
  }

  after(event: ReplayEvent, state: ReplayState): Step {
    const touchedAfter = new Set([...this.touched, ...touchedIds(state, event)]);
    const inAfter = [...touchedAfter].filter((id) => inSubtree(state, id, this.folderId));
    const relevant = this.inBefore.size > 0 || inAfter.length > 0 || this.above;
    if (!relevant || this.mode === 'scout') return { relevant, enters: [], changes: [] };
    const enters: ReplayItem[] = [];
    for (const id of inAfter) {
      const item = state.items[id]!;
      const entered = !this.inBefore.has(id);
      const changed =
        !this.derivable && JSON.stringify(this.copies.get(id)) !== JSON.stringify(item);
      if (entered || changed) enters.push(structuredCopy(item));
    }
    let changes: ReplayItemChange[] = [];
    if (this.mode === 'changes') {
      const before: ReplayState = { items: {}, seq: 0, at: null, legacy: [] };
      for (const [id, item] of this.copies) before.items[id] = item;
      const after: ReplayState = { items: {}, seq: event.seq, at: event.created_at, legacy: [] };
      for (const id of inAfter) after.items[id] = state.items[id]!;
      changes = diffStates(before, after);
    }
    return { relevant, enters, changes };
  }
}

/** The ancestors of a folder in a state, the root first (the folder excluded). */
export function crumbsOf(state: ReplayState, folderId: string): ReplayCrumb[] {
  const crumbs: ReplayCrumb[] = [];
  if (folderId === ROOT_FOLDER_ID) return crumbs;
  let current = state.items[folderId];
  for (let hops = 0; current && current.parentId !== ROOT_FOLDER_ID && hops < 1000; hops++) {
    const parent = state.items[current.parentId];
    if (!parent) break;
    crumbs.unshift({ id: parent.id, name: parent.name });
    current = parent;
  }
  crumbs.unshift({ id: ROOT_FOLDER_ID, name: ROOT_FOLDER_NAME });
  return crumbs;
}

/**
 * Which items the session may see now: null when everything (administrators, firms without
 * restricted folders); else a test that leaves out what lies in a folder hidden from them
 * today (read in the firm's newest replayed state, so items destroyed since are judged by where
 * they were last).
 */
export async function visibleNow(
  services: Services,
  ctx: RequestContext,
  newest: () => Promise<Replayed>,
): Promise<((id: string) => boolean) | null> {
  const roots = await hiddenRoots(services.db, ctx);
  if (roots.length === 0) return null;
  const { state } = await newest();
  const hidden = new Set<string>();
  for (const root of roots) {
    for (const id of Object.keys(projectSubtree(state, root).items)) hidden.add(id);
    hidden.add(root);
  }
  return (id) => !hidden.has(id);
}

/**
 * Whether a timeline event may be shown to a session that sees only what `visible` lets through
 * (null: everything): not when it is about an item hidden from them, as History leaves such
 * events out (repositories/permissions.ts eventVisibleSql), a user's permissions removed across
 * folders (no item) included. Its attributes name the hidden item, and stepping it would bring
 * the item into the session's state.
 */
export function eventVisible(
  event: ReplayEvent,
  visible: ((id: string) => boolean) | null,
): boolean {
  if (visible === null) return true;
  if (event.item_id === null) return event.entity_type !== 'folder_permission';
  return visible(event.item_id);
}
