// Replay, property-based, on both databases: random sequences of operations through the API on a
// folder "Case" (and a folder "Outside" to move and copy items out and in), the subtree's listing
// read from the tables after each step; the replay at each step's event, stepped the client's
// way, must project to exactly that listing.
//
// Each run works in its own pair of top-level folders of the seeded firm, so runs share the firm's
// hash chain (and its growing history) but not their items. fast-check prints the seed and the
// shrunk operations of a failure; the step label in the failed expectation names the operation.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { FOLDER_COLORS } from '@common/constants';
import { newId } from '@server/ids';
import { insertContacts } from '@server/repositories/contacts';
import { addUser, describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { adminActor, call, makeFolder, type Actor } from './organiseHelpers';
import {
  captureListing,
  newestEventId,
  projectListing,
  replayView,
  stateOf,
  uploadFile,
  type ListedItem,
  type Listing,
} from './replayHelpers';

/** The operations a run draws from (see `perform`). */
const OPERATIONS = [
  'createFolder',
  'upload',
  'newVersion',
  'rename',
  'moveWithin',
  'moveIn',
  'moveOut',
  'copyFolder',
  'copyFile',
  'archive',
  'restore',
  'destroy',
  'favorite',
  'color',
  'applyIndex',
  'updateIndex',
  'archiveIndex',
  'restoreIndex',
  'deleteIndex',
  'linkContact',
  'unlinkContact',
  'addPermission',
  'removePermission',
  'clearPermissions',
  'share',
  'cancelInvitation',
  'revokeLink',
] as const;
type Operation = (typeof OPERATIONS)[number];

/** One drawn operation: what, and three numbers that pick its item, target and value. */
interface Op {
  op: Operation;
  a: number;
  b: number;
  c: number;
}

/** Making things is drawn more often, so the other operations find something to act on. */
const MAKERS: Operation[] = ['createFolder', 'upload', 'copyFolder', 'moveIn'];
const opArbitrary: fc.Arbitrary<Op> = fc.record({
  op: fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...MAKERS) },
    { weight: 5, arbitrary: fc.constantFrom(...OPERATIONS.filter((o) => !MAKERS.includes(o))) },
  ),
  a: fc.nat(),
  b: fc.nat(),
  c: fc.nat(),
});

const FOLDER_NAMES = ['Tax', 'Letters', 'Tax (1)'];
const FILE_NAMES = ['Statement.pdf', 'Notes.txt', 'Statement (1).pdf'];
const VALUES = ['Alpha', 'Beta', 'Gamma'];
const EMAILS = ['ann@example.com', 'bob@example.com', 'cy@example.com'];
const COLORS = FOLDER_COLORS.map((c) => c.key);

function pick<T>(list: readonly T[], n: number): T | undefined {
  return list.length === 0 ? undefined : list[n % list.length];
}

/** An item of a listing with its id, the lists sorted by id (creation order: UUIDv7). */
type Listed = ListedItem & { id: string };

function itemsOf(listing: Listing): Listed[] {
  return Object.entries(listing)
    .map(([id, item]) => ({ id, ...item }))
    .sort((x, y) => (x.id < y.id ? -1 : 1));
}

/** One captured step: the firm's newest event after it and the subtree's listing then. */
interface Step {
  label: string;
  eventId: string;
  listing: Listing;
}

