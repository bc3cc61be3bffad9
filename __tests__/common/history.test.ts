import { describe, expect, it } from '@jest/globals';
import {
  DATE_PRESETS,
  HISTORY_EVENT_PAIRS,
  HISTORY_FILTER_LABELS,
  datePresetRange,
  eventsForLabels,
  labelFor,
  renderHistoryEvent,
} from '@common/history';
import type { DatePreset, HistoryIcon } from '@common/history';
import type {
  HistoryAction,
  HistoryAttributes,
  HistoryEntityType,
  HistoryEventDto,
} from '@common/history';

const NOW = new Date(2024, 5, 15, 12, 0);
const HOUR = 3_600_000;

function event(
  entity_type: HistoryEntityType,
  action: HistoryAction,
  attributes: HistoryAttributes = {},
  overrides: Partial<HistoryEventDto> = {},
): HistoryEventDto {
  return {
    id: 'ev-1',
    entity_type,
    entity_id: 'entity-1',
    action,
    user_id: 'u-ada',
    user_name: 'Ada Lovelace',
    attributes,
    created_at: new Date(NOW.getTime() - HOUR).toISOString(),
    ...overrides,
  };
}

const parent = { id: 'f-clients', name: 'Clients' };
const move = {
  changes: {
    prevParent: { id: 'f-a', name: 'Inbox' },
    nextParent: { id: 'f-b', name: 'Clients' },
  },
};

type Case = [HistoryEntityType, HistoryAction, HistoryAttributes, string, string, HistoryIcon];

