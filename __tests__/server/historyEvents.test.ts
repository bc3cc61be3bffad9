/**
 * The typed recording functions (server/services/historyEvents.ts): each writes its event with the
 * spec's attribute shape, entity and item, inside the caller's transaction, and common/history.ts
 * renders it as the words the History page shows. SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { renderHistoryEvent } from '@common/history';
import type { HistoryAttributes } from '@common/history';
import { presentHistoryEvent } from '@server/presenters';
import type { Executor } from '@server/repositories/types';
import type { RequestContext } from '@server/services/context';
import { recordEvent } from '@server/services/history';
import * as events from '@server/services/historyEvents';
import * as recordsEvents from '@server/services/records/recordsEvents';
import * as requestEvents from '@server/services/documentRequests/events';
import { describeEachDatabase, startTestServer, type TestServer } from './helpers';
import { contextFor, seededAdmin } from './historyHelpers';

const root = { id: '', name: 'Root' };
const clients = { id: 'f-clients', name: 'Clients' };
const archive = { id: 'f-archive', name: 'Old clients' };
const smith = { type: 'folder' as const, id: 'f-smith', name: 'Smith family' };
const will = { type: 'file' as const, id: 'file-will', name: 'Will.pdf' };
const bob = { id: 'user-bob', name: 'Bob Brown' };
const firm = { id: 'db-harbour', name: 'Harbour' };

/** One case: how to record, and what must be stored and shown. */
interface Case {
  name: string;
  record: (trx: Executor, s: events.RecordServices, ctx: RequestContext) => Promise<string>;
  entity_type: string;
  action: string;
  entity_id: string | ((ctx: RequestContext) => string);
  item_id: string | null;
  attributes: HistoryAttributes;
  summary: string;
  detail?: string;
}

