// Wire shapes of replay (common/replayViews.ts) for the client tests: history events as replay
// reads them, and a view of the folder "Clients" (f1) whose base is built with common/replay.ts
// itself.
//
// The base (right before the window): Clients (f1) holding the file Statement.pdf (a) and the
// folder Tax (s). The window's entries, oldest first:
//   0 e1  Grace adds the file Letter.pdf (b) to Clients          → b Added
//   1 e2  Ada renames Statement.pdf to Statement 2024.pdf        → a Renamed
//   2 e3  Ada archives Tax                                       → s Archived
//   3 e4  Ada moves Letter.pdf to Elsewhere (x, outside Clients) → b Moved out
//   4 e5  a legacy entry (migrated description)                  → nothing, "legacy"
import {
  applyEvent,
  emptyReplayState,
  projectSubtree,
  type ReplayEvent,
  type ReplayState,
} from '@common/replay';
import type { CaseFileDto, ReplayViewDto } from '@common/replayViews';

/** A history event as replay reads it. */
export function makeReplayEvent(overrides: Partial<ReplayEvent> = {}): ReplayEvent {
  return {
    id: 'e0',
    seq: 1,
    entity_type: 'folder',
    entity_id: 'f1',
    item_id: null,
    action: 'create',
    user_id: 'u1',
    user_name: 'Ada Lovelace',
    attributes: { name: 'Clients', parent: { id: '', name: 'Root' } },
    created_at: '2024-03-01T09:00:00.000Z',
    ...overrides,
  };
}

const CLIENTS = { id: 'f1', name: 'Clients' };

/** The events before the window: Clients, Statement.pdf and Tax are made. */
export const BASE_EVENTS: ReplayEvent[] = [
  makeReplayEvent({ id: 'b1', seq: 1 }),
  makeReplayEvent({
    id: 'b2',
    seq: 2,
    entity_type: 'file',
    entity_id: 'a',
    item_id: 'a',
    attributes: {
      name: 'Statement.pdf',
      parent: CLIENTS,
      replay: { version: { number: 1, size: 2048, sha256: null } },
    },
    created_at: '2024-03-01T09:01:00.000Z',
  }),
  makeReplayEvent({
    id: 'b3',
    seq: 3,
    entity_id: 's',
    attributes: { name: 'Tax', parent: CLIENTS },
    created_at: '2024-03-01T09:02:00.000Z',
  }),
];

/** The window's entries (see the file comment). */
export const ENTRY_EVENTS: ReplayEvent[] = [
  makeReplayEvent({
    id: 'e1',
    seq: 10,
    entity_type: 'file',
    entity_id: 'b',
    item_id: 'b',
    user_id: 'u2',
    user_name: 'Grace Hopper',
    attributes: {
      name: 'Letter.pdf',
      parent: CLIENTS,
      replay: { version: { number: 1, size: 1024, sha256: null } },
    },
    created_at: '2024-03-05T10:00:00.000Z',
  }),
  makeReplayEvent({
    id: 'e2',
    seq: 11,
    entity_type: 'file',
    entity_id: 'a',
    item_id: 'a',
    action: 'rename',
    attributes: {
      name: 'Statement 2024.pdf',
      prev: { name: 'Statement.pdf' },
      next: { name: 'Statement 2024.pdf' },
      parent: CLIENTS,
    },
    created_at: '2024-03-05T10:01:00.000Z',
  }),
  makeReplayEvent({
    id: 'e3',
    seq: 12,
    entity_id: 's',
    item_id: 's',
    action: 'archive',
    attributes: { name: 'Tax', parent: CLIENTS },
    created_at: '2024-03-05T10:02:00.000Z',
  }),
  makeReplayEvent({
    id: 'e4',
    seq: 13,
    entity_type: 'file',
    entity_id: 'b',
    item_id: 'b',
    action: 'move',
    attributes: {
      name: 'Letter.pdf',
      changes: { prevParent: CLIENTS, nextParent: { id: 'x', name: 'Elsewhere' } },
      parent: { id: 'x', name: 'Elsewhere' },
    },
    created_at: '2024-03-05T10:03:00.000Z',
  }),
  makeReplayEvent({
    id: 'e5',
    seq: 14,
    entity_type: 'folder',
    entity_id: 'f1',
    item_id: 'f1',
    action: 'update',
    attributes: { migrated: { description: 'Folder tidied up (imported entry)' } },
    created_at: '2024-03-05T10:04:00.000Z',
  }),
];

/** The subtree of Clients after the base events. */
export function baseState(): ReplayState {
  const state = emptyReplayState();
  for (const event of BASE_EVENTS) applyEvent(state, event);
  return projectSubtree(state, 'f1');
}

/** The view of Clients, at entry `position` unless overridden. */
export function makeView(overrides: Partial<ReplayViewDto> = {}): ReplayViewDto {
  const position = overrides.position ?? ENTRY_EVENTS.length - 1;
  const entry = ENTRY_EVENTS[position];
  return {
    folder_id: 'f1',
    moment: { event_id: entry?.id ?? null, at: entry?.created_at ?? null },
    breadcrumbs: [{ id: '', name: 'Root' }],
    base: baseState(),
    entries: ENTRY_EVENTS.map((event) => ({ event, enters: [] })),
    position,
    has_earlier: false,
    has_later: false,
    destroyed_since: {},
    viewer_id: 'u1',
    ...overrides,
  };
}

/** A case file of Clients. */
export function makeCaseFile(overrides: Partial<CaseFileDto> = {}): CaseFileDto {
  return {
    folder_id: 'f1',
    folder_name: 'Clients',
    from: '2024-03-05T00:00:00.000Z',
    to: '2024-03-06T00:00:00.000Z',
    rows: [
      {
        at: '2024-03-05T10:01:00.000Z',
        user_name: 'Ada Lovelace',
        summary: 'Ada Lovelace renamed file "Statement.pdf" to "Statement 2024.pdf"',
        changes: 'Statement 2024.pdf: Renamed',
      },
    ],
    state_from: [
      {
        path: 'Statement.pdf',
        type: 'file',
        archived: false,
        index_values: '',
        contacts: '',
        shares: '',
      },
    ],
    state_to: [
      {
        path: 'Statement 2024.pdf',
        type: 'file',
        archived: false,
        index_values: 'Client ID: 42',
        contacts: 'Jane Smith',
        shares: '',
      },
    ],
    ...overrides,
  };
}
