/**
 * Recording and reading history events (DESIGN.md section 2: one event per state change, in the
 * same transaction as the change, with the attribute shapes of SPEC section 3).
 *
 * - Recording appends to the firm's hash chain under a per-firm lock (see historyChain.ts and
 *   lockHistoryChain); the typed functions of historyEvents.ts build each event's attributes.
 * - Reading is keyset paging newest first: a page answers `next_cursor` (its last id) and the next
 *   page reads the events older than it, so every event is listed exactly once however many
 *   arrive meanwhile, and page 5,000 costs what page 1 costs. Without a cursor page n is read by
 *   offset (a deep link), which is slower for deep pages.
 */
import { eventsForLabels, HISTORY_EVENT_PAIRS, type HistoryLabel } from '@common/history';
import type {
  HistoryAction,
  HistoryAttributes,
  HistoryEntityType,
  HistoryFilters,
  HistoryPageDto,
  HistoryUserDto,
  HistoryVerifyDto,
} from '@common/history';
import { badRequest, forbidden } from '../errors';
import { presentHistoryEvent, displayName } from '../presenters';
import {
  allDatabaseIds,
  chainLinks,
  type HistoryLinkRow,
  countHistory,
  firmMembers,
  historyHead,
  insertHistoryEvents,
  listHistory,
  lockHistoryChain,
  type HistoryQuery,
  type PairFilter,
} from '../repositories/history';
import { upsertRecentItems, type RecentTouch } from '../repositories/recent';
import type { Executor } from '../repositories/types';
import type { HistoryEventsTable } from '../db/schema';
import type { Insertable } from 'kysely';
import { accessibleFile, accessibleFolder, eventVisibility } from './access';
import { exportRecordText, HISTORY_EXPORT_FORMAT } from './historyCsv';
import type { RequestContext, Services } from './context';
import {
  canonicalJson,
  chainHash,
  ChainWalker,
  type BrokenReason,
  GENESIS_HASH,
  historyIdAt,
  idLowerBound,
} from './historyChain';

/** Matching events are counted up to this many; beyond it `total` is a lower bound. */
export const HISTORY_COUNT_CAP = 10_000;

/** One event to record. */
export interface NewEvent {
  entityType: HistoryEntityType;
  entityId: string;
  action: HistoryAction;
  attributes: HistoryAttributes;
  /**
   * The folder or file the event concerns (its per-item history); defaults to `entityId` for
   * folder and file events and to none otherwise.
   */
  itemId?: string | null;
}

/** Actions on a file or folder that count as the user touching it (the Recent page). */
const RECENT_ACTIONS: ReadonlySet<HistoryAction> = new Set<HistoryAction>([
  'create',
  'update',
  'rename',
  'move',
  'copy',
  'restore',
  'download',
  'preview',
  'add_version',
  'restore_version',
]);

/** Rows inserted per statement by {@link recordEvents} (well under both dialects' bind limits). */
const INSERT_BATCH = 500;

/**
 * Appends one event for the acting user to the firm's hash chain; call it with the transaction
 * that makes the change (the event commits or rolls back with it). Keeps who (user id and display
 * name at the time), when (the services' clock, UTC; the id carries the same millisecond), and
 * where (IP, user agent). On PostgreSQL it holds the firm's chain lock until the transaction ends,
 * so record events last in long transactions. A touch of a file or folder (RECENT_ACTIONS) also
 * becomes the user's recent item. The event's export record is rendered and stored with it
 * (historyCsv.ts).
 * @returns the new event's id
 */
export async function recordEvent(
  trx: Executor,
  services: Pick<Services, 'clock' | 'dialect'>,
  ctx: RequestContext,
  event: NewEvent,
): Promise<string> {
  const [id] = await recordEvents(trx, services, ctx, [event]);
  return id!;
}

/**
 * Appends many events of one acting user in order (a bulk action: one event per item), reading
 * the chain head once and inserting INSERT_BATCH rows per statement. Same guarantees as
 * {@link recordEvent}; call it with the transaction that makes the changes.
 * @returns the new events' ids, in the order given
 */