const CASES: Case[] = [
  {
    name: 'folder create',
    record: (t, s, c) => events.recordItemCreated(t, s, c, smith, clients),
    entity_type: 'folder',
    action: 'create',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: {
      name: 'Smith family',
      next: { name: 'Smith family' },
      parent: clients,
      folder_name: 'Smith family',
    },
    summary: 'Ada Admin added folder "Smith family"',
    detail: 'in "Clients"',
  },
  {
    name: 'file create',
    record: (t, s, c) => events.recordItemCreated(t, s, c, will, smith),
    entity_type: 'file',
    action: 'create',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      next: { name: 'Will.pdf' },
      parent: { id: smith.id, name: smith.name },
      file_name: 'Will.pdf',
    },
    summary: 'Ada Admin added file "Will.pdf"',
    detail: 'in "Smith family"',
  },
  {
    name: 'file create with its version 1 (replay facts)',
    record: (t, s, c) =>
      events.recordItemCreated(t, s, c, will, smith, {
        number: 1,
        size: 42,
        sha256: 'ab'.repeat(32),
      }),
    entity_type: 'file',
    action: 'create',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      next: { name: 'Will.pdf' },
      parent: { id: smith.id, name: smith.name },
      file_name: 'Will.pdf',
      replay: { version: { number: 1, size: 42, sha256: 'ab'.repeat(32) } },
    },
    summary: 'Ada Admin added file "Will.pdf"',
    detail: 'in "Smith family"',
  },
  {
    name: 'folder colour',
    record: (t, s, c) =>
      recordEvent(t, s, c, events.folderColorEvent(smith, clients, c.userId, 'dark_blue')),
    entity_type: 'folder',
    action: 'update',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: {
      name: 'Smith family',
      parent: clients,
      folder_name: 'Smith family',
      replay: { color: { user_id: 'ME', color: 'dark_blue' } },
    },
    summary: 'Ada Admin changed the colour of folder "Smith family" to Dark Blue',
    detail: 'in "Clients"',
  },
  {
    name: 'folder colour back to the default',
    record: (t, s, c) =>
      recordEvent(t, s, c, events.folderColorEvent(smith, clients, c.userId, null)),
    entity_type: 'folder',
    action: 'update',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: {
      name: 'Smith family',
      parent: clients,
      folder_name: 'Smith family',
      replay: { color: { user_id: 'ME', color: null } },
    },
    summary: 'Ada Admin changed the colour of folder "Smith family" to the default',
    detail: 'in "Clients"',
  },
  {
    name: 'file favourite',
    record: (t, s, c) =>
      events.recordFavoriteChanged(t, s, c, will, [{ user_id: c.userId, enabled: true }], smith),
    entity_type: 'file',
    action: 'update',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      parent: { id: smith.id, name: smith.name },
      changes: { favorites: [{ user_id: 'ME', enabled: true }] },
    },
    summary: 'Ada Admin favorited file "Will.pdf"',
    detail: 'in "Smith family"',
  },
  {
    name: 'folder update',
    record: (t, s, c) => events.recordItemUpdated(t, s, c, smith, clients),
    entity_type: 'folder',
    action: 'update',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: { name: 'Smith family', parent: clients },
    summary: 'Ada Admin updated folder "Smith family"',
    detail: 'in "Clients"',
  },
  {
    name: 'file rename',
    record: (t, s, c) =>
      events.recordItemRenamed(t, s, c, will, { prev: 'Will.pdf', next: 'Last will.pdf' }, smith),
    entity_type: 'file',
    action: 'rename',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Last will.pdf',
      prev: { name: 'Will.pdf' },
      next: { name: 'Last will.pdf' },
      parent: { id: smith.id, name: smith.name },
    },
    summary: 'Ada Admin renamed file "Will.pdf" to "Last will.pdf"',
    detail: 'in "Smith family"',
  },
  {
    name: 'folder rename',
    record: (t, s, c) =>
      events.recordItemRenamed(t, s, c, smith, { prev: 'Smith', next: 'Smith family' }, root),
    entity_type: 'folder',
    action: 'rename',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: {
      name: 'Smith family',
      prev: { name: 'Smith' },
      next: { name: 'Smith family' },
      parent: root,
    },
    summary: 'Ada Admin renamed folder "Smith" to "Smith family"',
    detail: 'in "Root"',
  },
  {
    name: 'folder move',
    record: (t, s, c) => events.recordItemMoved(t, s, c, smith, clients, archive),
    entity_type: 'folder',
    action: 'move',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: {
      name: 'Smith family',
      changes: { prevParent: clients, nextParent: archive },
      parent: archive,
    },
    summary: 'Ada Admin moved folder "Smith family"',
    detail: 'from "Clients" to "Old clients"',
  },
  {
    name: 'file move from the root',
    record: (t, s, c) => events.recordItemMoved(t, s, c, will, root, clients),
    entity_type: 'file',
    action: 'move',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      changes: { prevParent: root, nextParent: clients },
      parent: clients,
    },
    summary: 'Ada Admin moved file "Will.pdf"',
    detail: 'from "Root" to "Clients"',
  },
  ...(['archive', 'restore', 'delete'] as const).flatMap((action): Case[] => {
    const fn =
      action === 'archive'
        ? events.recordItemArchived
        : action === 'restore'
          ? events.recordItemRestored
          : events.recordItemDeleted;
    const verb = { archive: 'archived', restore: 'restored', delete: 'deleted' }[action];
    const tail = action === 'delete' ? ' permanently' : '';
    return [
      {
        name: `folder ${action}`,
        record: (t, s, c) => fn(t, s, c, smith, clients),
        entity_type: 'folder',
        action,
        entity_id: smith.id,
        item_id: smith.id,
        attributes: { name: 'Smith family', parent: clients, folder_name: 'Smith family' },
        summary: `Ada Admin ${verb} folder "Smith family"${tail}`,
        detail: 'in "Clients"',
      },
      {
        name: `file ${action}`,
        record: (t, s, c) => fn(t, s, c, will, smith),
        entity_type: 'file',
        action,
        entity_id: will.id,
        item_id: will.id,
        attributes: {
          name: 'Will.pdf',
          parent: { id: smith.id, name: smith.name },
          file_name: 'Will.pdf',
        },
        summary: `Ada Admin ${verb} file "Will.pdf"${tail}`,
        detail: 'in "Smith family"',
      },
    ];
  }),
  {
    name: 'file download',
    record: (t, s, c) => events.recordItemRead(t, s, c, will, 'download'),
    entity_type: 'file',
    action: 'download',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      file_name: 'Will.pdf',
      download: { preview: false, print: false },
    },
    summary: 'Ada Admin downloaded file "Will.pdf"',
  },
  {
    name: 'file print',
    record: (t, s, c) => events.recordItemRead(t, s, c, will, 'print'),
    entity_type: 'file',
    action: 'download',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      file_name: 'Will.pdf',
      download: { preview: false, print: true },
    },
    summary: 'Ada Admin printed file "Will.pdf"',
  },
  {
    name: 'file preview',
    record: (t, s, c) => events.recordItemRead(t, s, c, will, 'preview', smith),
    entity_type: 'file',
    action: 'preview',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      file_name: 'Will.pdf',
      parent: { id: smith.id, name: smith.name },
      download: { preview: true, print: false },
    },
    summary: 'Ada Admin previewed file "Will.pdf"',
    detail: 'in "Smith family"',
  },
  {
    name: 'folder download',
    record: (t, s, c) => events.recordItemRead(t, s, c, smith, 'download', clients),
    entity_type: 'folder',
    action: 'download',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: {
      name: 'Smith family',
      folder_name: 'Smith family',
      parent: clients,
      download: { preview: false, print: false },
    },
    summary: 'Ada Admin downloaded folder "Smith family"',
    detail: 'in "Clients"',
  },
  {
    name: 'folder copy',
    record: (t, s, c) =>
      events.recordFolderCopied(
        t,
        s,
        c,
        smith,
        { id: 'f-copy', name: 'Smith family (1)' },
        clients,
        archive,
        [[smith.id, 'f-copy']],
      ),
    entity_type: 'folder',
    action: 'copy',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: {
      name: 'Smith family',
      copy: { id: 'f-copy', name: 'Smith family (1)' },
      changes: { prevParent: clients, nextParent: archive },
      parent: archive,
      replay: { copies: [[smith.id, 'f-copy']] },
    },
    summary: 'Ada Admin copied folder "Smith family"',
    detail: 'from "Clients" to "Old clients"',
  },
  {
    name: 'folder favorited',
    record: (t, s, c) =>
      events.recordFavoriteChanged(t, s, c, smith, [{ user_id: c.userId, enabled: true }]),
    entity_type: 'folder',
    action: 'update',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: {
      name: 'Smith family',
      changes: { favorites: [{ user_id: 'ME', enabled: true }] },
    },
    summary: 'Ada Admin favorited folder "Smith family"',
  },
  {
    name: 'folder unfavorited',
    record: (t, s, c) =>
      events.recordFavoriteChanged(t, s, c, smith, [{ user_id: c.userId, enabled: false }]),
    entity_type: 'folder',
    action: 'update',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: {
      name: 'Smith family',
      changes: { favorites: [{ user_id: 'ME', enabled: false }] },
    },
    summary: 'Ada Admin unfavorited folder "Smith family"',
  },
  {
    name: 'file favorited',
    record: (t, s, c) =>
      events.recordFavoriteChanged(t, s, c, will, [{ user_id: c.userId, enabled: true }], smith),
    entity_type: 'file',
    action: 'update',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      parent: { id: smith.id, name: smith.name },
      changes: { favorites: [{ user_id: 'ME', enabled: true }] },
    },
    summary: 'Ada Admin favorited file "Will.pdf"',
    detail: 'in "Smith family"',
  },
  {
    name: 'folder_contact create',
    record: (t, s, c) => events.recordContactLinked(t, s, c, { id: 'fc-1' }, 'Ann Smith', smith),
    entity_type: 'folder_contact',
    action: 'create',
    entity_id: 'fc-1',
    item_id: smith.id,
    attributes: {
      contact_name: 'Ann Smith',
      changes: { folder: { id: smith.id, name: smith.name } },
      folder_id: smith.id,
      folder_name: smith.name,
    },
    summary: 'Ada Admin linked contact "Ann Smith" to folder "Smith family"',
  },
  {
    name: 'folder_contact delete',
    record: (t, s, c) => events.recordContactUnlinked(t, s, c, { id: 'fc-1' }, 'Ann Smith', smith),
    entity_type: 'folder_contact',
    action: 'delete',
    entity_id: 'fc-1',
    item_id: smith.id,
    attributes: {
      contact_name: 'Ann Smith',
      changes: { folder: { id: smith.id, name: smith.name } },
      folder_id: smith.id,
      folder_name: smith.name,
    },
    summary: 'Ada Admin unlinked contact "Ann Smith" from folder "Smith family"',
  },
  {
    name: 'folder_permission create_many',
    record: (t, s, c) =>
      events.recordPermissionsAdded(t, s, c, smith, [
        { permissionable_id: 'u-grace', permissionable_type: 'user', name: 'Grace Hopper' },
        { permissionable_id: 't-ops', permissionable_type: 'team' },
      ]),
    entity_type: 'folder_permission',
    action: 'create_many',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: {
      permissions: [
        { permissionable_id: 'u-grace', permissionable_type: 'user', name: 'Grace Hopper' },
        { permissionable_id: 't-ops', permissionable_type: 'team' },
      ],
      folder_id: smith.id,
      folder_name: smith.name,
      folders: [{ id: smith.id, name: smith.name }],
    },
    summary: 'Ada Admin added permission for "Grace Hopper", 1 team on folder "Smith family"',
  },
  {
    name: 'folder_permission delete',
    record: (t, s, c) =>
      events.recordPermissionRemoved(t, s, c, { id: 'fp-9' }, smith, {
        permissionable_id: 'u-grace',
        permissionable_type: 'user',
        name: 'Grace Hopper',
      }),
    entity_type: 'folder_permission',
    action: 'delete',
    entity_id: 'fp-9',
    item_id: smith.id,
    attributes: {
      permissions: [
        { permissionable_id: 'u-grace', permissionable_type: 'user', name: 'Grace Hopper' },
      ],
      folder_id: smith.id,
      folder_name: smith.name,
      folders: [{ id: smith.id, name: smith.name }],
      user_id: 'u-grace',
    },
    summary: 'Ada Admin removed permission for "Grace Hopper" on folder "Smith family"',
  },
  {
    name: 'folder_permission delete_many for a folder',
    record: (t, s, c) =>
      events.recordPermissionsRemovedMany(t, s, c, { folder: smith }, [
        { permissionable_id: 'u-grace', permissionable_type: 'user' },
        { permissionable_id: 'u-alan', permissionable_type: 'user' },
      ]),
    entity_type: 'folder_permission',
    action: 'delete_many',
    entity_id: smith.id,
    item_id: smith.id,
    attributes: {
      permissions: [
        { permissionable_id: 'u-grace', permissionable_type: 'user' },
        { permissionable_id: 'u-alan', permissionable_type: 'user' },
      ],
      folder_id: smith.id,
      folder_name: smith.name,
      folders: [{ id: smith.id, name: smith.name }],
    },
    summary: 'Ada Admin removed permission for 2 users on folder "Smith family"',
  },
  {
    name: 'folder_permission delete_many for a user',
    record: (t, s, c) =>
      events.recordPermissionsRemovedMany(
        t,
        s,
        c,
        { userId: 'u-grace', folders: [clients, archive] },
        [{ permissionable_id: 'u-grace', permissionable_type: 'user', name: 'Grace Hopper' }],
      ),
    entity_type: 'folder_permission',
    action: 'delete_many',
    entity_id: 'u-grace',
    item_id: null,
    attributes: {
      permissions: [
        { permissionable_id: 'u-grace', permissionable_type: 'user', name: 'Grace Hopper' },
      ],
      user_id: 'u-grace',
      folders: [clients, archive],
    },
    summary: 'Ada Admin removed permission for "Grace Hopper" on 2 folders',
    detail: '"Clients", "Old clients"',
  },
  {
    name: 'share_link create for a folder',
    record: (t, s, c) =>
      events.recordInviteSent(t, s, c, { id: 'sl-1' }, 'guest@example.com', smith),
    entity_type: 'share_link',
    action: 'create',
    entity_id: 'sl-1',
    item_id: smith.id,
    attributes: {
      email: 'guest@example.com',
      folder: { id: smith.id, name: smith.name },
      folder_id: smith.id,
      folder_name: smith.name,
    },
    summary: 'Ada Admin sent an invite to guest@example.com for folder "Smith family"',
  },
  {
    name: 'share_link delete for a file',
    record: (t, s, c) =>
      events.recordInviteCancelled(t, s, c, { id: 'sl-2' }, 'guest@example.com', will),
    entity_type: 'share_link',
    action: 'delete',
    entity_id: 'sl-2',
    item_id: will.id,
    attributes: {
      email: 'guest@example.com',
      file: { id: will.id, name: will.name },
      file_name: will.name,
    },
    summary: 'Ada Admin cancelled the invite to guest@example.com for file "Will.pdf"',
  },
  {
    name: 'external_share create',
    record: (t, s, c) =>
      events.recordInviteAccepted(t, s, c, { id: 'es-1' }, 'guest@example.com', smith),
    entity_type: 'external_share',
    action: 'create',
    entity_id: 'es-1',
    item_id: smith.id,
    attributes: {
      email: 'guest@example.com',
      folder: { id: smith.id, name: smith.name },
      folder_id: smith.id,
      folder_name: smith.name,
    },
    summary: 'Ada Admin accepted the invite to folder "Smith family"',
    detail: 'as guest@example.com',
  },
  {
    name: 'external_share delete',
    record: (t, s, c) =>
      events.recordShareRemoved(t, s, c, { id: 'es-1' }, 'guest@example.com', will),
    entity_type: 'external_share',
    action: 'delete',
    entity_id: 'es-1',
    item_id: will.id,
    attributes: {
      email: 'guest@example.com',
      file: { id: will.id, name: will.name },
      file_name: will.name,
    },
    summary: 'Ada Admin removed access for guest@example.com to file "Will.pdf"',
  },
  {
    name: 'applied_index create_many',
    record: (t, s, c) =>
      events.recordIndexesApplied(t, s, c, will, [
        { id: 'ai-1', index_field_id: 'if-1', name: 'Tax year', value: '2024' },
        { id: 'ai-2', index_field_id: 'if-2', name: 'Client', value: 'Smith' },
      ]),
    entity_type: 'applied_index',
    action: 'create_many',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      index_values: [
        { name: 'Tax year', value: '2024' },
        { name: 'Client', value: 'Smith' },
      ],
      entity_id: will.id,
      file_name: will.name,
      replay: {
        applied: [
          { id: 'ai-1', index_field_id: 'if-1' },
          { id: 'ai-2', index_field_id: 'if-2' },
        ],
      },
    },
    summary: 'Ada Admin applied indexes "Tax year: 2024", "Client: Smith" to file "Will.pdf"',
  },
  {
    name: 'applied_index update',
    record: (t, s, c) =>
      events.recordIndexUpdated(
        t,
        s,
        c,
        { id: 'ai-1' },
        will,
        { name: 'Tax year', value: '2025' },
        '2024',
      ),
    entity_type: 'applied_index',
    action: 'update',
    entity_id: 'ai-1',
    item_id: will.id,
    attributes: {
      name: 'Tax year',
      value: '2025',
      index_values: [{ name: 'Tax year', value: '2025' }],
      previous_value: '2024',
      entity_id: will.id,
      file_name: will.name,
    },
    summary: 'Ada Admin updated index "Tax year: 2025" on file "Will.pdf"',
  },
  ...(['restore', 'archive', 'delete'] as const).map((action): Case => {
    const fn =
      action === 'restore'
        ? events.recordIndexRestored
        : action === 'archive'
          ? events.recordIndexArchived
          : events.recordIndexDeleted;
    return {
      name: `applied_index ${action}`,
      record: (t, s, c) => fn(t, s, c, { id: 'ai-1' }, smith, { name: 'Client', value: 'Smith' }),
      entity_type: 'applied_index',
      action,
      entity_id: 'ai-1',
      item_id: smith.id,
      attributes: {
        name: 'Client',
        value: 'Smith',
        index_values: [{ name: 'Client', value: 'Smith' }],
        entity_id: smith.id,
        folder_name: smith.name,
      },
      summary: {
        restore: 'Ada Admin restored index "Client: Smith" on folder "Smith family"',
        archive: 'Ada Admin archived index "Client: Smith" on folder "Smith family"',
        delete: 'Ada Admin removed index "Client: Smith" from folder "Smith family" permanently',
      }[action],
    };
  }),
  {
    name: 'user login',
    record: (t, s, c) => events.recordUserLogin(t, s, c),
    entity_type: 'user',
    action: 'login',
    entity_id: (c) => c.userId,
    item_id: null,
    attributes: { name: 'Ada Admin' },
    summary: 'Ada Admin logged in',
  },
  {
    name: 'user logout',
    record: (t, s, c) => events.recordUserLogout(t, s, c),
    entity_type: 'user',
    action: 'logout',
    entity_id: (c) => c.userId,
    item_id: null,
    attributes: { name: 'Ada Admin' },
    summary: 'Ada Admin logged out',
  },
  {
    name: 'user download of several folders',
    record: (t, s, c) => events.recordUserDownload(t, s, c, { folders: [clients, archive] }),
    entity_type: 'user',
    action: 'download',
    entity_id: (c) => c.userId,
    item_id: null,
    attributes: { download: { preview: false, print: false }, folders: [clients, archive] },
    summary: 'Ada Admin downloaded 2 folders',
  },
  {
    name: 'user download: history export',
    record: (t, s, c) =>
      events.recordUserDownload(t, s, c, {
        export: {
          kind: 'history',
          file_name: 'history_2024-03-01_to_2024-03-31.csv',
          filters: { labels: ['Added'] },
        },
      }),
    entity_type: 'user',
    action: 'download',
    entity_id: (c) => c.userId,
    item_id: null,
    attributes: {
      download: { preview: false, print: false },
      export: {
        kind: 'history',
        file_name: 'history_2024-03-01_to_2024-03-31.csv',
        filters: { labels: ['Added'] },
      },
    },
    summary: 'Ada Admin exported the activity history',
    detail: 'history_2024-03-01_to_2024-03-31.csv',
  },
  // User administration and lockout.
  {
    name: 'user create',
    record: (t, s, c) => events.recordUserCreated(t, s, c, bob, 'member'),
    entity_type: 'user',
    action: 'create',
    entity_id: bob.id,
    item_id: null,
    attributes: { name: bob.name, user_id: bob.id, user_changes: { role: { next: 'member' } } },
    summary: 'Ada Admin added user "Bob Brown"',
    detail: 'as member',
  },
  {
    name: 'user update (profile)',
    record: (t, s, c) => events.recordUserUpdated(t, s, c, bob, ['lastName', 'email']),
    entity_type: 'user',
    action: 'update',
    entity_id: bob.id,
    item_id: null,
    attributes: {
      name: bob.name,
      user_id: bob.id,
      user_changes: { fields: ['lastName', 'email'] },
    },
    summary: 'Ada Admin updated user "Bob Brown"',
    detail: 'last name, email',
  },
  {
    name: 'user update (role)',
    record: (t, s, c) => events.recordUserRoleChanged(t, s, c, bob, 'member', 'read_only'),
    entity_type: 'user',
    action: 'update',
    entity_id: bob.id,
    item_id: null,
    attributes: {
      name: bob.name,
      user_id: bob.id,
      user_changes: { role: { prev: 'member', next: 'read_only' } },
    },
    summary: 'Ada Admin changed the role of user "Bob Brown" from member to read-only member',
  },
  ...(['disable', 'enable', 'unlock'] as const).map((action): Case => ({
    name: `user ${action}`,
    record: (t, s, c) =>
      ({
        disable: events.recordUserDisabled,
        enable: events.recordUserEnabled,
        unlock: events.recordUserUnlocked,
      })[action](t, s, c, bob),
    entity_type: 'user',
    action,
    entity_id: bob.id,
    item_id: null,
    attributes: { name: bob.name, user_id: bob.id },
    summary: `Ada Admin ${{ disable: 'disabled', enable: 'enabled', unlock: 'unlocked' }[action]} user "Bob Brown"`,
  })),
  {
    name: 'user lock',
    record: (t, s, c) => events.recordUserLocked(t, s, c, 5, null),
    entity_type: 'user',
    action: 'lock',
    entity_id: (c) => c.userId,
    item_id: null,
    attributes: { name: 'Ada Admin', user_id: 'ME', failed_logins: 5, locked_until: null },
    summary: 'Ada Admin was locked out after 5 failed sign-ins',
  },
  // Firm provisioning (services/firms.ts).
  {
    name: 'user delete (removed from the firm)',
    record: (t, s, c) => events.recordUserRemoved(t, s, c, bob),
    entity_type: 'user',
    action: 'delete',
    entity_id: bob.id,
    item_id: null,
    attributes: { name: bob.name, user_id: bob.id },
    summary: 'Ada Admin removed user "Bob Brown" from the firm',
  },
  {
    name: 'database create',
    record: (t, s, c) => events.recordFirmCreated(t, s, c, firm, 'Harbour office'),
    entity_type: 'database',
    action: 'create',
    entity_id: firm.id,
    item_id: null,
    attributes: { name: firm.name, firm_changes: { description: { next: 'Harbour office' } } },
    summary: 'Ada Admin created firm "Harbour"',
    detail: 'described as "Harbour office"',
  },
  {
    name: 'database rename',
    record: (t, s, c) => events.recordFirmRenamed(t, s, c, firm, 'Old Harbour'),
    entity_type: 'database',
    action: 'rename',
    entity_id: firm.id,
    item_id: null,
    attributes: { name: firm.name, prev: { name: 'Old Harbour' }, next: { name: firm.name } },
    summary: 'Ada Admin renamed firm "Old Harbour" to "Harbour"',
  },
  {
    name: 'database update (description)',
    record: (t, s, c) => events.recordFirmDescribed(t, s, c, firm, null, 'Quay office'),
    entity_type: 'database',
    action: 'update',
    entity_id: firm.id,
    item_id: null,
    attributes: {
      name: firm.name,
      firm_changes: { description: { prev: null, next: 'Quay office' } },
    },
    summary: 'Ada Admin changed the description of firm "Harbour"',
    detail: 'from none to "Quay office"',
  },
  {
    name: 'file download of an older version',
    record: (t, s, c) => events.recordItemRead(t, s, c, will, 'download', smith, 1),
    entity_type: 'file',
    action: 'download',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      file_name: 'Will.pdf',
      parent: { id: smith.id, name: smith.name },
      download: { preview: false, print: false },
      version: { number: 1 },
    },
    summary: 'Ada Admin downloaded version 1 of file "Will.pdf"',
    detail: 'in "Smith family"',
  },
  {
    name: 'file add_version',
    record: (t, s, c) =>
      events.recordVersionEvent(t, s, c, 'add_version', will, smith, {
        number: 2,
        size: 2048,
        sha256: 'cd'.repeat(32),
        content_type: 'application/pdf',
      }),
    entity_type: 'file',
    action: 'add_version',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      file_name: 'Will.pdf',
      parent: { id: smith.id, name: smith.name },
      version: { number: 2, size: 2048, sha256: 'cd'.repeat(32), content_type: 'application/pdf' },
    },
    summary: 'Ada Admin uploaded version 2 of file "Will.pdf"',
    detail: 'in "Smith family"',
  },
  {
    name: 'file restore_version',
    record: (t, s, c) =>
      events.recordVersionEvent(t, s, c, 'restore_version', will, smith, {
        number: 3,
        size: 1024,
        sha256: 'ab'.repeat(32),
        content_type: 'application/pdf',
        restored_from: 1,
      }),
    entity_type: 'file',
    action: 'restore_version',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      file_name: 'Will.pdf',
      parent: { id: smith.id, name: smith.name },
      version: {
        number: 3,
        size: 1024,
        sha256: 'ab'.repeat(32),
        content_type: 'application/pdf',
        restored_from: 1,
      },
    },
    summary: 'Ada Admin restored version 1 of file "Will.pdf" as version 3',
    detail: 'in "Smith family"',
  },
  {
    name: 'file delete_version',
    record: (t, s, c) =>
      events.recordVersionEvent(t, s, c, 'delete_version', will, root, {
        number: 1,
        size: 1024,
        sha256: null,
        content_type: 'application/pdf',
      }),
    entity_type: 'file',
    action: 'delete_version',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: 'Will.pdf',
      file_name: 'Will.pdf',
      parent: root,
      version: { number: 1, size: 1024, sha256: null, content_type: 'application/pdf' },
    },
    summary: 'Ada Admin deleted version 1 of file "Will.pdf" permanently',
    detail: 'in "Root"',
  },
  ...(['disable', 'enable'] as const).map((action): Case => ({
    name: `database ${action}`,
    record: (t, s, c) =>
      (action === 'disable' ? events.recordFirmDisabled : events.recordFirmEnabled)(t, s, c, firm),
    entity_type: 'database',
    action,
    entity_id: firm.id,
    item_id: null,
    attributes: { name: firm.name },
    summary: `Ada Admin ${action}d firm "Harbour"`,
  })),
];