/** Every (entity_type, action) pair with realistic attributes: summary, detail, icon. */
const CASES: Case[] = [
  [
    'folder',
    'create',
    { next: { name: 'Reports' }, parent },
    'Ada Lovelace added folder "Reports"',
    'in "Clients" · Just Now',
    'add',
  ],
  [
    'folder',
    'update',
    { next: { name: 'Reports' }, parent },
    'Ada Lovelace updated folder "Reports"',
    'in "Clients" · Just Now',
    'edit',
  ],
  [
    'folder',
    'rename',
    { prev: { name: 'Reports' }, next: { name: 'Reports 2024' }, parent },
    'Ada Lovelace renamed folder "Reports" to "Reports 2024"',
    'in "Clients" · Just Now',
    'edit',
  ],
  [
    'folder',
    'move',
    { name: 'Reports', ...move },
    'Ada Lovelace moved folder "Reports"',
    'from "Inbox" to "Clients" · Just Now',
    'move',
  ],
  [
    'folder',
    'restore',
    { name: 'Reports', parent },
    'Ada Lovelace restored folder "Reports"',
    'in "Clients" · Just Now',
    'restore',
  ],
  [
    'folder',
    'archive',
    { prev: { name: 'Reports' }, parent },
    'Ada Lovelace archived folder "Reports"',
    'in "Clients" · Just Now',
    'archive',
  ],
  [
    'folder',
    'delete',
    { prev: { name: 'Reports' } },
    'Ada Lovelace deleted folder "Reports" permanently',
    'Just Now',
    'delete',
  ],
  [
    'folder',
    'download',
    { name: 'Reports', download: { preview: false, print: false } },
    'Ada Lovelace downloaded folder "Reports"',
    'Just Now',
    'download',
  ],
  [
    'folder',
    'copy',
    { next: { name: 'Reports (1)' }, ...move },
    'Ada Lovelace copied folder "Reports (1)"',
    'from "Inbox" to "Clients" · Just Now',
    'copy',
  ],
  [
    'file',
    'create',
    { next: { name: 'a.pdf' }, parent },
    'Ada Lovelace added file "a.pdf"',
    'in "Clients" · Just Now',
    'add',
  ],
  [
    'file',
    'update',
    { next: { name: 'a.pdf' } },
    'Ada Lovelace updated file "a.pdf"',
    'Just Now',
    'edit',
  ],
  [
    'file',
    'rename',
    { prev: { name: 'a.pdf' }, next: { name: 'b.pdf' } },
    'Ada Lovelace renamed file "a.pdf" to "b.pdf"',
    'Just Now',
    'edit',
  ],
  [
    'file',
    'move',
    { next: { name: 'a.pdf' }, ...move },
    'Ada Lovelace moved file "a.pdf"',
    'from "Inbox" to "Clients" · Just Now',
    'move',
  ],
  [
    'file',
    'restore',
    { next: { name: 'a.pdf' }, parent },
    'Ada Lovelace restored file "a.pdf"',
    'in "Clients" · Just Now',
    'restore',
  ],
  [
    'file',
    'archive',
    { prev: { name: 'a.pdf' }, parent },
    'Ada Lovelace archived file "a.pdf"',
    'in "Clients" · Just Now',
    'archive',
  ],
  [
    'file',
    'delete',
    { prev: { name: 'a.pdf' }, parent },
    'Ada Lovelace deleted file "a.pdf" permanently',
    'in "Clients" · Just Now',
    'delete',
  ],
  [
    'file',
    'download',
    { name: 'a.pdf', download: { preview: false, print: false } },
    'Ada Lovelace downloaded file "a.pdf"',
    'Just Now',
    'download',
  ],
  [
    'file',
    'preview',
    { name: 'a.pdf', parent },
    'Ada Lovelace previewed file "a.pdf"',
    'in "Clients" · Just Now',
    'preview',
  ],
  [
    'folder_contact',
    'create',
    { contact_name: 'John Smith', changes: { folder: { id: 'f1', name: 'Smith Family' } } },
    'Ada Lovelace linked contact "John Smith" to folder "Smith Family"',
    'Just Now',
    'link',
  ],
  [
    'folder_contact',
    'delete',
    { contact_name: 'John Smith', changes: { folder: { name: 'Smith Family' } } },
    'Ada Lovelace unlinked contact "John Smith" from folder "Smith Family"',
    'Just Now',
    'unlink',
  ],
  [
    'folder_permission',
    'create_many',
    {
      folder_name: 'Clients',
      permissions: [
        { permissionable_id: 'u2', permissionable_type: 'user' },
        { permissionable_id: 'u3', permissionable_type: 'user' },
        { permissionable_id: 't1', permissionable_type: 'team' },
      ],
    },
    'Ada Lovelace added permission for 2 users, 1 team on folder "Clients"',
    'Just Now',
    'permission',
  ],
  [
    'folder_permission',
    'delete',
    {
      folder_name: 'Clients',
      permissions: [{ permissionable_id: 'u2', permissionable_type: 'user' }],
    },
    'Ada Lovelace removed permission for 1 user on folder "Clients"',
    'Just Now',
    'permission',
  ],
  [
    'folder_permission',
    'delete_many',
    {
      user_id: 'u2',
      folders: [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B' },
        { id: 'c', name: 'C' },
        { id: 'd', name: 'D' },
      ],
    },
    'Ada Lovelace removed permission on 4 folders',
    '"A", "B", "C" and 1 more · Just Now',
    'permission',
  ],
  [
    'share_link',
    'create',
    { email: 'guest@example.com', folder: { name: 'Clients' }, folder_id: 'f1' },
    'Ada Lovelace sent an invite to guest@example.com for folder "Clients"',
    'Just Now',
    'share',
  ],
  [
    'share_link',
    'delete',
    { email: 'guest@example.com', file_name: 'a.pdf' },
    'Ada Lovelace cancelled the invite to guest@example.com for file "a.pdf"',
    'Just Now',
    'unlink',
  ],
  [
    'external_share',
    'create',
    { email: 'guest@example.com', folder_name: 'Clients' },
    'Ada Lovelace accepted the invite to folder "Clients"',
    'as guest@example.com · Just Now',
    'share',
  ],
  [
    'external_share',
    'delete',
    { email: 'guest@example.com', file: { name: 'a.pdf' } },
    'Ada Lovelace removed access for guest@example.com to file "a.pdf"',
    'Just Now',
    'unlink',
  ],
  [
    'applied_index',
    'create_many',
    {
      file_name: 'a.pdf',
      index_values: [
        { name: 'Client', value: 'Smith' },
        { name: 'Year', value: '2024' },
      ],
    },
    'Ada Lovelace applied indexes "Client: Smith", "Year: 2024" to file "a.pdf"',
    'Just Now',
    'index',
  ],
  [
    'applied_index',
    'update',
    { name: 'Year', value: '2025', file_name: 'a.pdf' },
    'Ada Lovelace updated index "Year: 2025" on file "a.pdf"',
    'Just Now',
    'index',
  ],
  [
    'applied_index',
    'restore',
    { name: 'Year', value: '2024', folder_name: 'Clients' },
    'Ada Lovelace restored index "Year: 2024" on folder "Clients"',
    'Just Now',
    'restore',
  ],
  [
    'applied_index',
    'archive',
    { index_values: [{ name: 'Year', value: '2024' }] },
    'Ada Lovelace archived index "Year: 2024"',
    'Just Now',
    'archive',
  ],
  [
    'applied_index',
    'delete',
    { name: 'Year', value: '2024', file_name: 'a.pdf' },
    'Ada Lovelace removed index "Year: 2024" from file "a.pdf" permanently',
    'Just Now',
    'delete',
  ],
  ['user', 'login', {}, 'Ada Lovelace logged in', 'Just Now', 'login'],
  ['user', 'logout', {}, 'Ada Lovelace logged out', 'Just Now', 'logout'],
  // User administration and lockout.
  [
    'user',
    'create',
    { name: 'Bob Smith', user_id: 'u-bob', user_changes: { role: { next: 'read_only' } } },
    'Ada Lovelace added user "Bob Smith"',
    'as read-only member · Just Now',
    'add',
  ],
  [
    'user',
    'update',
    { name: 'Bob Smith', user_changes: { role: { prev: 'member', next: 'admin' } } },
    'Ada Lovelace changed the role of user "Bob Smith" from member to administrator',
    'Just Now',
    'edit',
  ],
  [
    'user',
    'disable',
    { name: 'Bob Smith' },
    'Ada Lovelace disabled user "Bob Smith"',
    'Just Now',
    'archive',
  ],
  [
    'user',
    'enable',
    { name: 'Bob Smith' },
    'Ada Lovelace enabled user "Bob Smith"',
    'Just Now',
    'restore',
  ],
  [
    'user',
    'unlock',
    { name: 'Bob Smith' },
    'Ada Lovelace unlocked user "Bob Smith"',
    'Just Now',
    'login',
  ],
  [
    'user',
    'lock',
    { name: 'Ada Lovelace', failed_logins: 5, locked_until: null },
    'Ada Lovelace was locked out after 5 failed sign-ins',
    'Just Now',
    'logout',
  ],
  [
    'user',
    'download',
    {
      folders: [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B' },
      ],
    },
    'Ada Lovelace downloaded 2 folders',
    'Just Now',
    'download',
  ],
  // Firm provisioning: an operator removed a member, or changed the firm itself.
  [
    'user',
    'delete',
    { name: 'Bob Smith', user_id: 'u-bob' },
    'Ada Lovelace removed user "Bob Smith" from the firm',
    'Just Now',
    'delete',
  ],
  [
    'database',
    'create',
    { name: 'Harbour', firm_changes: { description: { next: 'Harbour office' } } },
    'Ada Lovelace created firm "Harbour"',
    'described as "Harbour office" · Just Now',
    'add',
  ],
  [
    'database',
    'rename',
    { name: 'Harbour Wealth', prev: { name: 'Harbour' }, next: { name: 'Harbour Wealth' } },
    'Ada Lovelace renamed firm "Harbour" to "Harbour Wealth"',
    'Just Now',
    'edit',
  ],
  [
    'database',
    'update',
    { name: 'Harbour', firm_changes: { description: { prev: 'Old', next: null } } },
    'Ada Lovelace changed the description of firm "Harbour"',
    'from "Old" to none · Just Now',
    'edit',
  ],
  [
    'database',
    'disable',
    { name: 'Harbour' },
    'Ada Lovelace disabled firm "Harbour"',
    'Just Now',
    'archive',
  ],
  [
    'database',
    'enable',
    { name: 'Harbour' },
    'Ada Lovelace enabled firm "Harbour"',
    'Just Now',
    'restore',
  ],
  [
    'retention_schedule',
    'create',
    {
      name: 'SEC 17a-4',
      schedule: {
        id: 's1',
        name: 'SEC 17a-4',
        rule: '6 years from creation',
        selector: '“Record type” is “Brokerage”',
        locked: true,
      },
    },
    'Ada Lovelace added retention schedule "SEC 17a-4"',
    '6 years from creation, for files where “Record type” is “Brokerage”, locked · Just Now',
    'add',
  ],
  [
    'retention_schedule',
    'update',
    {
      name: 'SEC 17a-4',
      schedule: {
        id: 's1',
        name: 'SEC 17a-4',
        rule: '7 years from creation',
        selector: '',
        locked: true,
      },
      schedule_changes: { period: { prev: '6 years', next: '7 years' } },
    },
    'Ada Lovelace changed retention schedule "SEC 17a-4"',
    'period 6 years → 7 years · Just Now',
    'edit',
  ],
  [
    'retention_schedule',
    'lock',
    {
      name: 'SEC 17a-4',
      schedule: {
        id: 's1',
        name: 'SEC 17a-4',
        rule: '6 years from creation',
        selector: '',
        locked: true,
      },
    },
    'Ada Lovelace locked retention schedule "SEC 17a-4"',
    '6 years from creation · Just Now',
    'permission',
  ],
  [
    'retention_schedule',
    'delete',
    {
      name: 'Drafts',
      schedule: {
        id: 's2',
        name: 'Drafts',
        rule: '30 days from creation',
        selector: '',
        locked: false,
      },
    },
    'Ada Lovelace removed retention schedule "Drafts"',
    '30 days from creation · Just Now',
    'delete',
  ],
  [
    'legal_hold',
    'create',
    {
      name: 'Smith dispute',
      hold: { id: 'h1', name: 'Smith dispute', matter: 'Smith v. Harbour', reason: 'Complaint' },
      targets: [{ type: 'folder', id: 'f-clients', name: 'Clients' }],
    },
    'Ada Lovelace placed legal hold "Smith dispute" on folder "Clients"',
    'matter "Smith v. Harbour" · Just Now',
    'permission',
  ],
  [
    'legal_hold',
    'update',
    {
      name: 'Smith dispute',
      hold: { id: 'h1', name: 'Smith dispute', matter: 'Smith v. Harbour', reason: 'Complaint' },
      target_added: { type: 'contact', id: 'c1', name: 'Jane Smith' },
    },
    'Ada Lovelace added contact "Jane Smith" to legal hold "Smith dispute"',
    'matter "Smith v. Harbour" · Just Now',
    'edit',
  ],
  [
    'legal_hold',
    'release',
    {
      name: 'Smith dispute',
      hold: { id: 'h1', name: 'Smith dispute', matter: 'Smith v. Harbour', reason: 'Complaint' },
    },
    'Ada Lovelace released legal hold "Smith dispute"',
    'matter "Smith v. Harbour" · Just Now',
    'unlink',
  ],
  [
    'file',
    'dispose',
    {
      name: 'Statement.pdf',
      file_name: 'Statement.pdf',
      parent,
      disposition: {
        sha256: 'ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12',
        size: 1024,
        path: 'Root / Clients',
        schedule: { id: 's1', name: 'SEC 17a-4' },
        ended_on: '2024-03-01',
        approved_by: 'Ada Lovelace',
      },
    },
    'Ada Lovelace disposed of file "Statement.pdf"',
    'retention schedule "SEC 17a-4" ended Mar 1, 2024, sha256 ab12cd34ef56… · Just Now',
    'delete',
  ],
  // File versions.
  [
    'file',
    'add_version',
    { name: 'Plan.pdf', parent, version: { number: 2, size: 1200, sha256: 'ab'.repeat(32) } },
    'Ada Lovelace uploaded version 2 of file "Plan.pdf"',
    'in "Clients" · Just Now',
    'add',
  ],
  [
    'file',
    'restore_version',
    { name: 'Plan.pdf', parent, version: { number: 3, restored_from: 1 } },
    'Ada Lovelace restored version 1 of file "Plan.pdf" as version 3',
    'in "Clients" · Just Now',
    'restore',
  ],
  [
    'file',
    'delete_version',
    { name: 'Plan.pdf', parent, version: { number: 1 } },
    'Ada Lovelace deleted version 1 of file "Plan.pdf" permanently',
    'in "Clients" · Just Now',
    'delete',
  ],
  // Document requests.
  [
    'document_request',
    'create',
    {
      request: { id: 'r1', title: 'Annual review', due_date: '2027-01-15' },
      folder: { id: 'f1', name: 'Smith Family' },
      recipients: ['jane@example.com'],
    },
    'Ada Lovelace sent document request "Annual review" to jane@example.com',
    'in "Smith Family", due Jan 15, 2027 · Just Now',
    'share',
  ],
  [
    'document_request',
    'upload',
    {
      request: { id: 'r1', title: 'Annual review' },
      folder: { id: 'f1', name: 'Smith Family' },
      item: { id: 'i1', name: '2025 Form 1040' },
      file: { id: 'x1', name: '1040.pdf' },
    },
    'Ada Lovelace uploaded file "1040.pdf" for "2025 Form 1040"',
    'document request "Annual review", in "Smith Family" · Just Now',
    'add',
  ],
  [
    'document_request',
    'accept',
    {
      request: { id: 'r1', title: 'Annual review' },
      item: { id: 'i1', name: '2025 Form 1040' },
      file: { id: 'x1', name: '1040.pdf' },
    },
    'Ada Lovelace accepted "2025 Form 1040" of document request "Annual review"',
    'file "1040.pdf" · Just Now',
    'edit',
  ],
  [
    'document_request',
    'reject',
    {
      request: { id: 'r1', title: 'Annual review' },
      folder: { id: 'f1', name: 'Smith Family' },
      item: { id: 'i1', name: '2025 Form 1040' },
      reason: 'Page 2 is missing',
    },
    'Ada Lovelace rejected "2025 Form 1040" of document request "Annual review"',
    'reason: Page 2 is missing, in "Smith Family" · Just Now',
    'unlink',
  ],
  [
    'document_request',
    'remind',
    {
      request: { id: 'r1', title: 'Annual review' },
      recipients: ['jane@example.com', 'john@example.com'],
      reminder: 'before_due',
    },
    'Ada Lovelace sent a reminder of document request "Annual review" to 2 recipients',
    'due soon · Just Now',
    'info',
  ],
  [
    'document_request',
    'cancel',
    { request: { id: 'r1', title: 'Annual review' }, folder: { id: 'f1', name: 'Smith Family' } },
    'Ada Lovelace cancelled document request "Annual review"',
    'in "Smith Family" · Just Now',
    'delete',
  ],
  [
    'document_request',
    'expire',
    { request: { id: 'r1', title: 'Annual review' } },
    'Ada Lovelace recorded that document request "Annual review" expired',
    'Just Now',
    'info',
  ],
  [
    'document_request',
    'complete',
    { request: { id: 'r1', title: 'Annual review' }, folder: { id: 'f1', name: 'Smith Family' } },
    'Ada Lovelace completed document request "Annual review"',
    'in "Smith Family" · Just Now',
    'restore',
  ],
  [
    'request_template',
    'create',
    { template: { id: 't1', name: 'New client onboarding' } },
    'Ada Lovelace added request template "New client onboarding"',
    'Just Now',
    'add',
  ],
  [
    'request_template',
    'update',
    { template: { id: 't1', name: 'New client onboarding' } },
    'Ada Lovelace changed request template "New client onboarding"',
    'Just Now',
    'edit',
  ],
  [
    'request_template',
    'delete',
    { template: { id: 't1', name: 'New client onboarding' } },
    'Ada Lovelace removed request template "New client onboarding"',
    'Just Now',
    'delete',
  ],
];