export async function recordEvents(
  trx: Executor,
  services: Pick<Services, 'clock' | 'dialect'>,
  ctx: RequestContext,
  events: readonly NewEvent[],
): Promise<string[]> {
  if (events.length === 0) return [];
  await lockHistoryChain(trx, services.dialect, ctx.databaseId);
  const head = await historyHead(trx, ctx.databaseId);
  const ms = services.clock();
  const createdAt = new Date(ms).toISOString();
  let prevId = head?.id ?? null;
  let prevHash = head?.hash ?? GENESIS_HASH;
  let seq = head?.chain_seq ?? 0;
  const rows: Insertable<HistoryEventsTable>[] = [];
  const recent = new Map<string, RecentTouch>();
  for (const event of events) {
    seq += 1;
    const content = {
      id: historyIdAt(ms, prevId),
      database_id: ctx.databaseId,
      chain_seq: seq,
      entity_type: event.entityType,
      entity_id: event.entityId,
      item_id:
        event.itemId !== undefined
          ? event.itemId
          : event.entityType === 'folder' || event.entityType === 'file'
            ? event.entityId
            : null,
      action: event.action,
      user_id: ctx.userId,
      user_name: ctx.userName,
      attributes: canonicalJson(event.attributes),
      ip: ctx.ip,
      user_agent: ctx.userAgent,
      created_at: createdAt,
    };
    const hash = chainHash(prevHash, content);
    rows.push({
      ...content,
      prev_hash: prevHash,
      hash,
      export_record: exportRecordText({ ...content, hash }),
      export_format: HISTORY_EXPORT_FORMAT,
    });
    prevId = content.id;
    prevHash = hash;
    if (
      (event.entityType === 'file' || event.entityType === 'folder') &&
      RECENT_ACTIONS.has(event.action)
    ) {
      recent.set(event.entityId, {
        database_id: ctx.databaseId,
        user_id: ctx.userId,
        entity_type: event.entityType,
        entity_id: event.entityId,
        action: event.action,
        at: createdAt,
      });
    }
  }
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await insertHistoryEvents(trx, rows.slice(i, i + INSERT_BATCH));
  }
  const touches = [...recent.values()];
  for (let i = 0; i < touches.length; i += INSERT_BATCH) {
    await upsertRecentItems(trx, touches.slice(i, i + INSERT_BATCH));
  }
  return rows.map((r) => r.id);
}

/** Milliseconds of an ISO time. @throws AppError 400 when it is not a time. */
function millisOf(iso: string, field: string): number {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw badRequest(`"${field}" is not a date and time.`, 'invalid_date');
  return ms;
}

/**
 * Turns client filters into a repository query: labels, entity type and actions become the set of
 * allowed (entity_type, action) pairs; start and end become an id range; the cursor narrows it.
 * @throws AppError 400 for an unknown label, a date that is not one, or a start not before the end
 */
export function resolveHistoryQuery(databaseId: string, filters: HistoryFilters): HistoryQuery {
  let pairs: PairFilter[] | null = null;
  if (filters.labels && filters.labels.length > 0) {
    pairs = eventsForLabels(filters.labels as HistoryLabel[]);
    if (pairs.length === 0) throw badRequest('Unknown activity type.', 'invalid_label');
  }
  if (filters.entity_type) {
    pairs = (pairs ?? HISTORY_EVENT_PAIRS).filter((p) => p.entity_type === filters.entity_type);
  }
  if (filters.actions && filters.actions.length > 0) {
    const actions = new Set<string>(filters.actions);
    pairs = (pairs ?? HISTORY_EVENT_PAIRS).filter((p) => actions.has(p.action));
  }
  const query: HistoryQuery = {
    databaseId,
    pairs: pairs?.map((p) => ({ entity_type: p.entity_type, action: p.action })) ?? null,
    entityId: filters.entity_id,
    itemId: filters.item_id,
    userId: filters.user_id,
  };
  const start = filters.start ? millisOf(filters.start, 'start') : null;
  const end = filters.end ? millisOf(filters.end, 'end') : null;
  if (start !== null && end !== null && start >= end) {
    throw badRequest('The start of the range must be before its end.', 'invalid_range');
  }
  if (start !== null) query.fromId = idLowerBound(start);
  if (end !== null) query.beforeId = idLowerBound(end);
  if (filters.cursor && (!query.beforeId || filters.cursor < query.beforeId)) {
    query.beforeId = filters.cursor;
  }
  return query;
}

/**
 * A page of the current firm's events, newest first, with the filters of SPEC section 9, less the
 * events about items in restricted folders hidden from the session (administrators see all).
 * @param page page number from 1 (read by offset only when `filters.cursor` is absent)
 * @param pageSize 1..MAX_PAGE_SIZE
 * @returns the page; `total` counts the matching events up to {@link HISTORY_COUNT_CAP}
 * @throws AppError 400 for invalid filters
 */
