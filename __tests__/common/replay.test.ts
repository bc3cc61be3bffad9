/**
 * common/replay.ts: every rule of applyEvent with events in the exact shapes the services record
 * (made by server/services/historyEvents.ts's own functions, whose recordEvent is replaced here
 * by one that answers the event it was given, and read back as stored: canonical JSON), the
 * subtree helpers and diffStates, and a property: a folder's subtree stepped along the timeline
 * with stepSubtree and what the server sends as `enters` (SubtreeWatch in 'entries' mode, and an
 * oracle that diffs the full state's subtrees) is the full state's subtree after every event.
 */
import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { ROOT_FOLDER_ID } from '@common/constants';
import {
  applyEvent,
  childrenAt,
  copyState,
  diffStates,
  emptyReplayState,
  inSubtree,
  isReplayable,
  projectSubtree,
  stepSubtree,
  stepSubtreeShared,
  touchedIds,
  type ReplayEvent,
  type ReplayItem,
  type ReplayState,
  type ReplayVersion,
} from '@common/replay';
import type { Executor } from '@server/repositories/types';
import type { RequestContext } from '@server/services/context';
import { canonicalJson } from '@server/services/historyChain';
import type * as HistoryModule from '@server/services/history';
import type { NewEvent } from '@server/services/history';
import {
  folderColorEvent,
  itemMovedEvent,
  itemReadEvent,
  itemRenamedEvent,
  itemStateEvent,
  recordContactLinked,
  recordContactUnlinked,
  recordFavoriteChanged,
  recordFolderCopied,
  recordIndexArchived,
  recordIndexDeleted,
  recordIndexesApplied,
  recordIndexRestored,
  recordIndexUpdated,
  recordInviteAccepted,
  recordInviteCancelled,
  recordInviteSent,
  recordItemCreated,
  recordItemUpdated,
  recordLinkReissued,
  recordPermissionRemoved,
  recordPermissionsAdded,
  recordPermissionsRemovedMany,
  recordShareRemoved,
  recordUserDownload,
  recordUserLogin,
  recordVersionEvent,
  type AppliedIndexValue,
  type ParentRef,
  type RecordServices,
  type TypedItemRef,
} from '@server/services/historyEvents';
import { SubtreeWatch } from '@server/services/replay/scope';

// The recording functions' own shapes, without a database: recordEvent answers its event (JSON).
jest.mock('@server/services/history', () => ({
  ...jest.requireActual<typeof HistoryModule>('@server/services/history'),
  recordEvent: (_trx: unknown, _services: unknown, _ctx: unknown, event: unknown) =>
    Promise.resolve(JSON.stringify(event)),
}));

const T0 = Date.UTC(2024, 0, 1, 9);
const ROOT: ParentRef = { id: ROOT_FOLDER_ID, name: 'Root' };
const ADA = { id: 'u-ada', name: 'Ada Lovelace' };
const BOB = { id: 'u-bob', name: 'Bob Babbage' };
const CYD = { id: 'u-cyd', name: 'Cyd Charisse' };
const USERS = [ADA, BOB, CYD];
const V1: ReplayVersion = { number: 1, size: 1200, sha256: 'a'.repeat(64) };

type User = typeof ADA;

/** The leading arguments of every recording function: no transaction, the user's context. */
function by(user: User = ADA): [Executor, RecordServices, RequestContext] {
  const ctx: RequestContext = {
    userId: user.id,
    userName: user.name,
    databaseId: 'db-1',
    role: 'admin',
    sessionId: 's-1',
    ip: '10.0.0.1',
    userAgent: 'jest',
  };
  return [null as unknown as Executor, null as unknown as RecordServices, ctx];
}

const folder = (id: string, name: string): TypedItemRef => ({ type: 'folder', id, name });
const file = (id: string, name: string): TypedItemRef => ({ type: 'file', id, name });

/** A recorded event (a recording function's answer, or a built one) as replay reads it. */
type Recorded = Promise<string> | NewEvent;

/** Turns recorded events into replay events in chain order (as stored and read back). */
class Chain {
  private seq = 0;

  async event(recorded: Recorded, user: User = ADA): Promise<ReplayEvent> {
    const event: NewEvent =
      typeof recorded === 'object' && 'entityType' in recorded
        ? recorded
        : (JSON.parse(await recorded) as NewEvent);
    this.seq += 1;
    const itemEvent = event.entityType === 'folder' || event.entityType === 'file';
    return {
      id: `ev-${String(this.seq).padStart(6, '0')}`,
      seq: this.seq,
      entity_type: event.entityType,
      entity_id: event.entityId,
      item_id: event.itemId !== undefined ? event.itemId : itemEvent ? event.entityId : null,
      action: event.action,
      user_id: user.id,
      user_name: user.name,
      attributes: JSON.parse(canonicalJson(event.attributes)) as Record<string, unknown>,
      created_at: new Date(T0 + this.seq * 60_000).toISOString(),
    };
  }

  /** An event built by hand (legacy shapes the recording functions no longer make). */
  raw(fields: Pick<ReplayEvent, 'entity_type' | 'entity_id' | 'action' | 'attributes'>) {
    return this.event({
      entityType: fields.entity_type as NewEvent['entityType'],
      entityId: fields.entity_id,
      action: fields.action as NewEvent['action'],
      attributes: fields.attributes,
    });
  }
}

/** A firm's replayed state, fed with recorded events. */
class Firm {
  readonly state = emptyReplayState();
  readonly chain = new Chain();

  async apply(recorded: Recorded, user: User = ADA): Promise<ReplayEvent> {
    const event = await this.chain.event(recorded, user);
    applyEvent(this.state, event);
    return event;
  }

  /** Applies an event built by hand. */
  async applyRaw(fields: Parameters<Chain['raw']>[0]): Promise<ReplayEvent> {
    const event = await this.chain.raw(fields);
    applyEvent(this.state, event);
    return event;
  }

  item(id: string): ReplayItem {
    const item = this.state.items[id];
    if (!item) throw new Error(`no item ${id}`);
    return item;
  }

  /** The item as a parent reference ({ id, name }). */
  ref(id: string): ParentRef {
    return id === ROOT_FOLDER_ID ? ROOT : { id, name: this.item(id).name };
  }

  typed(id: string): TypedItemRef {
    const item = this.item(id);
    return { type: item.type, id, name: item.name };
  }

  createFolder(id: string, name: string, parentId = ROOT_FOLDER_ID) {
    return this.apply(recordItemCreated(...by(), folder(id, name), this.ref(parentId)));
  }

  createFile(id: string, name: string, parentId = ROOT_FOLDER_ID, version: ReplayVersion = V1) {
    return this.apply(recordItemCreated(...by(), file(id, name), this.ref(parentId), version));
  }

  archive(id: string) {
    return this.apply(itemStateEvent('archive', this.typed(id), this.ref(this.item(id).parentId)));
  }

  restore(id: string, name = this.item(id).name, parentId = this.item(id).parentId) {
    return this.apply(itemStateEvent('restore', { ...this.typed(id), name }, this.ref(parentId)));
  }

  destroy(id: string) {
    return this.apply(itemStateEvent('delete', this.typed(id), this.ref(this.item(id).parentId)));
  }

  move(id: string, parentId: string) {
    const item = this.item(id);
    return this.apply(itemMovedEvent(this.typed(id), this.ref(item.parentId), this.ref(parentId)));
  }

  rename(id: string, name: string) {
    const item = this.item(id);
    return this.apply(
      itemRenamedEvent(item, { prev: item.name, next: name }, this.ref(item.parentId)),
    );
  }

  /** The items as JSON (to compare before and after an event that should change nothing). */
  itemsText(): string {
    return JSON.stringify(this.state.items);
  }
}

/**
 * A small firm: Clients (c) / Smith (s) / 2024 (y) with files a.pdf (a) in Smith and b.pdf (b)
 * in 2024, and Inbox (i) at the root with in.pdf (n).
 */