describeEachDatabase('replay property', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let memberId: string;
  let teamId: string;
  const fieldIds: string[] = [];
  const contactIds: string[] = [];
  let runs = 0;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    memberId = (
      await addUser(server, {
        username: 'replay-member',
        password: 'replay member password',
        databaseId: admin.databaseId,
      })
    ).userId;
    const team = await call(server, admin, 'POST', '/api/rest/private/teams', {
      name: 'Replay team',
    });
    expect(team.statusCode).toBe(201);
    teamId = team.json<{ id: string }>().id;
    for (const name of ['Client number', 'Tax year']) {
      const field = await call(server, admin, 'POST', '/api/rest/index_fields', { name });
      expect(field.statusCode).toBe(201);
      fieldIds.push(field.json<{ id: string }>().id);
    }
    const now = new Date(server.clock.now).toISOString();
    for (const name of ['Ada Lovelace', 'Blaise Pascal']) {
      const id = newId();
      contactIds.push(id);
      await insertContacts(server.services.db, [
        {
          id,
          database_id: admin.databaseId,
          crm_id: `crm-${id}`,
          name,
          name_key: name.toLowerCase(),
          email: null,
          phones: '[]',
          created_at: now,
          updated_at: now,
        },
      ]);
    }
  });
  afterAll(async () => {
    await server.close();
  });

  const db = () => server.services.db;

  /** Applied index rows on some items ('live', 'archived' or all). */
  const appliedOn = async (ids: string[], state?: 'live' | 'archived') => {
    if (ids.length === 0) return [];
    let query = db()
      .selectFrom('applied_indexes')
      .select(['id'])
      .where('database_id', '=', admin.databaseId)
      .where('entity_id', 'in', ids);
    if (state === 'live') query = query.where('archived_at', 'is', null);
    if (state === 'archived') query = query.where('archived_at', 'is not', null);
    return (await query.orderBy('id').execute()).map((r) => r.id);
  };

  const contactLinksOn = async (folderIds: string[]) =>
    folderIds.length === 0
      ? []
      : (
          await db()
            .selectFrom('folder_contacts')
            .select('id')
            .where('database_id', '=', admin.databaseId)
            .where('folder_id', 'in', folderIds)
            .orderBy('id')
            .execute()
        ).map((r) => r.id);

  const permissionsOn = async (folderIds: string[]) =>
    folderIds.length === 0
      ? []
      : await db()
          .selectFrom('folder_permissions')
          .select(['id', 'folder_id'])
          .where('database_id', '=', admin.databaseId)
          .where('folder_id', 'in', folderIds)
          .orderBy('id')
          .execute();

  /** Share links not revoked on some items. */
  const linksOn = async (ids: string[]) =>
    ids.length === 0
      ? []
      : (
          await db()
            .selectFrom('share_links')
            .select('id')
            .where('database_id', '=', admin.databaseId)
            .where('entity_id', 'in', ids)
            .where('revoked_at', 'is', null)
            .orderBy('id')
            .execute()
        ).map((r) => r.id);

  const openInvitationsOn = async (ids: string[]) =>
    ids.length === 0
      ? []
      : await db()
          .selectFrom('share_invitations')
          .innerJoin('share_links', 'share_links.id', 'share_invitations.link_id')
          .select(['share_invitations.id', 'share_invitations.link_id'])
          .where('share_links.database_id', '=', admin.databaseId)
          .where('share_links.entity_id', 'in', ids)
          .where('share_invitations.state', '=', 'sent')
          .orderBy('share_invitations.id')
          .execute();

  const send = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> => call(server, admin, method, url, payload);

  /**
   * Performs one operation on the current listings of Case and Outside.
   * @returns the answer's status, or null when the operation does not apply (nothing to act on)
   */
  async function perform(
    op: Op,
    caseId: string,
    inCase: Listed[],
    outside: Listed[],
    outsideId: string,
  ): Promise<number | null> {
    const { a, b, c } = op;
    const live = inCase.filter((i) => !i.archived);
    const below = live.filter((i) => i.id !== caseId);
    const liveFolders = live.filter((i) => i.type === 'folder');
    const archived = inCase.filter((i) => i.archived);
    const outsideLive = outside.filter((i) => !i.archived);
    const outsideBelow = outsideLive.filter((i) => i.id !== outsideId);
    const outsideFolders = outsideLive.filter((i) => i.type === 'folder');
    const caseIds = inCase.map((i) => i.id);
    const caseFolderIds = inCase.filter((i) => i.type === 'folder').map((i) => i.id);
    const path = (item: Listed) => `/api/rest/${item.type}s/${item.id}`;
    switch (op.op) {
      case 'createFolder': {
        const parent = pick(liveFolders, a)!;
        return (
          await send('POST', '/api/rest/folders', {
            name: pick(FOLDER_NAMES, b),
            parent_id: parent.id,
          })
        ).statusCode;
      }
      case 'upload': {
        const parent = pick(liveFolders, a)!;
        await uploadFile(server, admin, parent.id, pick(FILE_NAMES, b)!, 'x'.repeat(1 + (c % 9)));
        return 201;
      }
      case 'newVersion': {
        const file = pick(
          below.filter((i) => i.type === 'file'),
          a,
        );
        if (!file) return null;
        await uploadFile(server, admin, file.parentId, file.name, 'v'.repeat(10 + (b % 9)), {
          version_of: file.id,
        });
        return 201;
      }
      case 'rename': {
        const item = pick(below, a);
        if (!item) return null;
        const name = pick(item.type === 'folder' ? FOLDER_NAMES : FILE_NAMES, b);
        return (await send('PATCH', path(item), { name })).statusCode;
      }
      case 'moveWithin':
      case 'moveIn':
      case 'moveOut': {
        const from = op.op === 'moveIn' ? outsideBelow : below;
        const to = op.op === 'moveOut' ? outsideFolders : liveFolders;
        const item = pick(from, a);
        if (!item) return null;
        return (await send('PATCH', path(item), { parent_id: pick(to, b)!.id })).statusCode;
      }
      case 'copyFolder':
      case 'copyFile': {
        const type = op.op === 'copyFolder' ? 'folder' : 'file';
        const source = pick(
          [...below, ...outsideBelow].filter((i) => i.type === type),
          a,
        );
        if (!source) return null;
        const target = pick([...liveFolders, ...outsideFolders], b)!;
        // A copy from Outside to Outside changes nothing here: not worth a step.
        if (!caseIds.includes(source.id) && !caseIds.includes(target.id)) return null;
        return (await send('POST', `${path(source)}/copy`, { parent_id: target.id })).statusCode;
      }
      case 'archive': {
        const item = pick(below, a);
        if (!item) return null;
        return (await send('POST', `${path(item)}/archive`)).statusCode;
      }
      case 'restore': {
        const item = pick(archived, a);
        if (!item) return null;
        return (await send('POST', `${path(item)}/restore`)).statusCode;
      }
      case 'destroy': {
        const item = pick(archived, a);
        if (!item) return null;
        return (
          await send('POST', '/api/rest/bulk/destroy', {
            items: [{ type: item.type, id: item.id }],
          })
        ).statusCode;
      }
      case 'favorite': {
        const item = pick(inCase, a)!;
        return (await send('PATCH', `${path(item)}/favorite`, { enabled: b % 3 !== 0 })).statusCode;
      }
      case 'color': {
        const folder = pick(
          inCase.filter((i) => i.type === 'folder'),
          a,
        )!;
        return (
          await send('PATCH', '/api/rest/colors', { folder_id: folder.id, color: pick(COLORS, b) })
        ).statusCode;
      }
      case 'applyIndex': {
        const item = pick(live, a)!;
        return (
          await send('POST', '/api/rest/applied_indexes', {
            entity_id: item.id,
            indexes: [{ indexFieldId: pick(fieldIds, b), value: pick(VALUES, c) }],
          })
        ).statusCode;
      }
      case 'updateIndex': {
        const id = pick(await appliedOn(caseIds, 'live'), a);
        if (!id) return null;
        return (await send('PATCH', `/api/rest/applied_indexes/${id}`, { value: pick(VALUES, b) }))
          .statusCode;
      }
      case 'archiveIndex':
      case 'restoreIndex': {
        const archiving = op.op === 'archiveIndex';
        const id = pick(await appliedOn(caseIds, archiving ? 'live' : 'archived'), a);
        if (!id) return null;
        const action = archiving ? 'archive' : 'restore';
        return (await send('POST', `/api/rest/applied_indexes/${id}/${action}`)).statusCode;
      }
      case 'deleteIndex': {
        const id = pick(await appliedOn(caseIds), a);
        if (!id) return null;
        return (await send('DELETE', `/api/rest/applied_indexes/${id}`)).statusCode;
      }
      case 'linkContact': {
        const folder = pick(liveFolders, a)!;
        return (
          await send('POST', '/api/rest/folder_contacts', {
            folder_id: folder.id,
            contact_id: pick(contactIds, b),
          })
        ).statusCode;
      }
      case 'unlinkContact': {
        const id = pick(await contactLinksOn(caseFolderIds), a);
        if (!id) return null;
        return (await send('DELETE', `/api/rest/folder_contacts/${id}`)).statusCode;
      }
      case 'addPermission': {
        const folder = pick(
          inCase.filter((i) => i.type === 'folder'),
          a,
        )!;
        // The administrator is always among those allowed (administrators see every folder
        // anyway); sometimes a member or a team beside them.
        const permissionables = [{ permissionable_id: admin.userId, permissionable_type: 'user' }];
        if (b % 2 === 1)
          permissionables.push({ permissionable_id: memberId, permissionable_type: 'user' });
        if (c % 2 === 1)
          permissionables.push({ permissionable_id: teamId, permissionable_type: 'team' });
        return (
          await send('POST', '/api/rest/folder_permissions', {
            folder_id: folder.id,
            permissionables,
          })
        ).statusCode;
      }
      case 'removePermission': {
        const permission = pick(await permissionsOn(caseFolderIds), a);
        if (!permission) return null;
        return (await send('DELETE', `/api/rest/folder_permissions/${permission.id}`)).statusCode;
      }
      case 'clearPermissions': {
        const permission = pick(await permissionsOn(caseFolderIds), a);
        if (!permission) return null;
        return (await send('DELETE', `/api/rest/folders/${permission.folder_id}/permissions`))
          .statusCode;
      }
      case 'share': {
        const item = pick(live, a)!;
        const link = pick(await linksOn([item.id]), b);
        if (link && c % 2 === 1) {
          return (
            await send('POST', `/api/rest/shared/links/${link}/invite`, {
              emails: [pick(EMAILS, b)],
            })
          ).statusCode;
        }
        const emails = c % 4 === 2 ? [pick(EMAILS, b), pick(EMAILS, b + 1)] : [pick(EMAILS, b)];
        return (
          await send('POST', '/api/rest/shared/links', {
            entity_type: item.type,
            entity_id: item.id,
            emails,
          })
        ).statusCode;
      }
      case 'cancelInvitation': {
        const invitation = pick(await openInvitationsOn(caseIds), a);
        if (!invitation) return null;
        return (
          await send(
            'DELETE',
            `/api/rest/shared/links/${invitation.link_id}/invitations/${invitation.id}`,
          )
        ).statusCode;
      }
      case 'revokeLink': {
        const link = pick(await linksOn(caseIds), a);
        if (!link) return null;
        return (await send('DELETE', `/api/rest/shared/links/${link}`)).statusCode;
      }
    }
  }

  /** One run: the fixed start, the drawn operations, then the replay of every step. */
  async function run(ops: Op[]): Promise<void> {
    runs += 1;
    const caseFolder = await makeFolder(server, admin, `Case ${runs}`);
    const outside = await makeFolder(server, admin, `Outside ${runs}`);
    const steps: Step[] = [];
    let caseListing: Listing = {};
    let outsideListing: Listing = {};
    const capture = async (label: string) => {
      caseListing = await captureListing(server, admin.databaseId, caseFolder.id, admin.userId);
      outsideListing = await captureListing(server, admin.databaseId, outside.id, admin.userId);
      steps.push({
        label,
        eventId: await newestEventId(server, admin.databaseId),
        listing: caseListing,
      });
    };
    await capture('start');
    // Something for every operation to act on, each a step of its own.
    const tax = await makeFolder(server, admin, 'Tax', caseFolder.id);
    await capture('start: folder Tax');
    const statement = await uploadFile(server, admin, caseFolder.id, 'Statement.pdf');
    await capture('start: file Statement.pdf');
    const old = await uploadFile(server, admin, tax.id, 'Old.txt');
    await capture('start: file Tax/Old.txt');
    const setUp: [string, 'POST' | 'PATCH', string, unknown, number][] = [
      ['archive Old.txt', 'POST', `/api/rest/files/${old.id}/archive`, undefined, 200],
      [
        'index values',
        'POST',
        '/api/rest/applied_indexes',
        {
          entity_ids: [statement.id, tax.id],
          indexes: [
            { indexFieldId: fieldIds[0], value: VALUES[0] },
            { indexFieldId: fieldIds[1], value: VALUES[1] },
          ],
        },
        201,
      ],
      [
        'contact',
        'POST',
        '/api/rest/folder_contacts',
        { folder_id: tax.id, contact_id: contactIds[0] },
        201,
      ],
      [
        'permission',
        'POST',
        '/api/rest/folder_permissions',
        {
          folder_id: tax.id,
          permissionables: [{ permissionable_id: admin.userId, permissionable_type: 'user' }],
        },
        201,
      ],
      [
        'share',
        'POST',
        '/api/rest/shared/links',
        { entity_type: 'file', entity_id: statement.id, emails: [EMAILS[0]] },
        201,
      ],
    ];
    for (const [label, method, url, payload, status] of setUp) {
      expect({ label, status: (await send(method, url, payload)).statusCode }).toEqual({
        label,
        status,
      });
      await capture(`start: ${label}`);
    }
    const archivedIndex = (await appliedOn([tax.id], 'live'))[0]!;
    expect(
      (await send('POST', `/api/rest/applied_indexes/${archivedIndex}/archive`)).statusCode,
    ).toBe(200);
    await capture('start: archive an index value');
    const inner = await makeFolder(server, admin, 'Letters', outside.id);
    await uploadFile(server, admin, inner.id, 'Notes.txt');
    await capture('start: Outside/Letters/Notes.txt');

    for (const [i, op] of ops.entries()) {
      const before = await newestEventId(server, admin.databaseId);
      const status = await perform(
        op,
        caseFolder.id,
        itemsOf(caseListing),
        itemsOf(outsideListing),
        outside.id,
      );
      if (status === null) continue;
      const label = `${i}: ${op.op}(${op.a}, ${op.b}, ${op.c}) → ${status}`;
      expect({ label, status: status < 500 }).toEqual({ label, status: true });
      if (status >= 400) {
        // A refusal changes nothing, and records nothing.
        expect({ label, newest: await newestEventId(server, admin.databaseId) }).toEqual({
          label,
          newest: before,
        });
      }
      await capture(label);
    }

    for (const step of steps) {
      const view = await replayView(server, admin, caseFolder.id, { event: step.eventId });
      expect({ step: step.label, items: projectListing(stateOf(view), admin.userId) }).toEqual({
        step: step.label,
        items: step.listing,
      });
    }
  }

  it('replays every step of random operations to exactly the listing captured then', async () => {
    // The time limit bounds the shrinking of a failure (each run replays its steps anew); a pass
    // cut short by it runs fewer than numRuns, which the count below refuses.
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 4, maxLength: 12, size: 'max' }), run),
      { numRuns: kind === 'sqlite' ? 30 : 12, interruptAfterTimeLimit: 150_000 },
    );
    expect(runs).toBeGreaterThanOrEqual(kind === 'sqlite' ? 30 : 12);
  }, 240_000);
});