export async function listEvents(
  services: Services,
  ctx: RequestContext,
  filters: HistoryFilters,
  page: number,
  pageSize: number,
): Promise<HistoryPageDto> {
  const query = resolveHistoryQuery(ctx.databaseId, filters);
  const countQuery = resolveHistoryQuery(ctx.databaseId, { ...filters, cursor: undefined });
  // Events about items in restricted folders hidden from the session are not shown.
  query.visible = countQuery.visible = await eventVisibility(services.db, ctx);
  const offset = filters.cursor ? 0 : (page - 1) * pageSize;
  const [rows, total] = await Promise.all([
    listHistory(services.db, query, offset, pageSize + 1),
    countHistory(services.db, countQuery, HISTORY_COUNT_CAP),
  ]);
  const items = rows.slice(0, pageSize);
  const more = rows.length > pageSize;
  return {
    items: items.map(presentHistoryEvent),
    page,
    page_size: pageSize,
    total: Math.min(total, HISTORY_COUNT_CAP),
    total_exact: total <= HISTORY_COUNT_CAP,
    next_cursor: more ? items[items.length - 1]!.id : null,
  };
}

/**
 * The history of one folder or file (GET REST/folders/{id}/history, REST/files/{id}/history): its
 * own events and those about it (contacts, permissions, shares, indexes), newest first.
 * @throws AppError 404 when the item is not visible to the session (another firm's included)
 */
export async function itemHistory(
  services: Services,
  ctx: RequestContext,
  kind: 'folder' | 'file',
  id: string,
  page: number,
  pageSize: number,
  cursor?: string,
): Promise<HistoryPageDto> {
  if (kind === 'folder') {
    const folder = await accessibleFolder(services.db, ctx, id, 'read', { allowArchived: true });
    if (!folder) throw badRequest('The root folder has no history.', 'root_folder');
  } else {
    await accessibleFile(services.db, ctx, id, 'read', { allowArchived: true });
  }
  return listEvents(services, ctx, { item_id: id, cursor }, page, pageSize);
}

/** The firm's members, for the user filter (display name, else username), by name. */
export async function historyUsers(
  services: Services,
  ctx: RequestContext,
): Promise<HistoryUserDto[]> {
  const members = await firmMembers(services.db, ctx.databaseId);
  return members.map((m) => ({
    id: m.id,
    name: displayName(m.first_name, m.last_name) || m.username,
  }));
}

/** Links read per batch while verifying. */
const VERIFY_BATCH = 5000;

/**
 * The verifier's check of a link's stored export record: a record in the current format must be
 * exactly what the link's content renders to (one changed behind the log's back would put other
 * text in exports than the chain vouches for). Records of older formats, and rows without one,
 * are rendered anew by exports and are not checked.
 */
function exportRecordCheck(link: HistoryLinkRow): BrokenReason | null {
  if (link.export_format !== HISTORY_EXPORT_FORMAT) return null;
  return link.export_record === exportRecordText(link)
    ? null
    : 'export record does not match its content';
}

/**
 * Walks one firm's hash chain from its first link and reports the first broken one (a changed,
 * removed or re-linked row, or a stored export record that does not match its row). Reads in
 * batches, so memory stays constant. A removed tail cannot be seen from the chain alone: compare
 * `head` with a copy kept elsewhere.
 */
export async function verifyHistoryChain(
  db: Executor,
  databaseId: string,
): Promise<HistoryVerifyDto> {
  const walker = new ChainWalker<HistoryLinkRow>(exportRecordCheck);
  let after = 0;
  for (;;) {
    const links = await chainLinks(db, databaseId, after, VERIFY_BATCH);
    for (const link of links) if (!walker.add(link)) break;
    if (walker.broken || links.length < VERIFY_BATCH) break;
    after = Number(links[links.length - 1]!.chain_seq);
  }
  return {
    database_id: databaseId,
    ok: walker.broken === null,
    checked: walker.checked,
    head: walker.head,
    broken: walker.broken,
  };
}

/**
 * GET REST/history/verify: the current firm's chain, for its administrators only.
 * @throws AppError 403 'admin_only' for other roles
 */
export async function verifyCurrentFirm(
  services: Services,
  ctx: RequestContext,
): Promise<HistoryVerifyDto> {
  if (ctx.role !== 'admin') {
    throw forbidden('Only administrators can verify the history.', 'admin_only');
  }
  return verifyHistoryChain(services.db, ctx.databaseId);
}

/** Every firm's chain (the command-line verifier). */
export async function verifyAllFirms(db: Executor): Promise<HistoryVerifyDto[]> {
  const results: HistoryVerifyDto[] = [];
  for (const id of await allDatabaseIds(db)) results.push(await verifyHistoryChain(db, id));
  return results;
}