async function smallFirm(): Promise<Firm> {
  const firm = new Firm();
  await firm.createFolder('c', 'Clients');
  await firm.createFolder('s', 'Smith', 'c');
  await firm.createFolder('y', '2024', 's');
  await firm.createFile('a', 'a.pdf', 's');
  await firm.createFile('b', 'b.pdf', 'y', { number: 1, size: 10, sha256: null });
  await firm.createFolder('i', 'Inbox');
  await firm.createFile('n', 'in.pdf', 'i');
  return firm;
}

describe('applyEvent', () => {
  it('create adds a folder, and a file with its version 1 from replay.version', async () => {
    const firm = new Firm();
    const created = await firm.createFolder('f1', 'Clients');
    await firm.createFile('x1', 'Statement.pdf', 'f1');
    expect(firm.item('f1')).toEqual({
      id: 'f1',
      type: 'folder',
      name: 'Clients',
      parentId: '',
      archivedRootId: null,
      destroyedAt: null,
      favorites: [],
      colors: {},
      indexes: [],
      contacts: [],
      permissions: [],
      shares: [],
      version: null,
      createdAt: created.created_at,
      updatedAt: created.created_at,
    });
    expect(firm.item('x1')).toMatchObject({ type: 'file', parentId: 'f1', version: V1 });
    expect(firm.state.seq).toBe(2);
    expect(firm.state.legacy).toEqual([]);
  });

  it('a file created before its event carried the version has none; a create without a name is legacy', async () => {
    const firm = new Firm();
    const event = await firm.chain.event(recordItemCreated(...by(), file('x1', 'Old.pdf'), ROOT));
    applyEvent(firm.state, event);
    expect(firm.item('x1').version).toBeNull();
    const bare = await firm.applyRaw({
      entity_type: 'folder',
      entity_id: 'f9',
      action: 'create',
      attributes: { folder_name: 'Nameless' },
    });
    expect(firm.state.items.f9).toBeUndefined();
    expect(firm.state.legacy).toEqual([bare.id]);
  });

  it('rename sets the name from next.name and the time of the change', async () => {
    const firm = await smallFirm();
    const renamed = await firm.rename('a', 'Statement.pdf');
    expect(firm.item('a').name).toBe('Statement.pdf');
    expect(firm.item('a').updatedAt).toBe(renamed.created_at);
    expect(firm.item('a').createdAt).not.toBe(renamed.created_at);
  });

  it('move sets the parent from changes.nextParent; what is below goes with it', async () => {
    const firm = await smallFirm();
    await firm.move('y', 'i');
    expect(firm.item('y').parentId).toBe('i');
    expect(Object.keys(projectSubtree(firm.state, 'i').items).sort()).toEqual(['b', 'i', 'n', 'y']);
    expect(Object.keys(projectSubtree(firm.state, 's').items).sort()).toEqual(['a', 's']);
    await firm.move('n', ROOT_FOLDER_ID);
    expect(firm.item('n').parentId).toBe('');
  });

  it('folder copy adds a copy of each pair of replay.copies, without what hangs on the source', async () => {
    const firm = await smallFirm();
    await firm.apply(
      recordFavoriteChanged(...by(), firm.typed('y'), [{ user_id: ADA.id, enabled: true }]),
    );
    await firm.apply(folderColorEvent(firm.ref('y'), firm.ref('s'), ADA.id, 'red'));
    await firm.apply(
      recordIndexesApplied(...by(), firm.typed('b'), [
        { id: 'ix1', index_field_id: 'field-year', name: 'Tax year', value: '2024' },
      ]),
    );
    await firm.apply(recordContactLinked(...by(), { id: 'k1' }, 'Jane Smith', firm.ref('y')));
    await firm.apply(
      recordPermissionsAdded(...by(), firm.ref('y'), [
        { permissionable_id: BOB.id, permissionable_type: 'user' },
      ]),
    );
    await firm.apply(
      recordInviteSent(...by(), { id: 'sl1' }, 'guest@example.com', firm.typed('b')),
    );
    await firm.apply(
      recordVersionEvent(...by(), 'add_version', firm.ref('b'), firm.ref('y'), {
        number: 2,
        size: 20,
        sha256: 'b'.repeat(64),
      }),
    );
    const copied = await firm.apply(
      recordFolderCopied(
        ...by(),
        firm.ref('s'),
        { id: 's2', name: 'Smith (1)' },
        firm.ref('c'),
        firm.ref('i'),
        [
          ['s', 's2'],
          ['y', 'y2'],
          ['a', 'a2'],
          ['b', 'b2'],
        ],
      ),
    );
    expect(firm.item('s2')).toMatchObject({ type: 'folder', name: 'Smith (1)', parentId: 'i' });
    expect(firm.item('y2')).toMatchObject({
      type: 'folder',
      name: '2024',
      parentId: 's2',
      favorites: [],
      colors: {},
      contacts: [],
      permissions: [],
      createdAt: copied.created_at,
    });
    expect(firm.item('a2')).toMatchObject({
      type: 'file',
      name: 'a.pdf',
      parentId: 's2',
      version: V1,
    });
    expect(firm.item('b2')).toMatchObject({
      parentId: 'y2',
      indexes: [],
      shares: [],
      version: { number: 1, size: 20, sha256: 'b'.repeat(64) },
    });
    // The source is as it was.
    expect(firm.item('s').parentId).toBe('c');
    expect(firm.item('y').favorites).toEqual([ADA.id]);
    expect(firm.item('b').version?.number).toBe(2);
    expect(Object.keys(projectSubtree(firm.state, 'i').items).sort()).toEqual([
      'a2',
      'b2',
      'i',
      'n',
      's2',
      'y2',
    ]);
  });

  it('a copy without replay.copies is legacy and adds nothing', async () => {
    const firm = await smallFirm();
    const before = firm.itemsText();
    const event = await firm.chain.event(
      recordFolderCopied(
        ...by(),
        firm.ref('s'),
        { id: 's2', name: 'Smith (1)' },
        firm.ref('c'),
        firm.ref('c'),
        [],
      ),
    );
    delete event.attributes.replay;
    applyEvent(firm.state, event);
    expect(firm.itemsText()).toBe(before);
    expect(firm.state.legacy).toEqual([event.id]);
  });

  it('archive marks the item and its live descendants with it as their archive root', async () => {
    const firm = await smallFirm();
    await firm.archive('b');
    await firm.archive('a');
    await firm.destroy('a');
    await firm.createFile('d', 'd.pdf', 'y');
    await firm.archive('s');
    expect(firm.item('s').archivedRootId).toBe('s');
    expect(firm.item('y').archivedRootId).toBe('s');
    expect(firm.item('d').archivedRootId).toBe('s');
    // Archived on its own before: keeps its own root; destroyed: untouched.
    expect(firm.item('b').archivedRootId).toBe('b');
    expect(firm.item('a').archivedRootId).toBe('a');
    expect(firm.item('c').archivedRootId).toBeNull();
    // Archiving again changes nothing.
    const before = firm.itemsText();
    await firm.archive('y');
    expect(firm.itemsText()).toBe(before);
  });

  it('restore brings back only what went with the archive', async () => {
    const firm = await smallFirm();
    await firm.archive('b');
    await firm.archive('s');
    await firm.restore('s');
    expect(firm.item('s').archivedRootId).toBeNull();
    expect(firm.item('y').archivedRootId).toBeNull();
    expect(firm.item('a').archivedRootId).toBeNull();
    expect(firm.item('b').archivedRootId).toBe('b');
    await firm.restore('b');
    expect(firm.item('b').archivedRootId).toBeNull();
    expect(firm.item('b').parentId).toBe('y');
  });

  it('restore takes the name and parent the event records (a name made unique, the root)', async () => {
    const firm = await smallFirm();
    await firm.archive('a');
    await firm.restore('a', 'a (1).pdf', ROOT_FOLDER_ID);
    expect(firm.item('a')).toMatchObject({ name: 'a (1).pdf', parentId: '', archivedRootId: null });
    expect(Object.keys(projectSubtree(firm.state, 's').items).sort()).toEqual(['b', 's', 'y']);
    // A live item's restore (the service answers it unchanged) changes nothing.
    const before = firm.itemsText();
    await firm.restore('y', 'Other', ROOT_FOLDER_ID);
    expect(firm.itemsText()).toBe(before);
  });

  it('restore of an item archived with its folder brings it back alone with what went with it below it', async () => {
    const firm = await smallFirm();
    await firm.createFile('d', 'd.pdf', 'y');
    await firm.archive('d');
    await firm.archive('s');
    // 2024 goes to the root (Smith stays archived) with b.pdf; d.pdf was archived on its own.
    await firm.restore('y', '2024', ROOT_FOLDER_ID);
    expect(firm.item('y')).toMatchObject({ parentId: '', archivedRootId: null });
    expect(firm.item('b').archivedRootId).toBeNull();
    expect(firm.item('d').archivedRootId).toBe('d');
    expect(firm.item('s').archivedRootId).toBe('s');
    expect(firm.item('a').archivedRootId).toBe('s');
    await firm.restore('s');
    expect(firm.item('a').archivedRootId).toBeNull();
    expect(firm.item('d').archivedRootId).toBe('d');
  });

  it('delete keeps the item and its descendants as tombstones', async () => {
    const firm = await smallFirm();
    await firm.archive('b');
    const first = await firm.destroy('b');
    await firm.archive('s');
    const second = await firm.destroy('s');
    for (const id of ['s', 'y', 'a']) expect(firm.item(id).destroyedAt).toBe(second.created_at);
    expect(firm.item('b').destroyedAt).toBe(first.created_at);
    expect(firm.item('c').destroyedAt).toBeNull();
    // Tombstones stay in the subtree (with their parent).
    expect(Object.keys(projectSubtree(firm.state, 'c').items).sort()).toEqual([
      'a',
      'b',
      'c',
      's',
      'y',
    ]);
    expect(childrenAt(projectSubtree(firm.state, 'c'), 'c', { archived: true })).toEqual([]);
  });

  it('favourites are per user, for folders and files', async () => {
    const firm = await smallFirm();
    const fav = (id: string, user: User, enabled: boolean) =>
      firm.apply(
        recordFavoriteChanged(
          ...by(user),
          firm.typed(id),
          [{ user_id: user.id, enabled }],
          firm.ref(firm.item(id).parentId),
        ),
        user,
      );
    await fav('s', BOB, true);
    await fav('s', ADA, true);
    await fav('a', CYD, true);
    expect(firm.item('s').favorites).toEqual([ADA.id, BOB.id]);
    await fav('s', BOB, false);
    expect(firm.item('s').favorites).toEqual([ADA.id]);
    expect(firm.item('a').favorites).toEqual([CYD.id]);
    // Unfavouriting what was never a favourite changes nothing.
    await fav('a', ADA, false);
    expect(firm.item('a').favorites).toEqual([CYD.id]);
    expect(firm.state.legacy).toEqual([]);
  });

  it('colours are per user: set, changed and cleared', async () => {
    const firm = await smallFirm();
    const colour = (user: User, color: string | null) =>
      firm.apply(folderColorEvent(firm.ref('s'), firm.ref('c'), user.id, color), user);
    await colour(ADA, 'red');
    await colour(BOB, 'blue');
    expect(firm.item('s').colors).toEqual({ [ADA.id]: 'red', [BOB.id]: 'blue' });
    await colour(ADA, 'green');
    await colour(BOB, null);
    expect(firm.item('s').colors).toEqual({ [ADA.id]: 'green' });
    expect(firm.state.legacy).toEqual([]);
  });

  it('applied index values: create_many, update, archive, restore and delete by row id', async () => {
    const firm = await smallFirm();
    const values: AppliedIndexValue[] = [
      { id: 'ix1', index_field_id: 'fy', name: 'Tax year', value: '2024' },
      { id: 'ix2', index_field_id: 'fc', name: 'Client', value: 'Smith' },
    ];
    await firm.apply(recordIndexesApplied(...by(), firm.typed('a'), values));
    await firm.apply(
      recordIndexesApplied(...by(), firm.typed('a'), [
        { id: 'ix3', index_field_id: 'fy', name: 'Tax year', value: '2023' },
      ]),
    );
    const row = (id: string, fieldId: string, name: string, value: string, archived = false) => ({
      id,
      fieldId,
      name,
      value,
      archived,
    });
    expect(firm.item('a').indexes).toEqual([
      row('ix2', 'fc', 'Client', 'Smith'),
      row('ix1', 'fy', 'Tax year', '2024'),
      row('ix3', 'fy', 'Tax year', '2023'),
    ]);
    // Two values of the same name: each event reaches its own row.
    await firm.apply(
      recordIndexUpdated(
        ...by(),
        { id: 'ix3' },
        firm.typed('a'),
        { name: 'Tax year', value: '2022' },
        '2023',
      ),
    );
    await firm.apply(
      recordIndexArchived(...by(), { id: 'ix1' }, firm.typed('a'), {
        name: 'Tax year',
        value: '2024',
      }),
    );
    expect(firm.item('a').indexes).toEqual([
      row('ix2', 'fc', 'Client', 'Smith'),
      row('ix1', 'fy', 'Tax year', '2024', true),
      row('ix3', 'fy', 'Tax year', '2022'),
    ]);
    await firm.apply(
      recordIndexRestored(...by(), { id: 'ix1' }, firm.typed('a'), {
        name: 'Tax year',
        value: '2024',
      }),
    );
    await firm.apply(
      recordIndexDeleted(...by(), { id: 'ix2' }, firm.typed('a'), {
        name: 'Client',
        value: 'Smith',
      }),
    );
    expect(firm.item('a').indexes).toEqual([
      row('ix1', 'fy', 'Tax year', '2024'),
      row('ix3', 'fy', 'Tax year', '2022'),
    ]);
    // On a folder too.
    await firm.apply(
      recordIndexesApplied(...by(), firm.typed('s'), [
        { id: 'ix4', index_field_id: 'fc', name: 'Client', value: 'Smith' },
      ]),
    );
    expect(firm.item('s').indexes).toEqual([row('ix4', 'fc', 'Client', 'Smith')]);
    expect(firm.state.legacy).toEqual([]);
  });

  it('applied index events without replay.applied match by name; a value never seen is legacy', async () => {
    const firm = await smallFirm();
    const legacy = await firm.chain.event(
      recordIndexesApplied(...by(), firm.typed('a'), [
        { id: 'ix1', index_field_id: 'fy', name: 'Tax year', value: '2024' },
      ]),
    );
    delete legacy.attributes.replay;
    applyEvent(firm.state, legacy);
    expect(firm.item('a').indexes).toEqual([
      { id: null, fieldId: null, name: 'Tax year', value: '2024', archived: false },
    ]);
    await firm.apply(
      recordIndexUpdated(
        ...by(),
        { id: 'ix1' },
        firm.typed('a'),
        { name: 'Tax year', value: '2025' },
        '2024',
      ),
    );
    expect(firm.item('a').indexes[0]).toMatchObject({ id: null, value: '2025' });
    await firm.apply(
      recordIndexArchived(...by(), { id: 'ix1' }, firm.typed('a'), {
        name: 'Tax year',
        value: '2025',
      }),
    );
    expect(firm.item('a').indexes[0]?.archived).toBe(true);
    await firm.apply(
      recordIndexRestored(...by(), { id: 'ix1' }, firm.typed('a'), {
        name: 'Tax year',
        value: '2025',
      }),
    );
    expect(firm.item('a').indexes[0]?.archived).toBe(false);
    await firm.apply(
      recordIndexDeleted(...by(), { id: 'ix1' }, firm.typed('a'), {
        name: 'Tax year',
        value: '2025',
      }),
    );
    expect(firm.item('a').indexes).toEqual([]);
    expect(firm.state.legacy).toEqual([]);
    const before = firm.itemsText();
    const unseen = await firm.apply(
      recordIndexUpdated(
        ...by(),
        { id: 'ix9' },
        firm.typed('b'),
        { name: 'Client', value: 'X' },
        'Y',
      ),
    );
    // A restore of a value that is not archived has nothing to bring back either.
    await firm.apply(
      recordIndexesApplied(...by(), firm.typed('b'), [
        { id: 'ix8', index_field_id: 'fc', name: 'Client', value: 'Z' },
      ]),
    );
    const notArchived = await firm.apply(
      recordIndexRestored(...by(), { id: 'ix8' }, firm.typed('b'), { name: 'Client', value: 'Z' }),
    );
    expect(firm.state.legacy).toEqual([unseen.id, notArchived.id]);
    expect(firm.item('b').indexes).toEqual([
      { id: 'ix8', fieldId: 'fc', name: 'Client', value: 'Z', archived: false },
    ]);
    expect(JSON.parse(before)).toMatchObject({ b: { indexes: [] } });
  });

  it('contacts: linked and unlinked by the link id', async () => {
    const firm = await smallFirm();
    await firm.apply(recordContactLinked(...by(), { id: 'k2' }, 'Zoe Smith', firm.ref('s')));
    await firm.apply(recordContactLinked(...by(), { id: 'k1' }, 'Jane Smith', firm.ref('s')));
    expect(firm.item('s').contacts).toEqual([
      { id: 'k1', name: 'Jane Smith' },
      { id: 'k2', name: 'Zoe Smith' },
    ]);
    await firm.apply(recordContactUnlinked(...by(), { id: 'k2' }, 'Zoe Smith', firm.ref('s')));
    expect(firm.item('s').contacts).toEqual([{ id: 'k1', name: 'Jane Smith' }]);
  });

  it('permissions: create_many, delete, delete_many of a folder and of a user across folders', async () => {
    const firm = await smallFirm();
    const bob = { permissionable_id: BOB.id, permissionable_type: 'user', name: BOB.name };
    const cyd = { permissionable_id: CYD.id, permissionable_type: 'user' };
    const team = { permissionable_id: 'g-tax', permissionable_type: 'group', name: 'Tax' };
    await firm.apply(recordPermissionsAdded(...by(), firm.ref('s'), [bob, team]));
    await firm.apply(recordPermissionsAdded(...by(), firm.ref('s'), [cyd, bob]));
    await firm.apply(recordPermissionsAdded(...by(), firm.ref('i'), [bob]));
    await firm.apply(recordPermissionsAdded(...by(), firm.ref('y'), [bob, cyd]));
    expect(firm.item('s').permissions).toEqual([
      { type: 'group', id: 'g-tax', name: 'Tax' },
      { type: 'user', id: BOB.id, name: BOB.name },
      { type: 'user', id: CYD.id, name: null },
    ]);
    await firm.apply(recordPermissionRemoved(...by(), { id: 'perm-1' }, firm.ref('s'), team));
    expect(firm.item('s').permissions.map((p) => p.id)).toEqual([BOB.id, CYD.id]);
    await firm.apply(recordPermissionsRemovedMany(...by(), { folder: firm.ref('y') }, [bob, cyd]));
    expect(firm.item('y').permissions).toEqual([]);
    // Every permission of Bob, across folders (the per-user form: `folders`, no folder_id).
    const removed = await firm.apply(
      recordPermissionsRemovedMany(
        ...by(),
        { userId: BOB.id, folders: [firm.ref('s'), firm.ref('i')] },
        [bob],
      ),
    );
    expect(removed.item_id).toBeNull();
    expect(touchedIds(firm.state, removed).sort()).toEqual(['i', 's']);
    expect(firm.item('s').permissions).toEqual([{ type: 'user', id: CYD.id, name: null }]);
    expect(firm.item('i').permissions).toEqual([]);
    // The per-user form naming one folder has it as its item.
    await firm.apply(recordPermissionsAdded(...by(), firm.ref('i'), [cyd]));
    const one = await firm.apply(
      recordPermissionsRemovedMany(...by(), { userId: CYD.id, folders: [firm.ref('i')] }, [cyd]),
    );
    expect(one.item_id).toBe('i');
    expect(firm.item('i').permissions).toEqual([]);
    expect(firm.item('s').permissions).toHaveLength(1);
  });

  it('share links and guests: create, delete; a reissued link changes nothing', async () => {
    const firm = await smallFirm();
    await firm.apply(recordInviteSent(...by(), { id: 'sl1' }, 'jane@example.com', firm.typed('s')));
    await firm.apply(recordInviteSent(...by(), { id: 'sl2' }, 'joe@example.com', firm.typed('a')));
    await firm.apply(
      recordInviteAccepted(...by(), { id: 'g1' }, 'jane@example.com', firm.typed('s')),
    );
    expect(firm.item('s').shares).toEqual([
      { id: 'g1', kind: 'guest', email: 'jane@example.com' },
      { id: 'sl1', kind: 'link', email: 'jane@example.com' },
    ]);
    expect(firm.item('a').shares).toEqual([{ id: 'sl2', kind: 'link', email: 'joe@example.com' }]);
    const before = firm.itemsText();
    const reissued = await firm.apply(recordLinkReissued(...by(), { id: 'sl1' }, firm.typed('s')));
    expect(reissued.attributes.reissued).toBe(true);
    expect(firm.itemsText()).toBe(before);
    await firm.apply(
      recordInviteCancelled(...by(), { id: 'sl1' }, 'jane@example.com', firm.typed('s')),
    );
    await firm.apply(
      recordShareRemoved(...by(), { id: 'g1' }, 'jane@example.com', firm.typed('s')),
    );
    expect(firm.item('s').shares).toEqual([]);
    expect(firm.item('a').shares).toHaveLength(1);
  });

  it('one link invites several addresses: an invitation is the link and its address', async () => {
    const firm = await smallFirm();
    await firm.apply(recordInviteSent(...by(), { id: 'sl1' }, 'jane@example.com', firm.typed('s')));
    await firm.apply(recordInviteSent(...by(), { id: 'sl1' }, 'joe@example.com', firm.typed('s')));
    // The same invitation again changes nothing.
    await firm.apply(recordInviteSent(...by(), { id: 'sl1' }, 'joe@example.com', firm.typed('s')));
    expect(firm.item('s').shares).toEqual([
      { id: 'sl1', kind: 'link', email: 'jane@example.com' },
      { id: 'sl1', kind: 'link', email: 'joe@example.com' },
    ]);
    const before = firm.itemsText();
    await firm.apply(recordLinkReissued(...by(), { id: 'sl1' }, firm.typed('s')));
    expect(firm.itemsText()).toBe(before);
    await firm.apply(
      recordInviteCancelled(...by(), { id: 'sl1' }, 'jane@example.com', firm.typed('s')),
    );
    expect(firm.item('s').shares).toEqual([{ id: 'sl1', kind: 'link', email: 'joe@example.com' }]);
  });

  it('file versions: add_version and restore_version set the newest version', async () => {
    const firm = await smallFirm();
    const added = await firm.apply(
      recordVersionEvent(...by(), 'add_version', firm.ref('a'), firm.ref('s'), {
        number: 2,
        size: 2048,
        sha256: 'c'.repeat(64),
        content_type: 'application/pdf',
      }),
    );
    expect(firm.item('a').version).toEqual({ number: 2, size: 2048, sha256: 'c'.repeat(64) });
    expect(firm.item('a').updatedAt).toBe(added.created_at);
    await firm.apply(
      recordVersionEvent(...by(), 'restore_version', firm.ref('a'), firm.ref('s'), {
        number: 3,
        size: 1200,
        sha256: 'a'.repeat(64),
        content_type: 'application/pdf',
        restored_from: 1,
      }),
    );
    expect(firm.item('a').version).toEqual({ number: 3, size: 1200, sha256: 'a'.repeat(64) });
    // Deleting an older version leaves the newest.
    await firm.apply(
      recordVersionEvent(...by(), 'delete_version', firm.ref('a'), firm.ref('s'), { number: 2 }),
    );
    expect(firm.item('a').version?.number).toBe(3);
  });

  it('a legacy migrated.description entry changes nothing and is listed in legacy', async () => {
    const firm = await smallFirm();
    const before = firm.itemsText();
    const event = await firm.applyRaw({
      entity_type: 'folder',
      entity_id: 's',
      action: 'rename',
      attributes: {
        migrated: { description: 'Ada renamed Smith to Jones' },
        name: 'Jones',
        next: { name: 'Jones' },
      },
    });
    expect(firm.itemsText()).toBe(before);
    expect(firm.state.legacy).toEqual([event.id]);
    expect(firm.state.seq).toBe(event.seq);
  });

  it('a folder or file update without favourites or colour is legacy', async () => {
    const firm = await smallFirm();
    const before = firm.itemsText();
    const onFolder = await firm.apply(recordItemUpdated(...by(), firm.typed('s'), firm.ref('c')));
    const onFile = await firm.apply(recordItemUpdated(...by(), firm.typed('a'), firm.ref('s')));
    expect(firm.itemsText()).toBe(before);
    expect(firm.state.legacy).toEqual([onFolder.id, onFile.id]);
  });

  it('events about items the state does not hold change nothing', async () => {
    const firm = await smallFirm();
    const ghost = folder('zz', 'Ghost');
    const ghostFile = file('zf', 'ghost.pdf');
    const before = firm.itemsText();
    const events: Recorded[] = [
      itemRenamedEvent(ghost, { prev: 'Ghost', next: 'Spirit' }, ROOT),
      itemMovedEvent(ghost, ROOT, firm.ref('c')),
      itemStateEvent('archive', ghost, ROOT),
      itemStateEvent('restore', ghost, ROOT),
      itemStateEvent('delete', ghost, ROOT),
      recordFavoriteChanged(...by(), ghostFile, [{ user_id: ADA.id, enabled: true }]),
      folderColorEvent(ghost, ROOT, ADA.id, 'red'),
      recordIndexesApplied(...by(), ghostFile, [
        { id: 'ix1', index_field_id: 'f', name: 'N', value: 'V' },
      ]),
      recordContactLinked(...by(), { id: 'k1' }, 'Jane', ghost),
      recordPermissionsAdded(...by(), ghost, [
        { permissionable_id: BOB.id, permissionable_type: 'user' },
      ]),
      recordInviteSent(...by(), { id: 'sl1' }, 'x@example.com', ghostFile),
      recordInviteAccepted(...by(), { id: 'g1' }, 'x@example.com', ghost),
      recordVersionEvent(...by(), 'add_version', ghostFile, ROOT, { number: 2 }),
      recordFolderCopied(...by(), ghost, { id: 'zz2', name: 'Ghost (1)' }, ROOT, ROOT, [
        ['zz', 'zz2'],
      ]),
    ];
    for (const recorded of events) await firm.apply(recorded);
    expect(firm.itemsText()).toBe(before);
    expect(firm.state.legacy).toEqual([]);
  });

  it('downloads, previews, prints, sign-ins and user downloads change nothing', async () => {
    const firm = await smallFirm();
    const before = firm.itemsText();
    const reads = [
      await firm.apply(itemReadEvent(firm.typed('a'), 'download', firm.ref('s'))),
      await firm.apply(itemReadEvent(firm.typed('a'), 'preview', firm.ref('s'), 1)),
      await firm.apply(itemReadEvent(firm.typed('a'), 'print', firm.ref('s'))),
      await firm.apply(itemReadEvent(firm.typed('s'), 'download', firm.ref('c'))),
    ];
    const others = [
      await firm.apply(recordUserLogin(...by())),
      await firm.apply(recordUserDownload(...by(), { folders: [firm.ref('s')] })),
    ];
    expect(firm.itemsText()).toBe(before);
    expect(firm.state.legacy).toEqual([]);
    expect(reads.map((e) => isReplayable(e))).toEqual([false, false, false, false]);
    expect(others.map((e) => isReplayable(e))).toEqual([false, false]);
    expect(isReplayable({ entity_type: 'applied_index', action: 'update' })).toBe(true);
    expect(isReplayable({ entity_type: 'file', action: 'rename' })).toBe(true);
  });
});