describe('renderHistoryEvent', () => {
  it('has a case for every pair the product records', () => {
    expect(HISTORY_EVENT_PAIRS).toHaveLength(69);
    expect(CASES.map(([e, a]) => `${e}:${a}`).sort()).toEqual(
      HISTORY_EVENT_PAIRS.map((p) => `${p.entity_type}:${p.action}`).sort(),
    );
  });

  it('reads a share link given a new URL as a new link, not as an invite', () => {
    const rendered = renderHistoryEvent(
      event('share_link', 'create', {
        reissued: true,
        file: { name: 'a.pdf' },
        file_name: 'a.pdf',
      }),
      NOW,
    );
    expect(rendered.summary).toBe('Ada Lovelace made a new share link for file "a.pdf"');
    expect(rendered.label).toBe('Invite sent');
  });

  it.each(CASES)('renders %s %s', (entityType, action, attributes, summary, detail, icon) => {
    const rendered = renderHistoryEvent(event(entityType, action, attributes), NOW);
    expect(rendered).toEqual({
      summary,
      detail,
      icon,
      label: labelFor({ entity_type: entityType, action }),
    });
  });

  it.each(HISTORY_EVENT_PAIRS.map((p) => [p.entity_type, p.action] as const))(
    'renders %s %s with empty attributes',
    (entityType, action) => {
      const rendered = renderHistoryEvent(event(entityType, action, {}), NOW);
      expect(rendered.summary.startsWith('Ada Lovelace ')).toBe(true);
      expect(rendered.summary.length).toBeGreaterThan('Ada Lovelace '.length);
      expect(rendered.summary).not.toMatch(/undefined|null|""/);
      expect(rendered.detail).toBe('Just Now');
    },
  );

  it('falls back to generic words when attributes are missing', () => {
    const render = (e: HistoryEntityType, a: HistoryAction): string =>
      renderHistoryEvent(event(e, a), NOW).summary;
    expect(render('folder', 'create')).toBe('Ada Lovelace added a folder');
    expect(render('file', 'rename')).toBe('Ada Lovelace renamed a file');
    expect(render('folder_contact', 'create')).toBe('Ada Lovelace linked a contact to a folder');
    expect(render('folder_permission', 'delete_many')).toBe(
      'Ada Lovelace removed permission on a folder',
    );
    expect(render('share_link', 'create')).toBe(
      'Ada Lovelace sent an invite to a guest for an item',
    );
    expect(render('external_share', 'delete')).toBe('Ada Lovelace removed access to an item');
    expect(render('applied_index', 'create_many')).toBe('Ada Lovelace applied an index');
    expect(render('user', 'download')).toBe('Ada Lovelace downloaded items');
  });

  it('renders profile and password updates of a user by an administrator', () => {
    const profile = renderHistoryEvent(
      event('user', 'update', {
        name: 'Bob Smith',
        user_changes: { fields: ['firstName', 'email'] },
      }),
      NOW,
    );
    expect(profile.summary).toBe('Ada Lovelace updated user "Bob Smith"');
    expect(profile.detail).toBe('first name, email · Just Now');
    const password = renderHistoryEvent(
      event('user', 'update', { name: 'Bob Smith', user_changes: { fields: ['password'] } }),
      NOW,
    );
    expect(password.summary).toBe('Ada Lovelace changed the password of user "Bob Smith"');
    expect(renderHistoryEvent(event('user', 'lock', { failed_logins: 1 }), NOW).summary).toBe(
      'Ada Lovelace was locked out after 1 failed sign-in',
    );
  });

  it('survives null attributes, odd values and a missing user name', () => {
    const odd = event('file', 'rename', null as unknown as HistoryAttributes, {
      user_name: undefined as unknown as string,
    });
    expect(renderHistoryEvent(odd, NOW).summary).toBe('Someone renamed a file');
    const wrongTypes = event('folder_permission', 'create_many', {
      permissions: 'x' as unknown as [],
      folders: [null, { name: 3 }] as unknown as [],
      folder_name: 7 as unknown as string,
    });
    expect(renderHistoryEvent(wrongTypes, NOW).summary).toBe(
      'Ada Lovelace added permission on a folder',
    );
  });

  it('renders an unknown pair without throwing', () => {
    const rendered = renderHistoryEvent(event('folder_contact', 'update', {}), NOW);
    expect(rendered).toEqual({
      summary: 'Ada Lovelace performed update on a folder contact',
      detail: 'Just Now',
      icon: 'info',
      label: null,
    });
  });

  it('reads a rename with one side missing', () => {
    expect(
      renderHistoryEvent(event('file', 'rename', { next: { name: 'b.pdf' } }), NOW).summary,
    ).toBe('Ada Lovelace renamed a file to "b.pdf"');
    expect(
      renderHistoryEvent(event('file', 'rename', { prev: { name: 'a.pdf' } }), NOW).summary,
    ).toBe('Ada Lovelace renamed file "a.pdf"');
  });

  it('reads a move into the root folder and a move with one side', () => {
    const toRoot = event('file', 'move', {
      name: 'a.pdf',
      changes: { prevParent: { id: 'f1', name: 'Inbox' }, nextParent: { id: '', name: '' } },
    });
    expect(renderHistoryEvent(toRoot, NOW).detail).toBe('from "Inbox" to "Root" · Just Now');
    const oneSide = event('folder', 'move', {
      name: 'X',
      changes: { nextParent: { id: 'f2', name: 'Clients' } },
    });
    expect(renderHistoryEvent(oneSide, NOW).detail).toBe('to "Clients" · Just Now');
  });

  describe('favourite changes (folder and file update with changes.favorites)', () => {
    const favorites = (enabled: boolean) => ({
      name: 'Reports',
      changes: {
        favorites: [
          { user_id: 'u-other', enabled: !enabled },
          { user_id: 'u-ada', enabled },
        ],
      },
    });

    it('reads favorited when the acting user has an enabled entry', () => {
      const rendered = renderHistoryEvent(event('folder', 'update', favorites(true)), NOW);
      expect(rendered.summary).toBe('Ada Lovelace favorited folder "Reports"');
      expect(rendered.icon).toBe('star');
    });

    it('reads unfavorited when the entry is disabled or absent', () => {
      const rendered = renderHistoryEvent(event('folder', 'update', favorites(false)), NOW);
      expect(rendered.summary).toBe('Ada Lovelace unfavorited folder "Reports"');
      expect(rendered.icon).toBe('unstar');
      const absent = event('file', 'update', { name: 'a.pdf', changes: { favorites: [] } });
      expect(renderHistoryEvent(absent, NOW).summary).toBe('Ada Lovelace unfavorited file "a.pdf"');
    });
  });

  describe('downloads (SPEC section 4: previewed, printed or downloaded)', () => {
    const cases: [{ preview: boolean; print: boolean }, string, string][] = [
      [{ preview: true, print: false }, 'previewed', 'preview'],
      [{ preview: false, print: true }, 'printed', 'print'],
      [{ preview: false, print: false }, 'downloaded', 'download'],
    ];
    it.each(cases)('%j reads %s', (download, verb, icon) => {
      const file = renderHistoryEvent(event('file', 'download', { name: 'a.pdf', download }), NOW);
      expect(file.summary).toBe(`Ada Lovelace ${verb} file "a.pdf"`);
      expect(file.icon).toBe(icon);
      expect(file.label).toBe('Downloaded');
      const folder = renderHistoryEvent(event('folder', 'download', { name: 'R', download }), NOW);
      expect(folder.summary).toBe(`Ada Lovelace ${verb} folder "R"`);
      const user = renderHistoryEvent(
        event('user', 'download', { file_name: 'a.pdf', download }),
        NOW,
      );
      expect(user.summary).toBe(`Ada Lovelace ${verb} file "a.pdf"`);
    });

    it('reads a history export as one, with its file name as context', () => {
      const exported = renderHistoryEvent(
        event('user', 'download', {
          download: { preview: false, print: false },
          export: {
            kind: 'history',
            file_name: 'history_2024-03-01_to_2024-03-31.csv',
            filters: {},
          },
        }),
        NOW,
      );
      expect(exported).toEqual({
        summary: 'Ada Lovelace exported the activity history',
        detail: 'history_2024-03-01_to_2024-03-31.csv · Just Now',
        icon: 'download',
        label: 'Downloaded',
      });
      const odd = event('user', 'download', {
        export: { kind: 'other' } as unknown as HistoryAttributes['export'],
      });
      expect(renderHistoryEvent(odd, NOW).summary).toBe('Ada Lovelace downloaded items');
    });

    it('reads an examiner’s export as one, with its scope as context', () => {
      const scopes: [NonNullable<HistoryAttributes['export']>, string][] = [
        [
          {
            kind: 'examiner',
            file_name: 'x.zip',
            scope: { kind: 'folder', folder_id: 'f1', path: 'Clients / Smith' },
            versions: 'newest',
          },
          'folder "Clients / Smith"',
        ],
        [
          {
            kind: 'examiner',
            file_name: 'x.zip',
            scope: {
              kind: 'contact',
              contact_id: 'c1',
              name: 'Jane Smith',
              folders: [
                { id: 'f1', path: 'Clients / Smith' },
                { id: 'f2', path: 'Trusts / Smith' },
              ],
            },
            versions: 'all',
          },
          'contact "Jane Smith" (2 folders)',
        ],
        [
          {
            kind: 'examiner',
            file_name: 'x.zip',
            scope: {
              kind: 'date_range',
              start: '2024-01-01T00:00:00.000Z',
              end: '2025-01-01T00:00:00.000Z',
            },
            versions: 'newest',
          },
          'files and events from 2024-01-01 to 2024-12-31',
        ],
        [
          { kind: 'examiner', file_name: 'x.zip', scope: { kind: 'firm' }, versions: 'newest' },
          'the whole firm',
        ],
      ];
      for (const [exported, context] of scopes) {
        const rendered = renderHistoryEvent(
          event('user', 'download', {
            download: { preview: false, print: false },
            export: exported,
          }),
          NOW,
        );
        expect(rendered).toEqual({
          summary: 'Ada Lovelace exported records for an examiner',
          detail: `${context} · Just Now`,
          icon: 'download',
          label: 'Downloaded',
        });
      }
    });
  });

  it('names permissionables when the entries carry names', () => {
    const named = event('folder_permission', 'create_many', {
      folder_name: 'Clients',
      permissions: [
        { permissionable_id: 'u2', permissionable_type: 'user', name: 'Bob Smith' },
        { permissionable_id: 't1', permissionable_type: 'team', name: 'Advisors' },
        { permissionable_id: 'u3', permissionable_type: 'user' },
      ] as HistoryAttributes['permissions'],
    });
    expect(renderHistoryEvent(named, NOW).summary).toBe(
      'Ada Lovelace added permission for "Bob Smith", "Advisors", 1 user on folder "Clients"',
    );
  });

  it('prefers the legacy migrated description as the summary', () => {
    const legacy = event('file', 'create', {
      next: { name: 'a.pdf' },
      parent,
      migrated: { description: 'Imported by the 2019 migration: a.pdf uploaded' },
    });
    const rendered = renderHistoryEvent(legacy, NOW);
    expect(rendered.summary).toBe('Imported by the 2019 migration: a.pdf uploaded');
    expect(rendered.detail).toBe('in "Clients" · Just Now');
    expect(rendered.icon).toBe('add');
    expect(rendered.label).toBe('Added');
  });

  it('ignores a blank migrated description', () => {
    const legacy = event('user', 'login', { migrated: { description: '  ' } });
    expect(renderHistoryEvent(legacy, NOW).summary).toBe('Ada Lovelace logged in');
  });

  it('puts the relative date in the detail line', () => {
    const at = (ms: number) =>
      renderHistoryEvent(
        event('user', 'login', {}, { created_at: new Date(NOW.getTime() - ms).toISOString() }),
        NOW,
      ).detail;
    expect(at(2 * 24 * HOUR)).toBe('2 days ago');
    expect(at(24 * HOUR)).toBe('a day ago');
    expect(at(10 * 24 * HOUR)).toBe('Jun 5, 2024 12:00 pm');
    const noDate = renderHistoryEvent(event('user', 'login', {}, { created_at: '' }), NOW);
    expect(noDate.detail).toBe('');
  });
});