// Records management (services/records/recordsEvents.ts).
const schedule = {
  id: 'sched-sec',
  name: 'SEC 17a-4',
  rule: '6 years from creation',
  selector: '',
  locked: false,
};
const hold = {
  id: 'hold-smith',
  database_id: 'db',
  name: 'Smith dispute',
  reason: 'Complaint received',
  matter: 'Smith v. Harbour',
  created_by: null,
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
  released_at: null,
  released_by: null,
};
const holdAttributes = {
  id: hold.id,
  name: hold.name,
  matter: hold.matter,
  reason: hold.reason,
};
CASES.push(
  {
    name: 'retention_schedule create',
    record: (t, s, c) => recordsEvents.recordScheduleEvent(t, s, c, 'create', schedule),
    entity_type: 'retention_schedule',
    action: 'create',
    entity_id: schedule.id,
    item_id: null,
    attributes: { name: schedule.name, schedule },
    summary: 'Ada Admin added retention schedule "SEC 17a-4"',
    detail: '6 years from creation',
  },
  {
    name: 'retention_schedule update (applied to a folder)',
    record: (t, s, c) => recordsEvents.recordScheduleUpdated(t, s, c, schedule, { added: smith }),
    entity_type: 'retention_schedule',
    action: 'update',
    entity_id: schedule.id,
    item_id: smith.id,
    attributes: { name: schedule.name, schedule, target_added: smith },
    summary: 'Ada Admin applied retention schedule "SEC 17a-4" to folder "Smith family"',
    detail: '6 years from creation',
  },
  {
    name: 'retention_schedule lock',
    record: (t, s, c) =>
      recordsEvents.recordScheduleEvent(t, s, c, 'lock', { ...schedule, locked: true }),
    entity_type: 'retention_schedule',
    action: 'lock',
    entity_id: schedule.id,
    item_id: null,
    attributes: { name: schedule.name, schedule: { ...schedule, locked: true } },
    summary: 'Ada Admin locked retention schedule "SEC 17a-4"',
    detail: '6 years from creation',
  },
  {
    name: 'retention_schedule delete',
    record: (t, s, c) => recordsEvents.recordScheduleEvent(t, s, c, 'delete', schedule),
    entity_type: 'retention_schedule',
    action: 'delete',
    entity_id: schedule.id,
    item_id: null,
    attributes: { name: schedule.name, schedule },
    summary: 'Ada Admin removed retention schedule "SEC 17a-4"',
    detail: '6 years from creation',
  },
  {
    name: 'legal_hold create',
    record: (t, s, c) => recordsEvents.recordHoldPlaced(t, s, c, hold, [smith]),
    entity_type: 'legal_hold',
    action: 'create',
    entity_id: hold.id,
    item_id: smith.id,
    attributes: { name: hold.name, hold: holdAttributes, targets: [smith] },
    summary: 'Ada Admin placed legal hold "Smith dispute" on folder "Smith family"',
    detail: 'matter "Smith v. Harbour"',
  },
  {
    name: 'legal_hold update',
    record: (t, s, c) =>
      recordsEvents.recordHoldUpdated(t, s, c, hold, {
        changes: { reason: { prev: 'Letter', next: 'Complaint received' } },
      }),
    entity_type: 'legal_hold',
    action: 'update',
    entity_id: hold.id,
    item_id: null,
    attributes: {
      name: hold.name,
      hold: holdAttributes,
      hold_changes: { reason: { prev: 'Letter', next: 'Complaint received' } },
    },
    summary: 'Ada Admin changed legal hold "Smith dispute"',
    detail: 'reason "Letter" → "Complaint received"',
  },
  {
    name: 'legal_hold release',
    record: (t, s, c) => recordsEvents.recordHoldReleased(t, s, c, hold),
    entity_type: 'legal_hold',
    action: 'release',
    entity_id: hold.id,
    item_id: null,
    attributes: { name: hold.name, hold: holdAttributes },
    summary: 'Ada Admin released legal hold "Smith dispute"',
    detail: 'matter "Smith v. Harbour"',
  },
  {
    name: 'file dispose (proof of deletion)',
    record: async (t, s, c) =>
      (
        await recordsEvents.recordDisposals(t, s, c, [
          {
            id: will.id,
            name: will.name,
            parent: { id: smith.id, name: smith.name },
            disposition: {
              sha256: 'ab'.repeat(32),
              size: 2048,
              path: 'Root / Clients / Smith family',
              schedule: { id: schedule.id, name: schedule.name },
              ended_on: '2030-01-31',
              approved_by: 'Ada Admin',
            },
          },
        ])
      )[0]!,
    entity_type: 'file',
    action: 'dispose',
    entity_id: will.id,
    item_id: will.id,
    attributes: {
      name: will.name,
      file_name: will.name,
      parent: { id: smith.id, name: smith.name },
      disposition: {
        sha256: 'ab'.repeat(32),
        size: 2048,
        path: 'Root / Clients / Smith family',
        schedule: { id: schedule.id, name: schedule.name },
        ended_on: '2030-01-31',
        approved_by: 'Ada Admin',
      },
    },
    summary: 'Ada Admin disposed of file "Will.pdf"',
    detail: 'retention schedule "SEC 17a-4" ended Jan 31, 2030, sha256 abababababab…',
  },
);