describe('subtrees', () => {
  it('projectSubtree copies the folder and everything below it; inSubtree follows parents', async () => {
    const firm = await smallFirm();
    const sub = projectSubtree(firm.state, 's');
    expect(Object.keys(sub.items).sort()).toEqual(['a', 'b', 's', 'y']);
    expect(sub.seq).toBe(firm.state.seq);
    sub.items.a!.name = 'changed';
    expect(firm.item('a').name).toBe('a.pdf');
    expect(Object.keys(projectSubtree(firm.state, ROOT_FOLDER_ID).items)).toHaveLength(7);
    expect(inSubtree(firm.state, 'b', 'c')).toBe(true);
    expect(inSubtree(firm.state, 's', 's')).toBe(true);
    expect(inSubtree(firm.state, 'n', 'c')).toBe(false);
    expect(inSubtree(firm.state, 'c', 's')).toBe(false);
    expect(inSubtree(firm.state, 'nope', 'nope')).toBe(false);
  });

  it('touchedIds names the item, what is below a folder it moves, and the copies', async () => {
    const firm = await smallFirm();
    const move = await firm.chain.event(itemMovedEvent(firm.typed('s'), firm.ref('c'), ROOT));
    expect(touchedIds(firm.state, move).sort()).toEqual(['a', 'b', 's', 'y']);
    const rename = await firm.chain.event(
      itemRenamedEvent(firm.item('s'), { prev: 'Smith', next: 'Jones' }, firm.ref('c')),
    );
    expect(touchedIds(firm.state, rename)).toEqual(['s']);
    const copy = await firm.chain.event(
      recordFolderCopied(
        ...by(),
        firm.ref('y'),
        { id: 'y2', name: '2024 (1)' },
        firm.ref('s'),
        firm.ref('s'),
        [
          ['y', 'y2'],
          ['b', 'b2'],
        ],
      ),
    );
    expect(touchedIds(firm.state, copy).sort()).toEqual(['b', 'b2', 'y', 'y2']);
    const index = await firm.chain.event(
      recordIndexUpdated(...by(), { id: 'ix1' }, firm.typed('a'), { name: 'N', value: 'V' }, 'W'),
    );
    expect(touchedIds(firm.state, index)).toEqual(['a']);
    const share = await firm.chain.event(
      recordInviteSent(...by(), { id: 'sl1' }, 'x@example.com', firm.typed('y')),
    );
    expect(touchedIds(firm.state, share)).toEqual(['y']);
  });

  it('stepSubtree drops what leaves, adds what the server says enters, and follows the folder itself', async () => {
    const firm = await smallFirm();
    const sub = projectSubtree(firm.state, 's');
    // 2024 moves out: it leaves with b.pdf.
    const out = await firm.move('y', 'i');
    stepSubtree(sub, 's', out);
    expect(Object.keys(sub.items).sort()).toEqual(['a', 's']);
    expect(sub.seq).toBe(out.seq);
    // in.pdf moves in from outside: the client holds nothing of it; the server sends it.
    const into = await firm.move('n', 's');
    stepSubtree(sub, 's', into, [firm.item('n')]);
    expect(sub.items.n).toEqual(firm.item('n'));
    // A copy of Smith next to it lands outside.
    const copy = await firm.apply(
      recordFolderCopied(
        ...by(),
        firm.ref('s'),
        { id: 's2', name: 'Smith (1)' },
        firm.ref('c'),
        firm.ref('c'),
        [
          ['s', 's2'],
          ['a', 'a2'],
          ['n', 'n2'],
        ],
      ),
    );
    stepSubtree(sub, 's', copy);
    expect(Object.keys(sub.items).sort()).toEqual(['a', 'n', 's']);
    // Smith itself moves: still its own subtree.
    const moved = await firm.move('s', ROOT_FOLDER_ID);
    stepSubtree(sub, 's', moved);
    expect(sub.items).toEqual(projectSubtree(firm.state, 's').items);
    expect(sub.items.s?.parentId).toBe('');
  });

  it('copyState is independent of its source and keeps its own child index', async () => {
    const firm = await smallFirm();
    const copy = copyState(firm.state);
    expect(copy).toEqual(firm.state);
    const event = await firm.move('a', 'i');
    applyEvent(copy, event);
    expect(copy.items.a?.parentId).toBe('i');
    await firm.move('a', 's');
    expect(copy.items.a?.parentId).toBe('i');
    expect(Object.keys(projectSubtree(copy, 'i').items).sort()).toEqual(['a', 'i', 'n']);
    expect(Object.keys(projectSubtree(firm.state, 'i').items).sort()).toEqual(['i', 'n']);
  });

  it('childrenAt lists folders first then by name, live ones unless archived is asked for', async () => {
    const firm = await smallFirm();
    await firm.createFile('z', 'Zeta.pdf', 's');
    await firm.createFolder('m', 'Alpha', 's');
    await firm.createFile('g', 'gone.pdf', 's');
    await firm.archive('g');
    await firm.destroy('g');
    await firm.archive('z');
    expect(childrenAt(firm.state, 's').map((i) => i.name)).toEqual(['2024', 'Alpha', 'a.pdf']);
    expect(childrenAt(firm.state, 's', { archived: true }).map((i) => i.name)).toEqual([
      '2024',
      'Alpha',
      'a.pdf',
      'Zeta.pdf',
    ]);
  });
});