describe('HISTORY_FILTER_LABELS (SPEC section 9)', () => {
  it('lists the 21 labels in the spec order, then those of records management, file versions and document requests', () => {
    expect(HISTORY_FILTER_LABELS.map((l) => l.label)).toEqual([
      'Added',
      'Archived',
      'Restored',
      'Renamed',
      'Deleted',
      'Moved',
      'Copied',
      'Permission added',
      'Permission removed',
      'Invite sent',
      'Invite accepted',
      'Invite cancelled',
      'Share removed',
      'Downloaded',
      'Index Added',
      'Index Removed',
      'Index Updated',
      'Linked',
      'Unlinked',
      'Log in',
      'Log out',
      'Schedule added',
      'Schedule changed',
      'Schedule removed',
      'Hold placed',
      'Hold changed',
      'Hold released',
      'Disposed',
      'New version',
      'Version deleted',
      'Request sent',
      'Document received',
      'Document accepted',
      'Document rejected',
      'Reminder sent',
      'Request closed',
    ]);
  });

  it('selects only recorded pairs, each under one label', () => {
    const recorded = new Set(HISTORY_EVENT_PAIRS.map((p) => `${p.entity_type}:${p.action}`));
    const labelled = HISTORY_FILTER_LABELS.flatMap((l) =>
      l.events.map((p) => `${p.entity_type}:${p.action}`),
    );
    for (const key of labelled) expect(recorded.has(key)).toBe(true);
    expect(new Set(labelled).size).toBe(labelled.length);
  });

  it('leaves only folder and file updates, user administration, firm and template events unlabelled', () => {
    const unlabelled = HISTORY_EVENT_PAIRS.filter((p) => labelFor(p) === null).map(
      (p) => `${p.entity_type}:${p.action}`,
    );
    expect(unlabelled).toEqual([
      'folder:update',
      'file:update',
      // User administration and lockout: no label of the spec's filter selects them.
      'user:create',
      'user:update',
      'user:disable',
      'user:enable',
      'user:lock',
      'user:unlock',
      // Firm provisioning: nor do the firm's own events and a removal from the firm.
      'user:delete',
      'database:create',
      'database:rename',
      'database:update',
      'database:disable',
      'database:enable',
      // Request templates: administration, like the user events.
      'request_template:create',
      'request_template:update',
      'request_template:delete',
    ]);
  });

  it.each([
    ['folder', 'create', 'Added'],
    ['file', 'create', 'Added'],
    ['folder', 'copy', 'Copied'],
    ['file', 'preview', 'Downloaded'],
    ['user', 'download', 'Downloaded'],
    ['folder_permission', 'delete_many', 'Permission removed'],
    ['share_link', 'create', 'Invite sent'],
    ['share_link', 'delete', 'Invite cancelled'],
    ['external_share', 'create', 'Invite accepted'],
    ['external_share', 'delete', 'Share removed'],
    ['applied_index', 'create_many', 'Index Added'],
    ['applied_index', 'restore', 'Index Added'],
    ['applied_index', 'archive', 'Index Removed'],
    ['applied_index', 'delete', 'Index Removed'],
    ['applied_index', 'update', 'Index Updated'],
    ['folder_contact', 'create', 'Linked'],
    ['folder_contact', 'delete', 'Unlinked'],
    ['user', 'login', 'Log in'],
    ['user', 'logout', 'Log out'],
    ['retention_schedule', 'create', 'Schedule added'],
    ['retention_schedule', 'update', 'Schedule changed'],
    ['retention_schedule', 'lock', 'Schedule changed'],
    ['retention_schedule', 'delete', 'Schedule removed'],
    ['legal_hold', 'create', 'Hold placed'],
    ['legal_hold', 'update', 'Hold changed'],
    ['legal_hold', 'release', 'Hold released'],
    ['file', 'dispose', 'Disposed'],
    ['file', 'add_version', 'New version'],
    ['file', 'restore_version', 'New version'],
    ['file', 'delete_version', 'Version deleted'],
  ])('labels %s %s as %j', (entity_type, action, label) => {
    expect(labelFor({ entity_type, action })).toBe(label);
  });

  it('labels unknown pairs as null', () => {
    expect(labelFor({ entity_type: 'user', action: 'create' })).toBeNull();
    expect(labelFor({ entity_type: 'nothing', action: 'login' })).toBeNull();
  });

  it('turns labels into the pairs they select', () => {
    expect(eventsForLabels(['Log in', 'Downloaded'])).toEqual([
      { entity_type: 'folder', action: 'download' },
      { entity_type: 'file', action: 'download' },
      { entity_type: 'file', action: 'preview' },
      { entity_type: 'user', action: 'download' },
      { entity_type: 'user', action: 'login' },
    ]);
    expect(eventsForLabels([])).toEqual([]);
    const all = eventsForLabels(HISTORY_FILTER_LABELS.map((l) => l.label));
    // All but the 17 unlabelled pairs (folder and file update, user administration, firm and
    // request template events).
    expect(all).toHaveLength(HISTORY_EVENT_PAIRS.length - 17);
  });
});