const request = {
  id: 'req-annual',
  title: 'Annual review',
  due_date: '2030-01-31',
  folder_id: smith.id,
};
const requestAttributes = {
  request: { id: request.id, title: request.title, due_date: request.due_date },
  folder: { id: smith.id, name: smith.name },
  folder_id: smith.id,
  folder_name: smith.name,
};
const form = { id: 'item-1040', name: '2025 Form 1040' };
const template = { id: 'tpl-onboarding', name: 'New client onboarding' };
/** A document_request case: recorded with `details`, stored with `extra` beside the request. */
function requestCase(
  action: Parameters<typeof requestEvents.recordRequestEvent>[3],
  details: Omit<requestEvents.RequestEventDetails, 'folderName'>,
  extra: HistoryAttributes,
  summary: string,
  detail: string,
): Case {
  return {
    name: `document_request ${action}`,
    record: (t, s, c) =>
      requestEvents.recordRequestEvent(t, s, c, action, request, {
        folderName: smith.name,
        ...details,
      }),
    entity_type: 'document_request',
    action,
    entity_id: request.id,
    item_id: smith.id,
    attributes: { ...requestAttributes, ...extra },
    summary,
    detail,
  };
}
CASES.push(
  requestCase(
    'create',
    { recipients: ['jane@example.com'] },
    { recipients: ['jane@example.com'] },
    'Ada Admin sent document request "Annual review" to jane@example.com',
    'in "Smith family", due Jan 31, 2030',
  ),
  requestCase(
    'upload',
    { item: form, file: { id: will.id, name: will.name } },
    { item: form, file: { id: will.id, name: will.name }, file_name: will.name },
    'Ada Admin uploaded file "Will.pdf" for "2025 Form 1040"',
    'document request "Annual review", in "Smith family"',
  ),
  requestCase(
    'accept',
    { item: form, file: { id: will.id, name: will.name } },
    { item: form, file: { id: will.id, name: will.name }, file_name: will.name },
    'Ada Admin accepted "2025 Form 1040" of document request "Annual review"',
    'file "Will.pdf", in "Smith family"',
  ),
  requestCase(
    'reject',
    { item: form, reason: 'Page 2 is missing' },
    { item: form, reason: 'Page 2 is missing' },
    'Ada Admin rejected "2025 Form 1040" of document request "Annual review"',
    'reason: Page 2 is missing, in "Smith family"',
  ),
  requestCase(
    'remind',
    { recipients: ['jane@example.com'], reminder: 'due' },
    { recipients: ['jane@example.com'], reminder: 'due' },
    'Ada Admin sent a reminder of document request "Annual review" to jane@example.com',
    'due today, in "Smith family"',
  ),
  requestCase(
    'cancel',
    {},
    {},
    'Ada Admin cancelled document request "Annual review"',
    'in "Smith family"',
  ),
  requestCase(
    'expire',
    {},
    {},
    'Ada Admin recorded that document request "Annual review" expired',
    'in "Smith family"',
  ),
  requestCase(
    'complete',
    {},
    {},
    'Ada Admin completed document request "Annual review"',
    'in "Smith family"',
  ),
  ...(
    [
      ['create', 'added'],
      ['update', 'changed'],
      ['delete', 'removed'],
    ] as const
  ).map(([action, verb]): Case => ({
    name: `request_template ${action}`,
    record: (t, s, c) => requestEvents.recordTemplateEvent(t, s, c, action, template),
    entity_type: 'request_template',
    action,
    entity_id: template.id,
    item_id: null,
    attributes: { name: template.name, template },
    summary: `Ada Admin ${verb} request template "New client onboarding"`,
  })),
);