describe('diffStates', () => {
  /** The changes of one event to the subtree of `folderId`. */
  async function changesOf(firm: Firm, folderId: string, recorded: () => Recorded) {
    const before = projectSubtree(firm.state, folderId);
    await firm.apply(recorded());
    return diffStates(before, projectSubtree(firm.state, folderId)).map((c) => [c.id, c.changes]);
  }

  it('names what an event changed, item by item', async () => {
    const firm = await smallFirm();
    expect(
      await changesOf(firm, 's', () =>
        itemRenamedEvent(firm.item('a'), { prev: 'a.pdf', next: 'A.pdf' }, firm.ref('s')),
      ),
    ).toEqual([['a', ['renamed']]]);
    expect(
      await changesOf(firm, 's', () =>
        itemMovedEvent(firm.typed('n'), firm.ref('i'), firm.ref('s')),
      ),
    ).toEqual([['n', ['moved_in']]]);
    expect(
      await changesOf(firm, 's', () =>
        itemMovedEvent(firm.typed('n'), firm.ref('s'), firm.ref('y')),
      ),
    ).toEqual([['n', ['moved']]]);
    expect(
      await changesOf(firm, 's', () =>
        itemMovedEvent(firm.typed('y'), firm.ref('s'), firm.ref('i')),
      ),
    ).toEqual([
      ['b', ['moved_out']],
      ['n', ['moved_out']],
      ['y', ['moved_out']],
    ]);
    expect(
      await changesOf(firm, 's', () =>
        recordItemCreated(...by(), file('d', 'd.pdf'), firm.ref('s'), V1),
      ),
    ).toEqual([['d', ['added']]]);
    expect(
      await changesOf(firm, 'c', () => itemStateEvent('archive', firm.typed('s'), firm.ref('c'))),
    ).toEqual([
      ['a', ['archived']],
      ['d', ['archived']],
      ['s', ['archived']],
    ]);
    expect(
      await changesOf(firm, 'c', () =>
        itemStateEvent('restore', { ...firm.typed('s'), name: 'Smith 2' }, firm.ref('c')),
      ),
    ).toEqual([
      ['a', ['restored']],
      ['d', ['restored']],
      ['s', ['renamed', 'restored']],
    ]);
    await firm.archive('d');
    expect(
      await changesOf(firm, 's', () => itemStateEvent('delete', firm.typed('d'), firm.ref('s'))),
    ).toEqual([['d', ['destroyed']]]);
    expect(
      await changesOf(firm, 's', () =>
        recordFavoriteChanged(...by(), firm.typed('a'), [{ user_id: ADA.id, enabled: true }]),
      ),
    ).toEqual([['a', ['favorite']]]);
    expect(
      await changesOf(firm, 'c', () =>
        folderColorEvent(firm.ref('s'), firm.ref('c'), ADA.id, 'red'),
      ),
    ).toEqual([['s', ['color']]]);
    expect(
      await changesOf(firm, 's', () =>
        recordIndexesApplied(...by(), firm.typed('a'), [
          { id: 'ix1', index_field_id: 'f', name: 'N', value: 'V' },
        ]),
      ),
    ).toEqual([['a', ['index']]]);
    expect(
      await changesOf(firm, 's', () =>
        recordContactLinked(...by(), { id: 'k1' }, 'Jane', firm.ref('s')),
      ),
    ).toEqual([['s', ['contact']]]);
    expect(
      await changesOf(firm, 's', () =>
        recordPermissionsAdded(...by(), firm.ref('s'), [
          { permissionable_id: BOB.id, permissionable_type: 'user' },
        ]),
      ),
    ).toEqual([['s', ['permission']]]);
    expect(
      await changesOf(firm, 's', () =>
        recordInviteSent(...by(), { id: 'sl1' }, 'x@example.com', firm.typed('a')),
      ),
    ).toEqual([['a', ['shared']]]);
    expect(
      await changesOf(firm, 's', () =>
        recordVersionEvent(...by(), 'add_version', firm.ref('a'), firm.ref('s'), { number: 2 }),
      ),
    ).toEqual([['a', ['version']]]);
    // Nothing changed: nothing listed.
    expect(await changesOf(firm, 's', () => itemReadEvent(firm.typed('a'), 'download'))).toEqual(
      [],
    );
  });

  it('a copy made in the folder is added; `ids` limits the diff', async () => {
    const firm = await smallFirm();
    const before = projectSubtree(firm.state, 'c');
    await firm.apply(
      recordFolderCopied(
        ...by(),
        firm.ref('y'),
        { id: 'y2', name: '2024 (1)' },
        firm.ref('s'),
        firm.ref('s'),
        [
          ['y', 'y2'],
          ['b', 'b2'],
        ],
      ),
    );
    const after = projectSubtree(firm.state, 'c');
    expect(diffStates(before, after).map((c) => [c.id, c.changes])).toEqual([
      ['b2', ['added']],
      ['y2', ['added']],
    ]);
    expect(diffStates(before, after, ['y2', 'n'])).toEqual([
      { id: 'y2', name: '2024 (1)', changes: ['added'] },
    ]);
  });
});