describe('reads of a file version', () => {
  it('name the version they read', () => {
    const read = (attributes: HistoryAttributes, action: HistoryAction = 'download') =>
      renderHistoryEvent(event('file', action, attributes), NOW).summary;
    expect(read({ name: 'Plan.pdf', version: { number: 1 } })).toBe(
      'Ada Lovelace downloaded version 1 of file "Plan.pdf"',
    );
    expect(read({ name: 'Plan.pdf', version: { number: 2 } }, 'preview')).toBe(
      'Ada Lovelace previewed version 2 of file "Plan.pdf"',
    );
    // A read of the newest names no version; a malformed number is ignored.
    expect(read({ name: 'Plan.pdf' })).toBe('Ada Lovelace downloaded file "Plan.pdf"');
    expect(read({ name: 'Plan.pdf', version: { number: 0 } })).toBe(
      'Ada Lovelace downloaded file "Plan.pdf"',
    );
    expect(
      renderHistoryEvent(event('file', 'add_version', { name: 'Plan.pdf' }), NOW).summary,
    ).toBe('Ada Lovelace uploaded a new version of file "Plan.pdf"');
    expect(renderHistoryEvent(event('folder', 'add_version', { name: 'Plans' }), NOW).summary).toBe(
      'Ada Lovelace performed add version on a folder',
    );
  });
});