describeEachDatabase('history recording functions', (kind) => {
  let server: TestServer;
  let ctx: RequestContext;
  beforeAll(async () => {
    server = await startTestServer(kind);
    ctx = contextFor({ ...(await seededAdmin(server.services.db)), userName: 'Ada Admin' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('covers every (entity_type, action) pair of the spec', async () => {
    const { HISTORY_EVENT_PAIRS } = await import('@common/history');
    const covered = new Set(CASES.map((c) => `${c.entity_type}:${c.action}`));
    expect(HISTORY_EVENT_PAIRS.filter((p) => !covered.has(`${p.entity_type}:${p.action}`))).toEqual(
      [],
    );
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const id = await server.services.db
      .transaction()
      .execute((trx) => c.record(trx, server.services, ctx));
    const row = await server.services.db
      .selectFrom('history_events')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const entityId = typeof c.entity_id === 'function' ? c.entity_id(ctx) : c.entity_id;
    const attributes = JSON.parse(
      JSON.stringify(c.attributes).replace(/"ME"/g, JSON.stringify(ctx.userId)),
    ) as HistoryAttributes;
    expect({
      entity_type: row.entity_type,
      action: row.action,
      entity_id: row.entity_id,
      item_id: row.item_id,
      user_id: row.user_id,
      user_name: row.user_name,
      ip: row.ip,
      user_agent: row.user_agent,
      attributes: JSON.parse(row.attributes) as unknown,
    }).toEqual({
      entity_type: c.entity_type,
      action: c.action,
      entity_id: entityId,
      item_id: c.item_id,
      user_id: ctx.userId,
      user_name: 'Ada Admin',
      ip: ctx.ip,
      user_agent: ctx.userAgent,
      attributes,
    });
    expect(row.created_at).toBe(new Date(server.clock.now).toISOString());
    const rendered = renderHistoryEvent(presentHistoryEvent(row), new Date(server.clock.now));
    expect(rendered.summary).toBe(c.summary);
    expect(rendered.detail).toBe(c.detail ? `${c.detail} · Just Now` : 'Just Now');
  });

  it('rolls back with the change: an event of a failed transaction is not kept', async () => {
    const before = await server.services.db
      .selectFrom('history_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await expect(
      server.services.db.transaction().execute(async (trx) => {
        await events.recordItemCreated(trx, server.services, ctx, smith, root);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const after = await server.services.db
      .selectFrom('history_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