// ---- Property: the client's steps agree with the server's state ---------------------------

const COLORS = ['red', 'blue', 'green'];
const INDEX_NAMES = ['Tax year', 'Client', 'Status'];

/** The kinds of operation the model firm draws from (repeats weigh them). */
const OPS = [
  'folder',
  'folder',
  'folder',
  'file',
  'file',
  'file',
  'rename',
  'move',
  'move',
  'move',
  'copy',
  'archive',
  'archive',
  'restore',
  'restore',
  'delete',
  'favorite',
  'color',
  'indexApply',
  'indexChange',
  'indexChange',
  'contact',
  'permission',
  'share',
  'version',
  'read',
  'legacyUpdate',
  'migrated',
] as const;

interface Op {
  kind: number;
  a: number;
  b: number;
  c: number;
  user: number;
  flag: boolean;
}

const opArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.nat({ max: OPS.length - 1 }),
  a: fc.nat(),
  b: fc.nat(),
  c: fc.nat(),
  user: fc.nat({ max: USERS.length - 1 }),
  flag: fc.boolean(),
});

function pick<T>(list: readonly T[], n: number): T | undefined {
  return list.length === 0 ? undefined : list[n % list.length];
}

/**
 * Makes the events of a model firm as the services would: each operation reads the firm's full
 * replayed state to pick valid targets (live items, archived ones to restore or delete, folders
 * a move or copy may go to) and answers the event, or null when nothing fits. Ids: folders
 * d1…, files e1… (copies included), index rows x1…, contact links k1…, shares s1… / g1….
 */
