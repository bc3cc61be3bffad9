/**
 * GET REST/replay/folders/{id}/case_file: the case file of a folder between two moments — every
 * event of its timeline in the period (when, who, what, and what it changed item by item) and
 * the folder's state at both ends — as CSV (papaparse, with the history export's cell guard), or
 * as JSON for the client's printable page. A member sees of it only the items they may see now
 * and the events not about the others (scope.ts visibleNow, eventVisible). Each one is recorded
 * in History as a user download with export kind `case_file`, in the same transaction that
 * decides to answer it.
 */
import { ROOT_FOLDER_ID, ROOT_FOLDER_NAME } from '@common/constants';
import { summarizeHistoryEvent, type HistoryEventDto } from '@common/history';
import {
  projectSubtree,
  type ReplayEvent,
  type ReplayItemChange,
  type ReplayState,
} from '@common/replay';
import {
  CASE_FILE_MAX_EVENTS,
  REPLAY_CHANGE_LABELS,
  REPLAY_MESSAGES,
  type CaseFileDto,
  type CaseFileItem,
  type CaseFileQuery,
  type CaseFileRow,
} from '@common/replayViews';
import { badRequest } from '../../errors';
import type { RequestContext, Services } from '../context';
import { recordUserDownload } from '../historyEvents';
import { csvCell, csvText } from '../historyCsv';
import { inTransaction } from '../transactions';
import { newestState, replayForward, stateAt } from './engine';
import { assertReplayAccess, eventVisible, momentOf, SubtreeWatch, visibleNow } from './scope';

/** The answer of the case file route: CSV text with its file name, or the printable page's DTO. */
export type CaseFileAnswer =
  { kind: 'csv'; fileName: string; body: string } | { kind: 'json'; body: CaseFileDto };

/** Header of the case file's CSV, in column order. */
export const CASE_FILE_COLUMNS = ['section', 'time', 'user', 'what', 'changes'] as const;

/** "Statement.pdf: Renamed, Moved; Tax: Added". */
function changeWords(changes: readonly ReplayItemChange[]): string {
  return changes
    .map((c) => `${c.name}: ${c.changes.map((k) => REPLAY_CHANGE_LABELS[k]).join(', ')}`)
    .join('; ');
}