describe('datePresetRange (SPEC section 9 date presets)', () => {
  const now = new Date(2024, 4, 15, 14, 30); // Wednesday, May 15 2024, local time
  const iso = (...args: [number, number, number]) => new Date(...args).toISOString();

  it('lists the presets in order', () => {
    expect(DATE_PRESETS).toEqual([
      'Today',
      'Yesterday',
      'This week',
      'This month',
      'This quarter',
      'This year',
    ]);
  });

  it.each([
    ['Today', iso(2024, 4, 15), iso(2024, 4, 16)],
    ['Yesterday', iso(2024, 4, 14), iso(2024, 4, 15)],
    ['This week', iso(2024, 4, 12), iso(2024, 4, 19)],
    ['This month', iso(2024, 4, 1), iso(2024, 5, 1)],
    ['This quarter', iso(2024, 3, 1), iso(2024, 6, 1)],
    ['This year', iso(2024, 0, 1), iso(2025, 0, 1)],
  ] as [DatePreset, string, string][])('%s spans local midnights', (preset, start, end) => {
    expect(datePresetRange(preset, now)).toEqual({ start, end });
  });

  it('handles the first and last quarters and month ends', () => {
    expect(datePresetRange('This quarter', new Date(2024, 0, 1, 0, 0))).toEqual({
      start: iso(2024, 0, 1),
      end: iso(2024, 3, 1),
    });
    expect(datePresetRange('This quarter', new Date(2024, 11, 31, 23, 59))).toEqual({
      start: iso(2024, 9, 1),
      end: iso(2025, 0, 1),
    });
    expect(datePresetRange('Yesterday', new Date(2024, 2, 1, 8, 0))).toEqual({
      start: iso(2024, 1, 29),
      end: iso(2024, 2, 1),
    });
  });

  it('refuses an unknown preset', () => {
    expect(() => datePresetRange('Last decade' as DatePreset, now)).toThrow(RangeError);
  });
});