type IdKind = 'd' | 'e' | 'x' | 'k' | 's' | 'g' | 'p';

class ModelFirm {
  private next: Record<IdKind, number> = { d: 0, e: 0, x: 0, k: 0, s: 0, g: 0, p: 0 };

  constructor(private readonly state: ReplayState) {}

  private id(kind: IdKind): string {
    this.next[kind] += 1;
    return `${kind}${this.next[kind]}`;
  }

  private items(test: (item: ReplayItem) => boolean): ReplayItem[] {
    return Object.values(this.state.items).filter(test);
  }

  private live(type?: 'folder' | 'file'): ReplayItem[] {
    return this.items(
      (i) => i.archivedRootId === null && i.destroyedAt === null && (!type || i.type === type),
    );
  }

  private ref(id: string): ParentRef {
    return id === ROOT_FOLDER_ID ? ROOT : { id, name: this.state.items[id]?.name ?? '?' };
  }

  private typed(item: ReplayItem): TypedItemRef {
    return { type: item.type, id: item.id, name: item.name };
  }

  /** Live folders and the root. */
  private targets(): ParentRef[] {
    return [ROOT, ...this.live('folder').map((f) => ({ id: f.id, name: f.name }))];
  }

  /** The live folders and files a copy of `top` takes: top first, folders, then files. */
  private copyPairs(top: ReplayItem): [string, string][] {
    const folders = [top];
    for (let i = 0; i < folders.length; i++) {
      for (const child of this.live('folder')) {
        if (child.parentId === folders[i]!.id) folders.push(child);
      }
    }
    const inTree = new Set(folders.map((f) => f.id));
    const files = this.live('file').filter((f) => inTree.has(f.parentId));
    return [
      ...folders.map((f): [string, string] => [f.id, this.id('d')]),
      ...files.map((f): [string, string] => [f.id, this.id('e')]),
    ];
  }