/** The live and archived items of a subtree state as the case file lists them, by path. */
function itemsOf(state: ReplayState, folderId: string): CaseFileItem[] {
  const pathOf = (id: string): string => {
    const parts: string[] = [];
    let current = state.items[id];
    for (let hops = 0; current && current.id !== folderId && hops < 1000; hops++) {
      parts.unshift(current.name);
      current = state.items[current.parentId];
    }
    return parts.join('/');
  };
  return Object.values(state.items)
    .filter((item) => item.id !== folderId && item.destroyedAt === null)
    .map((item) => ({
      path: pathOf(item.id),
      type: item.type,
      archived: item.archivedRootId !== null,
      index_values: item.indexes
        .filter((i) => !i.archived)
        .map((i) => `${i.name}: ${i.value}`)
        .join('; '),
      contacts: item.contacts.map((c) => c.name).join('; '),
      shares: item.shares.map((s) => s.email ?? s.kind).join('; '),
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A file name's safe part of a folder name. */
function safeName(name: string): string {
  return name.replace(/[^\p{L}\p{N} ._-]+/gu, '_').slice(0, 80) || 'folder';
}

/**
 * The case file of a folder between `from` and `to` (see the module comment).
 * @throws AppError 400 bad_moment / bad_period (from not before to) / too_many_events (more than
 *   CASE_FILE_MAX_EVENTS in the period), 404 the folder not visible
 */
export async function caseFile(
  services: Services,
  ctx: RequestContext,
  folderId: string,
  query: CaseFileQuery,
): Promise<CaseFileAnswer> {
  await assertReplayAccess(services, ctx, folderId);
  const fromMs = Date.parse(query.from);
  const toMs = Date.parse(query.to);
  if (!Number.isFinite(fromMs) || !Number.isFinite(toMs)) {
    throw badRequest(REPLAY_MESSAGES.badMoment, 'bad_moment');
  }
  if (fromMs >= toMs) throw badRequest(REPLAY_MESSAGES.badPeriod, 'bad_period');
  const from = await momentOf(services, ctx, { as_of: query.from });
  const to = await momentOf(services, ctx, { as_of: query.to });
  const replayed = await stateAt(services, ctx.databaseId, from.seq);
  const stateFrom = projectSubtree(replayed.state, folderId);
  const watch = new SubtreeWatch(folderId, 'changes');
  const rows: (CaseFileRow & { changeList: ReplayItemChange[]; event: ReplayEvent })[] = [];
  let tooMany = false;
  await replayForward(services, ctx.databaseId, replayed, to.seq, {
    before: (event, state) => watch.before(event, state),
    after: (event, state) => {
      const step = watch.after(event, state);
      if (!step.relevant) return false;
      if (rows.length >= CASE_FILE_MAX_EVENTS) {
        tooMany = true;
        return true;
      }
      rows.push({
        at: event.created_at,
        user_name: event.user_name,
        summary: summarizeHistoryEvent(event as unknown as HistoryEventDto).summary,
        changes: '',
        changeList: step.changes,
        event,
      });
      return false;
    },
  });
  if (tooMany) throw badRequest(REPLAY_MESSAGES.tooManyEvents, 'too_many_events');
  const stateTo = projectSubtree(replayed.state, folderId);
  const visible = await visibleNow(services, ctx, () =>
    newestState(services, ctx.databaseId, to.newest),
  );
  const keep = (id: string) => visible === null || visible(id);
  for (const state of [stateFrom, stateTo]) {
    for (const id of Object.keys(state.items)) if (!keep(id)) delete state.items[id];
  }
  const folderName =
    folderId === ROOT_FOLDER_ID
      ? ROOT_FOLDER_NAME
      : (stateTo.items[folderId]?.name ?? stateFrom.items[folderId]?.name ?? '');
  const dto: CaseFileDto = {
    folder_id: folderId,
    folder_name: folderName,
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    rows: rows
      .filter((row) => eventVisible(row.event, visible))
      .map(({ changeList, event: _event, ...row }) => ({
        ...row,
        changes: changeWords(changeList.filter((c) => keep(c.id))),
      })),
    state_from: itemsOf(stateFrom, folderId),
    state_to: itemsOf(stateTo, folderId),
  };
  const format = query.format === 'json' ? 'print' : 'csv';
  const fileName = `Case file - ${safeName(folderName)} - ${dto.from.slice(0, 10)} to ${dto.to.slice(0, 10)}.csv`;
  await inTransaction(services, (trx) =>
    recordUserDownload(trx, services, ctx, {
      ...(folderId === ROOT_FOLDER_ID ? {} : { folders: [{ id: folderId, name: folderName }] }),
      export: {
        kind: 'case_file',
        file_name: fileName,
        folder_id: folderId,
        folder_name: folderName,
        from: dto.from,
        to: dto.to,
        format,
        events: dto.rows.length,
      },
    }),
  );
  if (query.format === 'json') return { kind: 'json', body: dto };
  return { kind: 'csv', fileName, body: caseFileCsv(dto) };
}

/**
 * The case file as CSV: a header, one `event` row per timeline event, then `start` and `end`
 * rows listing the folder's items at both ends (path, type, archived, index values, contacts,
 * shares in the what/changes columns).
 */
export function caseFileCsv(dto: CaseFileDto): string {
  const records: string[][] = [[...CASE_FILE_COLUMNS]];
  for (const row of dto.rows) {
    records.push(['event', row.at, row.user_name, row.summary, row.changes].map(csvCell));
  }
  for (const [section, items, at] of [
    ['start', dto.state_from, dto.from],
    ['end', dto.state_to, dto.to],
  ] as const) {
    for (const item of items) {
      const details = [
        item.archived ? 'archived' : '',
        item.index_values,
        item.contacts && `contacts: ${item.contacts}`,
        item.shares && `shared with: ${item.shares}`,
      ]
        .filter(Boolean)
        .join('; ');
      records.push([section, at, '', `${item.type} ${item.path}`, details].map(csvCell));
    }
  }
  return `\ufeff${csvText(records)}\r\n`;
}