  /** The event of one operation, or null when nothing fits. */
  event(op: Op): Recorded | null {
    const user = USERS[op.user]!;
    const ctx = by(user);
    const kind = OPS[op.kind]!;
    switch (kind) {
      case 'folder':
      case 'file': {
        const parent = pick(this.targets(), op.a)!;
        const id = this.id(kind === 'folder' ? 'd' : 'e');
        const item = { type: kind, id, name: `${kind} ${id}` } as const;
        return kind === 'folder'
          ? recordItemCreated(...ctx, item, parent)
          : recordItemCreated(...ctx, item, parent, { number: 1, size: op.b % 5000, sha256: null });
      }
      case 'rename': {
        const item = pick(this.live(), op.a);
        if (!item) return null;
        return itemRenamedEvent(
          item,
          { prev: item.name, next: `${item.name}'` },
          this.ref(item.parentId),
        );
      }
      case 'move': {
        const item = pick(this.live(), op.a);
        if (!item) return null;
        const target = pick(
          this.targets().filter(
            (t) =>
              t.id !== item.parentId &&
              t.id !== item.id &&
              !(item.type === 'folder' && inSubtree(this.state, t.id, item.id)),
          ),
          op.b,
        );
        if (!target) return null;
        return itemMovedEvent(this.typed(item), this.ref(item.parentId), target);
      }
      case 'copy': {
        const source = pick(this.live('folder'), op.a);
        if (!source) return null;
        const target = pick(
          this.targets().filter((t) => !inSubtree(this.state, t.id, source.id)),
          op.b,
        )!;
        const pairs = this.copyPairs(source);
        return recordFolderCopied(
          ...ctx,
          this.ref(source.id),
          { id: pairs[0]![1], name: `${source.name} (1)` },
          this.ref(source.parentId),
          target,
          pairs,
        );
      }
      case 'archive': {
        const item = pick(this.live(), op.a);
        return item ? itemStateEvent('archive', this.typed(item), this.ref(item.parentId)) : null;
      }
      case 'restore': {
        const item = pick(
          this.items((i) => i.archivedRootId !== null && i.destroyedAt === null),
          op.a,
        );
        if (!item) return null;
        const parent = this.state.items[item.parentId];
        const back = !parent || (parent.archivedRootId === null && parent.destroyedAt === null);
        const name = op.flag ? `${item.name} (1)` : item.name;
        return itemStateEvent(
          'restore',
          { ...this.typed(item), name },
          this.ref(back ? item.parentId : ROOT_FOLDER_ID),
        );
      }
      case 'delete': {
        const item = pick(
          this.items((i) => i.archivedRootId !== null && i.destroyedAt === null),
          op.a,
        );
        return item ? itemStateEvent('delete', this.typed(item), this.ref(item.parentId)) : null;
      }
      case 'favorite': {
        const item = pick(this.live(), op.a);
        if (!item) return null;
        return recordFavoriteChanged(...ctx, this.typed(item), [
          { user_id: user.id, enabled: op.flag },
        ]);
      }
      case 'color': {
        const item = pick(this.live('folder'), op.a);
        if (!item) return null;
        return folderColorEvent(
          this.typed(item),
          this.ref(item.parentId),
          user.id,
          op.flag ? COLORS[op.c % 3]! : null,
        );
      }
      case 'indexApply': {
        const item = pick(this.live(), op.a);
        if (!item) return null;
        const values = Array.from({ length: 1 + (op.c % 2) }, (_, i) => ({
          id: this.id('x'),
          index_field_id: `field-${(op.b + i) % 3}`,
          name: INDEX_NAMES[(op.b + i) % 3]!,
          value: `v${op.c % 7}`,
        }));
        return recordIndexesApplied(...ctx, this.typed(item), values);
      }
      case 'indexChange': {
        const item = pick(
          this.items((i) => i.indexes.length > 0 && i.destroyedAt === null),
          op.a,
        );
        const row = item && pick(item.indexes, op.b);
        if (!item || !row) return null;
        const applied = { id: row.id ?? 'x-unknown' };
        const value = { name: row.name, value: row.value };
        const action = op.c % 4;
        if (action === 0) {
          return recordIndexUpdated(
            ...ctx,
            applied,
            this.typed(item),
            { ...value, value: `w${op.c % 5}` },
            row.value,
          );
        }
        if (action === 1) return recordIndexArchived(...ctx, applied, this.typed(item), value);
        if (action === 2) return recordIndexRestored(...ctx, applied, this.typed(item), value);
        return recordIndexDeleted(...ctx, applied, this.typed(item), value);
      }
      case 'contact': {
        const item = pick(this.live('folder'), op.a);
        if (!item) return null;
        const link = pick(item.contacts, op.b);
        if (op.flag || !link) {
          return recordContactLinked(
            ...ctx,
            { id: this.id('k') },
            `Contact ${op.c % 4}`,
            this.ref(item.id),
          );
        }
        return recordContactUnlinked(...ctx, link, link.name, this.ref(item.id));
      }
      case 'permission': {
        const item = pick(this.live('folder'), op.a);
        if (!item) return null;
        const who = { permissionable_id: user.id, permissionable_type: 'user', name: user.name };
        const mode = op.c % 4;
        if (mode === 1 && item.permissions.length > 0) {
          const p = pick(item.permissions, op.b)!;
          return recordPermissionRemoved(...ctx, { id: this.id('p') }, this.ref(item.id), {
            permissionable_id: p.id,
            permissionable_type: p.type,
          });
        }
        if (mode === 2 && item.permissions.length > 0) {
          return recordPermissionsRemovedMany(
            ...ctx,
            { folder: this.ref(item.id) },
            item.permissions.map((p) => ({ permissionable_id: p.id, permissionable_type: p.type })),
          );
        }
        const held = this.items((i) => i.permissions.some((p) => p.id === user.id));
        if (mode === 3 && held.length > 0) {
          return recordPermissionsRemovedMany(
            ...ctx,
            { userId: user.id, folders: held.map((f) => this.ref(f.id)) },
            [{ permissionable_id: user.id, permissionable_type: 'user' }],
          );
        }
        return recordPermissionsAdded(...ctx, this.ref(item.id), [who]);
      }
      case 'share': {
        const item = pick(this.live(), op.a);
        if (!item) return null;
        const link = pick(
          item.shares.filter((s) => s.kind === 'link'),
          op.b,
        );
        const guest = pick(
          item.shares.filter((s) => s.kind === 'guest'),
          op.b,
        );
        const email = `guest${op.c % 3}@example.com`;
        const mode = op.c % 5;
        if (mode === 1 && link) return recordLinkReissued(...ctx, link, this.typed(item));
        if (mode === 2 && link)
          return recordInviteCancelled(...ctx, link, link.email ?? email, this.typed(item));
        if (mode === 3)
          return recordInviteAccepted(...ctx, { id: this.id('g') }, email, this.typed(item));
        if (mode === 4 && guest)
          return recordShareRemoved(...ctx, guest, guest.email ?? email, this.typed(item));
        // A new link, or another address invited by one of the item's links.
        const inviting = op.flag && link ? link : { id: this.id('s') };
        return recordInviteSent(...ctx, inviting, email, this.typed(item));
      }
      case 'version': {
        const item = pick(this.live('file'), op.a);
        if (!item) return null;
        const number = (item.version?.number ?? 1) + 1;
        return recordVersionEvent(
          ...ctx,
          op.flag ? 'add_version' : 'restore_version',
          this.ref(item.id),
          this.ref(item.parentId),
          { number, size: op.b % 9000, sha256: null, ...(op.flag ? {} : { restored_from: 1 }) },
        );
      }
      case 'read': {
        const item = pick(
          this.items((i) => i.destroyedAt === null),
          op.a,
        );
        if (!item || op.c % 4 === 0) return recordUserLogin(...ctx);
        return itemReadEvent(
          this.typed(item),
          op.flag ? 'preview' : 'download',
          this.ref(item.parentId),
        );
      }
      case 'legacyUpdate': {
        const item = pick(this.live(), op.a);
        return item ? recordItemUpdated(...ctx, this.typed(item), this.ref(item.parentId)) : null;
      }
      case 'migrated': {
        const item = pick(this.live(), op.a);
        if (!item) return null;
        return {
          entityType: item.type,
          entityId: item.id,
          action: 'rename',
          attributes: { migrated: { description: 'Imported rename' }, name: 'Imported' },
        };
      }
    }
  }
}

/**
 * What the server sends as `enters`, derived from the full state's subtrees around the event:
 * the items new to the subtree, and, when the event's folder or file was not in the subtree (the
 * client cannot replay it), every subtree item it changed.
 */
function oracleEnters(before: ReplayState, after: ReplayState, event: ReplayEvent): ReplayItem[] {
  const itemEvent = event.entity_type === 'folder' || event.entity_type === 'file';
  const outside = itemEvent && before.items[event.entity_id] === undefined;
  return Object.values(after.items).filter((item) => {
    const prev = before.items[item.id];
    return !prev || (outside && JSON.stringify(prev) !== JSON.stringify(item));
  });
}

/** Expects two states to hold the same items (compared as canonical JSON, fast; a diff when not). */
function expectSameItems(actual: ReplayState, expected: ReplayState): void {
  if (canonicalJson(actual.items) !== canonicalJson(expected.items)) {
    expect(actual.items).toEqual(expected.items);
  }
}

describe('stepping a subtree along the timeline', () => {
  it('gives the full state’s subtree after every event (server enters and the oracle’s)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 8 }),
        fc.array(opArb, { minLength: 10, maxLength: 120, size: 'max' }),
        async (watched, ops) => {
          const folderId = watched === 0 ? ROOT_FOLDER_ID : `d${watched}`;
          const full = emptyReplayState();
          const model = new ModelFirm(full);
          const chain = new Chain();
          // The client's subtree stepped through the timeline only (the server's entries), and one
          // stepped through every event with the oracle's enters.
          const timeline = emptyReplayState();
          const everyEvent = emptyReplayState();
          // The same timeline stepped copy-on-write (the client's cache of states): each step
          // leaves the state before it exactly as it was.
          let shared = emptyReplayState();
          const watch = new SubtreeWatch(folderId, 'entries');
          for (const op of ops) {
            const recorded = model.event(op);
            if (!recorded) continue;
            const event = await chain.event(recorded, USERS[op.user]);
            const before = projectSubtree(full, folderId);
            watch.before(event, full);
            applyEvent(full, event);
            const step = watch.after(event, full);
            const after = projectSubtree(full, folderId);

            stepSubtree(everyEvent, folderId, event, oracleEnters(before, after, event));
            expectSameItems(everyEvent, after);
            expect(everyEvent.seq).toBe(after.seq);

            if (step.relevant) {
              stepSubtree(timeline, folderId, event, step.enters);
              expect(timeline.at).toBe(event.created_at);
              const untouched = canonicalJson(shared.items);
              const previous = shared;
              shared = stepSubtreeShared(previous, folderId, event, step.enters);
              expect(canonicalJson(previous.items)).toBe(untouched);
              expectSameItems(shared, after);
            } else {
              // Left out of the timeline: it changed nothing in the subtree.
              expectSameItems(after, before);
            }
            expectSameItems(timeline, after);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('the server’s enters are exactly what the client cannot derive, on a hand-made case', async () => {
    const firm = await smallFirm();
    const watch = new SubtreeWatch('s', 'entries');
    const step = async (recorded: Recorded) => {
      const event = await firm.chain.event(recorded);
      watch.before(event, firm.state);
      applyEvent(firm.state, event);
      return watch.after(event, firm.state);
    };
    // A move in from outside: the item is sent.
    const into = await step(itemMovedEvent(firm.typed('n'), firm.ref('i'), firm.ref('s')));
    expect(into.relevant).toBe(true);
    expect(into.enters.map((i) => i.id)).toEqual(['n']);
    // A rename inside: derivable, nothing sent.
    const rename = await step(
      itemRenamedEvent(firm.item('a'), { prev: 'a.pdf', next: 'A.pdf' }, firm.ref('s')),
    );
    expect(rename).toMatchObject({ relevant: true, enters: [] });
    // An archive of the folder above: every item it changed is sent.
    const above = await step(itemStateEvent('archive', firm.typed('c'), ROOT));
    expect(above.relevant).toBe(true);
    expect(above.enters.map((i) => i.id).sort()).toEqual(['a', 'b', 'n', 's', 'y']);
    expect(above.enters.every((i) => i.archivedRootId === 'c')).toBe(true);
    // A rename of the folder above: in the timeline (the path changed), nothing to send.
    const renamedAbove = await step(
      itemRenamedEvent(firm.item('c'), { prev: 'Clients', next: 'Customers' }, ROOT),
    );
    expect(renamedAbove).toMatchObject({ relevant: true, enters: [] });
    // Elsewhere: not in the timeline.
    const elsewhere = await step(
      recordItemCreated(...by(), file('o', 'other.pdf'), firm.ref('i'), V1),
    );
    expect(elsewhere.relevant).toBe(false);
  });
});
