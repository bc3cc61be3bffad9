/**
 * Document requests (common/documentRequests.ts): creating one from a folder (checks and their
 * messages, folder visibility and firm isolation), the creation e-mail with the link, the
 * recipient's public page (only the request's items and their own uploads), uploading into an
 * item through the presigned PUT (the file lands in the request's folder with the item's index
 * values, History names the recipient), what the link can never do (another request's item, read
 * or download a file), the password and its lock, cancel and expiry ending the link, the review
 * (reject with a reason the recipient sees, upload again, accept all to complete), the reminders
 * (each once, none after completion or cancellation, a rejection e-mails) and templates (admins
 * manage, everyone lists).
 */
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import {
  REQUEST_ACCESS_HEADER,
  REQUEST_ACCESS_TTL_MS,
  REQUEST_LINK_GRACE_DAYS,
  REQUEST_MESSAGES,
  type DocumentRequestDto,
  type DocumentRequestListResponse,
  type PublicRequestDto,
  type RequestTemplateDto,
  type RequestTemplateListResponse,
  type UnlockRequestResponse,
} from '@common/documentRequests';
import type { AppliedIndexDto, IndexFieldDto } from '@common/indexFields';
import type { FolderDto } from '@common/entities';
import type { CreateMultipartUploadResponse, PresignedRequestDto } from '@common/uploads';
import { deliverDueReminders, recordExpiries } from '@server/services/documentRequests/reminders';
import { mailerFor } from '@server/services/mail';
import {
  describeEachDatabase,
  signIn,
  startInstance,
  startTestServer,
  type TestServer,
} from './helpers';
import {
  DAY_MS,
  dayFromNow,
  mailsTo,
  makeRequest,
  messageOf,
  pageOf,
  postRequest,
  publicCall,
  startUpload,
  uploadStart,
  uploadToItem,
} from './documentRequestsHelpers';
import {
  adminActor,
  call,
  fileRow,
  itemEvents,
  makeFile,
  makeFolder,
  newActor,
  type Actor,
} from './organiseHelpers';
import { eventsOf } from './sharingHelpers';

describeEachDatabase('document requests', (kind) => {
  let server: TestServer;
  let admin: Actor;
  let member: Actor;
  let otherAdmin: Actor;
  let clients: FolderDto;
  let restricted: FolderDto;
  let otherFirmFolder: FolderDto;
  let taxYear: IndexFieldDto;
  let docType: IndexFieldDto;

  const requestEvents = async (requestId: string) =>
    (await eventsOf(server, admin.databaseId, 'document_request')).filter(
      (e) => e.entity_id === requestId,
    );
  const advisorView = async (id: string, actor = admin) => {
    const response = await call(server, actor, 'GET', `/api/rest/requests/${id}`);
    expect(response.statusCode).toBe(200);
    return response.json<DocumentRequestDto>();
  };
  const review = (id: string, itemId: string, verdict: 'accept' | 'reject', reason?: string) =>
    call(
      server,
      admin,
      'POST',
      `/api/rest/requests/${id}/items/${itemId}/${verdict}`,
      verdict === 'reject' ? { reason: reason ?? '' } : undefined,
    );
  /** Moves the server clock and signs the actors in again (their sessions may have idled out). */
  const advance = async (ms: number) => {
    server.clock.now += ms;
    admin.cookie = await signIn(server);
    member.cookie = await signIn(server, 'dr-member', 'organise test password');
    otherAdmin.cookie = await signIn(server, 'dr-other', 'organise test password');
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
    member = await newActor(server, 'dr-member', 'member', admin.databaseId);
    otherAdmin = await newActor(server, 'dr-other', 'admin');
    clients = await makeFolder(server, admin, 'Clients');
    restricted = await makeFolder(server, admin, 'Board');
    const permission = await call(server, admin, 'POST', '/api/rest/folder_permissions', {
      folder_id: restricted.id,
      permissionables: [{ permissionable_id: admin.userId, permissionable_type: 'user' }],
    });
    expect(permission.statusCode).toBe(201);
    otherFirmFolder = await makeFolder(server, otherAdmin, 'Their clients');
    const field = async (payload: object) => {
      const response = await call(server, admin, 'POST', '/api/rest/index_fields', payload);
      expect(response.statusCode).toBe(201);
      return response.json<IndexFieldDto>();
    };
    taxYear = await field({ name: 'Tax year', type: 'number' });
    docType = await field({ name: 'Document type', type: 'list', values: ['Invoice', 'Payslip'] });
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses an empty checklist, a bad address and a past due day with the spec messages', async () => {
    const cases: [object, string][] = [
      [{ items: [] }, REQUEST_MESSAGES.noItems],
      [{ items: [{ name: '   ' }] }, REQUEST_MESSAGES.itemNameRequired],
      [{ recipients: ['not-an-address'] }, REQUEST_MESSAGES.invalidEmail],
      [{ recipients: ['ok@example.com', 'broken@'] }, REQUEST_MESSAGES.invalidEmail],
      [{ recipients: [] }, REQUEST_MESSAGES.noRecipients],
      [{ due_date: dayFromNow(server, -1) }, REQUEST_MESSAGES.dueDateInvalid],
      [{ due_date: '31/12/2099' }, REQUEST_MESSAGES.dueDateInvalid],
      [
        {
          items: [{ name: 'Payslip', index_values: [{ index_field_id: taxYear.id, value: 'x' }] }],
        },
        'Tax year: Enter a number, for example 2024 or -12.5.',
      ],
    ];
    for (const [body, expected] of cases) {
      const response = await postRequest(server, member, { folder_id: clients.id, ...body });
      expect({ body, status: response.statusCode, message: messageOf(response) }).toEqual({
        body,
        status: 400,
        message: expected,
      });
    }
    // An index field of another firm is not found.
    const theirField = await call(server, otherAdmin, 'POST', '/api/rest/index_fields', {
      name: 'Their field',
    });
    expect(theirField.statusCode).toBe(201);
    const foreignField = await postRequest(server, member, {
      folder_id: clients.id,
      items: [
        {
          name: 'Payslip',
          index_values: [{ index_field_id: theirField.json<IndexFieldDto>().id, value: 'x' }],
        },
      ],
    });
    expect(foreignField.statusCode).toBe(404);
    // Today is a valid due day.
    const today = await postRequest(server, member, {
      folder_id: clients.id,
      due_date: dayFromNow(server, 0),
      recipients: ['today@example.com'],
    });
    expect(today.statusCode).toBe(201);
    // Nothing was made by the refused ones: the only request of the folder is today's.
    const list = await call(server, member, 'GET', '/api/rest/requests');
    expect(
      list
        .json<DocumentRequestListResponse>()
        .items.filter((r) => r.recipients.some((x) => x.email !== 'today@example.com')),
    ).toEqual([]);
  });

  it('answers 404 for a folder the member cannot see and for a folder of another firm', async () => {
    const hidden = await postRequest(server, member, { folder_id: restricted.id });
    expect(hidden.statusCode).toBe(404);
    const foreign = await postRequest(server, admin, { folder_id: otherFirmFolder.id });
    expect(foreign.statusCode).toBe(404);
    // The admin may ask from the restricted folder; the member then does not see the request.
    const made = await makeRequest(server, admin, {
      folder_id: restricted.id,
      recipients: ['board@example.com'],
    });
    expect(
      (await call(server, member, 'GET', `/api/rest/requests/${made.request.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await call(server, otherAdmin, 'GET', `/api/rest/requests/${made.request.id}`)).statusCode,
    ).toBe(404);
  });

  it('e-mails each recipient their link and shows only the request on the public page', async () => {
    const folder = await makeFolder(server, admin, 'Page client');
    const other = await makeFile(server, admin, 'Secret contract.pdf', folder.id);
    const made = await makeRequest(server, member, {
      folder_id: folder.id,
      title: 'Year-end documents',
      message: 'Please send these before the end of the month.',
      items: [{ name: 'Payslips', description: 'All twelve of them' }, { name: 'Bank statement' }],
      recipients: ['Ann@Example.com', 'bob@example.com', 'ann@example.com'],
    });
    expect(made.links.map((l) => l.email)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(made.links[0]!.url).not.toBe(made.links[1]!.url);
    expect(made.token.length).toBeGreaterThanOrEqual(43);
    expect(made.mail_failed).toBeUndefined();
    for (const link of made.links) {
      const mails = await mailsTo(server, link.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toContain('Year-end documents');
      expect(mails[0]!.text).toContain(link.url);
    }
    expect(made.request).toMatchObject({
      status: 'open',
      folder_id: folder.id,
      target_folder_id: folder.id,
      has_password: false,
      reminder_days_before: 3,
      counts: { missing: 2, received: 0, accepted: 0, rejected: 0 },
    });

    const page = await pageOf(server, made.token);
    expect(page.statusCode).toBe(200);
    const dto = page.json<PublicRequestDto>();
    expect(dto).toMatchObject({
      firm_name: 'Demo Advisory',
      title: 'Year-end documents',
      message: 'Please send these before the end of the month.',
      status: 'open',
      email: 'ann@example.com',
      locked: false,
      has_password: false,
    });
    expect(dto.items.map((i) => [i.name, i.description, i.state, i.uploads])).toEqual([
      ['Payslips', 'All twelve of them', 'missing', []],
      ['Bank statement', '', 'missing', []],
    ]);
    // Nothing of the folder's own files reaches the page.
    expect(page.body).not.toContain(other.id);
    expect(page.body).not.toContain('Secret contract');
    // The advisor sees that Ann opened it, Bob not yet.
    const view = await advisorView(made.request.id);
    const opened = Object.fromEntries(view.recipients.map((r) => [r.email, r.opened_at]));
    expect(opened['ann@example.com']).not.toBeNull();
    expect(opened['bob@example.com']).toBeNull();
    // An unknown token.
    const unknown = await pageOf(server, 'A'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(messageOf(unknown)).toBe(REQUEST_MESSAGES.notFound);
  });

  it('lands an upload in the folder with the item index values, History naming the recipient', async () => {
    const folder = await makeFolder(server, admin, 'Upload client');
    const made = await makeRequest(server, member, {
      folder_id: folder.id,
      items: [
        {
          name: 'Payslip',
          index_values: [
            { index_field_id: taxYear.id, value: '2024' },
            { index_field_id: docType.id, value: 'Payslip' },
          ],
        },
        { name: 'Passport' },
      ],
      recipients: ['carol@example.com', 'dave@example.com'],
    });
    const [payslip] = made.request.items;
    const { id, page } = await uploadToItem(server, made.token, payslip!.id, 'May.pdf', 'may pdf');
    expect(page.items[0]).toMatchObject({ id: payslip!.id, state: 'received' });
    expect(page.items[0]!.uploads.map((u) => [u.id, u.name, u.size])).toEqual([[id, 'May.pdf', 7]]);
    expect(page.items[1]).toMatchObject({ state: 'missing', uploads: [] });

    const file = await fileRow(server, id);
    expect(file).toMatchObject({
      folder_id: folder.id,
      status: 'ready',
      name: 'May.pdf',
      database_id: admin.databaseId,
    });
    const applied = await call(server, admin, 'GET', `/api/rest/applied_indexes?entity_id=${id}`);
    expect(applied.statusCode).toBe(200);
    expect(
      applied
        .json<AppliedIndexDto[]>()
        .map((a) => [a.index_field_name, a.value])
        .sort(),
    ).toEqual([
      ['Document type', 'Payslip'],
      ['Tax year', '2024'],
    ]);
    // The file's own history says the recipient created it.
    const fileHistory = await itemEvents(server, admin, 'file', id);
    const created = fileHistory.find((e) => e.entity_type === 'file' && e.action === 'create');
    expect(created?.user_name).toBe('carol@example.com');
    // The folder's history has the request's upload event, by the recipient.
    const folderHistory = await itemEvents(server, admin, 'folder', folder.id);
    const upload = folderHistory.find(
      (e) => e.entity_type === 'document_request' && e.action === 'upload',
    );
    expect(upload).toMatchObject({ entity_id: made.request.id, user_name: 'carol@example.com' });
    expect(upload?.attributes).toMatchObject({
      item: { id: payslip!.id, name: 'Payslip' },
      file: { id, name: 'May.pdf' },
    });
    expect(
      (await requestEvents(made.request.id)).map((e) => e.action).filter((a) => a !== 'create'),
    ).toEqual(['upload']);
    // The advisor sees the upload with its file and who sent it.
    const view = await advisorView(made.request.id);
    expect(view.items[0]!.state).toBe('received');
    expect(view.items[0]!.uploads).toEqual([
      expect.objectContaining({ file_id: id, name: 'May.pdf', email: 'carol@example.com' }),
    ]);
    // Recording again changes nothing (one upload event, one upload listed).
    const again = await publicCall(
      server,
      'POST',
      `/api/rest/public/requests/${made.token}/files/record`,
      { id },
    );
    expect(again.statusCode).toBe(201);
    expect(again.json<PublicRequestDto>().items[0]!.uploads).toHaveLength(1);
    expect(
      (await requestEvents(made.request.id)).filter((e) => e.action === 'upload'),
    ).toHaveLength(1);
    // The other recipient sees the item's state but not Carol's upload.
    const daveToken = made.links
      .find((l) => l.email === 'dave@example.com')!
      .url.split('/')
      .pop()!;
    const dave = (await pageOf(server, daveToken)).json<PublicRequestDto>();
    expect(dave.items[0]).toMatchObject({ state: 'received', uploads: [] });
    expect(JSON.stringify(dave)).not.toContain(id);
  });

  it('puts the uploads in a subfolder of their own when asked', async () => {
    const folder = await makeFolder(server, admin, 'Subfolder client');
    const made = await makeRequest(server, admin, {
      folder_id: folder.id,
      title: 'Onboarding 2025',
      subfolder: true,
      recipients: ['sub@example.com'],
    });
    expect(made.request.target_folder_id).not.toBe(folder.id);
    const target = await call(
      server,
      admin,
      'GET',
      `/api/rest/folders/${made.request.target_folder_id}`,
    );
    expect(target.statusCode).toBe(200);
    expect(target.json<FolderDto>()).toMatchObject({ name: 'Onboarding 2025' });
    const { id } = await uploadToItem(server, made.token, made.request.items[0]!.id, 'a.pdf', 'aa');
    expect((await fileRow(server, id))?.folder_id).toBe(made.request.target_folder_id);
    // A second request of the same title gets a subfolder of its own.
    const second = await makeRequest(server, admin, {
      folder_id: folder.id,
      title: 'Onboarding 2025',
      subfolder: true,
      recipients: ['sub2@example.com'],
    });
    expect(second.request.target_folder_id).not.toBe(made.request.target_folder_id);
    expect(second.request.target_folder_id).not.toBe(folder.id);
    const other = await uploadToItem(
      server,
      second.token,
      second.request.items[0]!.id,
      'a.pdf',
      'bb',
    );
    expect((await fileRow(server, other.id))?.folder_id).toBe(second.request.target_folder_id);
  });

  it('refuses a read-only member, records the template used, and ends the link of a disabled creator', async () => {
    const reader = await newActor(server, 'dr-reader', 'read_only', admin.databaseId);
    expect((await postRequest(server, reader, { folder_id: clients.id })).statusCode).toBe(403);

    const template = await call(server, admin, 'POST', '/api/rest/private/request_templates', {
      name: 'Used template',
      items: [{ name: 'Passport' }],
    });
    expect(template.statusCode).toBe(201);
    const templateId = template.json<RequestTemplateDto>().id;
    const creator = await newActor(server, 'dr-creator', 'member', admin.databaseId);
    const folder = await makeFolder(server, admin, 'Creator client');
    const made = await makeRequest(server, creator, {
      folder_id: folder.id,
      items: [{ name: 'Passport' }],
      template_id: templateId,
      recipients: ['kim@example.com'],
    });
    const created = (await requestEvents(made.request.id)).find((e) => e.action === 'create');
    expect(created?.attributes).toMatchObject({
      template: { id: templateId, name: 'Used template' },
      recipients: ['kim@example.com'],
    });
    expect(
      (await call(server, admin, 'DELETE', `/api/rest/private/request_templates/${templateId}`))
        .statusCode,
    ).toBe(204);

    const disabled = await call(
      server,
      admin,
      'POST',
      `/api/rest/private/users/${creator.userId}/disable`,
    );
    expect(disabled.statusCode).toBe(200);
    const refused = await startUpload(server, made.token, made.request.items[0]!.id, 'p.pdf', 2);
    expect(refused.statusCode).toBe(404);
    // The link ends altogether: its page answers as an unknown link.
    const page = await pageOf(server, made.token);
    expect(page.statusCode).toBe(404);
    expect(messageOf(page)).toBe(REQUEST_MESSAGES.notFound);
    expect((await advisorView(made.request.id)).items[0]!.state).toBe('missing');
  });

  it('refuses an item of another request and gives the link no way to read files', async () => {
    const folder = await makeFolder(server, admin, 'Isolation client');
    const secret = await makeFile(server, admin, 'Other file.pdf', folder.id, 'not for clients');
    const first = await makeRequest(server, admin, {
      folder_id: folder.id,
      recipients: ['erin@example.com'],
    });
    const second = await makeRequest(server, admin, {
      folder_id: folder.id,
      recipients: ['frank@example.com'],
    });
    const foreignItem = second.request.items[0]!.id;
    const refused = await startUpload(server, first.token, foreignItem, 'x.pdf', 3);
    expect(refused.statusCode).toBe(404);
    const multipart = await publicCall(
      server,
      'POST',
      `/api/rest/public/requests/${first.token}/files/multipart`,
      uploadStart(foreignItem, 'x.pdf', 3),
    );
    expect(multipart.statusCode).toBe(404);
    expect((await advisorView(second.request.id)).items[0]!.state).toBe('missing');
    // The app's own upload rules and messages apply.
    const mismatch = await publicCall(
      server,
      'POST',
      `/api/rest/public/requests/${first.token}/files`,
      {
        ...uploadStart(first.request.items[0]!.id, 'scan.pdf', 3),
        extension: 'exe',
      },
    );
    expect(mismatch.statusCode).toBe(400);
    expect(messageOf(mismatch)).toBe('The extension does not match the file name.');

    // An upload the advisor started is not the link's to record.
    const own = await call(server, admin, 'POST', '/api/rest/files', {
      folder_id: folder.id,
      name: 'advisor.pdf',
      extension: 'pdf',
      content_type: 'application/pdf',
      size: 3,
    });
    expect(own.statusCode).toBe(201);
    const advisorUpload = own.json<{ id: string }>().id;
    const record = await publicCall(
      server,
      'POST',
      `/api/rest/public/requests/${first.token}/files/record`,
      { id: advisorUpload },
    );
    expect(record.statusCode).toBe(404);
    // Nor is another recipient's upload.
    const theirs = await startUpload(server, second.token, foreignItem, 'theirs.pdf', 2);
    expect(theirs.statusCode).toBe(201);
    const theirsId = theirs.json<{ id: string }>().id;
    const crossRecord = await publicCall(
      server,
      'POST',
      `/api/rest/public/requests/${first.token}/files/record`,
      { id: theirsId },
    );
    expect(crossRecord.statusCode).toBe(404);
    const crossAbort = await publicCall(
      server,
      'DELETE',
      `/api/rest/public/requests/${first.token}/files/multipart/${theirsId}?key=x`,
    );
    expect(crossAbort.statusCode).toBe(404);

    // No public route reads, lists or downloads a file, whatever the path.
    const base = `/api/rest/public/requests/${first.token}`;
    for (const url of [
      `${base}/files`,
      `${base}/files/${secret.id}`,
      `${base}/files/${secret.id}/download`,
      `${base}/folders/${folder.id}`,
      `${base}/folder`,
    ]) {
      const response = await publicCall(server, 'GET', url);
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
      expect(response.body).not.toContain('not for clients');
    }
    // The app's own file routes want a session (the link's grant is no session).
    for (const url of [`/api/rest/files/${secret.id}`, `/api/rest/files/${secret.id}/download`]) {
      const response = await server.app.inject({
        method: 'GET',
        url,
        headers: { [REQUEST_ACCESS_HEADER]: first.token },
      });
      expect(response.statusCode).toBe(401);
      expect(response.body).not.toContain('not for clients');
    }
  });

  it('asks for the password, counts wrong ones, locks like share links and unlocks with the right one', async () => {
    const folder = await makeFolder(server, admin, 'Password client');
    const made = await makeRequest(server, admin, {
      folder_id: folder.id,
      password: 'open sesame',
      items: [{ name: 'Passport' }],
      recipients: ['grace@example.com'],
    });
    expect(made.request.has_password).toBe(true);
    const itemId = made.request.items[0]!.id;
    const unlock = (password: string) =>
      publicCall(server, 'POST', `/api/rest/public/requests/${made.token}/unlock`, { password });

    const locked = (await pageOf(server, made.token)).json<PublicRequestDto>();
    expect(locked).toMatchObject({ locked: true, has_password: true, items: [] });
    expect(JSON.stringify(locked)).not.toContain('Passport');
    const noAccess = await startUpload(server, made.token, itemId, 'p.pdf', 2);
    expect(noAccess.statusCode).toBe(403);
    expect(messageOf(noAccess)).toBe(REQUEST_MESSAGES.passwordRequired);
    const forged = await startUpload(server, made.token, itemId, 'p.pdf', 2, 'forged-grant');
    expect(forged.statusCode).toBe(403);

    const max = server.config.sharePasswordMaxFailures;
    for (let i = 1; i < max; i += 1) {
      const wrong = await unlock(`wrong ${i}`);
      expect(wrong.statusCode).toBe(403);
      expect(messageOf(wrong)).toBe(REQUEST_MESSAGES.wrongPassword);
    }
    const row = await server.services.db
      .selectFrom('document_requests')
      .select(['failed_password_count', 'locked_until'])
      .where('id', '=', made.request.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.failed_password_count)).toBe(max - 1);
    expect(row.locked_until).toBeNull();
    const locking = await unlock('wrong again');
    expect(locking.statusCode).toBe(429);
    expect(messageOf(locking)).toBe(REQUEST_MESSAGES.locked);
    // While locked, even the right password is refused.
    const during = await unlock('open sesame');
    expect(during.statusCode).toBe(429);
    expect(messageOf(during)).toBe(REQUEST_MESSAGES.locked);

    await advance(server.config.sharePasswordLockMs + 1000);
    const right = await unlock('open sesame');
    expect(right.statusCode).toBe(200);
    const { access, expires_at } = right.json<UnlockRequestResponse>();
    expect(Date.parse(expires_at)).toBeGreaterThan(server.clock.now);
    const open = (await pageOf(server, made.token, access)).json<PublicRequestDto>();
    expect(open).toMatchObject({ locked: false });
    expect(open.items.map((i) => i.name)).toEqual(['Passport']);
    const uploaded = await uploadToItem(server, made.token, itemId, 'pass.pdf', 'pp', access);
    expect(uploaded.page.items[0]!.state).toBe('received');
    // The grant is the link's own: without it the page is locked again.
    expect((await pageOf(server, made.token)).json<PublicRequestDto>().locked).toBe(true);
    // The failure count started again after the right password.
    const afterRight = await unlock('wrong once more');
    expect(afterRight.statusCode).toBe(403);
    // The grant lasts REQUEST_ACCESS_TTL_MS.
    await advance(REQUEST_ACCESS_TTL_MS + 1000);
    expect((await pageOf(server, made.token, access)).json<PublicRequestDto>()).toMatchObject({
      locked: true,
      items: [],
    });
    expect((await startUpload(server, made.token, itemId, 'p2.pdf', 2, access)).statusCode).toBe(
      403,
    );
  });

  it('uploads in parts through the link with the unlock grant on every step', async () => {
    const folder = await makeFolder(server, admin, 'Multipart client');
    const made = await makeRequest(server, admin, {
      folder_id: folder.id,
      password: 'part by part',
      items: [{ name: 'Scans', index_values: [{ index_field_id: taxYear.id, value: '2023' }] }],
      recipients: ['parts@example.com'],
    });
    const itemId = made.request.items[0]!.id;
    const base = `/api/rest/public/requests/${made.token}/files/multipart`;
    const bytes = Buffer.from('p'.repeat(3000));
    // Without the grant no step is answered.
    const locked = await publicCall(server, 'POST', base, uploadStart(itemId, 'Scans.pdf', 3000));
    expect(locked.statusCode).toBe(403);
    const unlocked = await publicCall(
      server,
      'POST',
      `/api/rest/public/requests/${made.token}/unlock`,
      { password: 'part by part' },
    );
    expect(unlocked.statusCode).toBe(200);
    const { access } = unlocked.json<UnlockRequestResponse>();
    const created = await publicCall(
      server,
      'POST',
      base,
      uploadStart(itemId, 'Scans.pdf', bytes.length),
      access,
    );
    expect(created.statusCode).toBe(201);
    const upload = created.json<CreateMultipartUploadResponse>();
    const sendSigned = (signed: PresignedRequestDto, body?: Buffer | string, headers = {}) =>
      server.app.inject({
        method: signed.method,
        url: signed.url,
        headers: { ...signed.headers, ...headers },
        ...(body !== undefined ? { payload: body } : {}),
      });
    expect((await sendSigned(upload)).statusCode).toBe(200);
    const key = encodeURIComponent(upload.key);
    expect((await publicCall(server, 'GET', `${base}/${upload.id}/1?key=${key}`)).statusCode).toBe(
      403,
    );
    const signedPart = await publicCall(
      server,
      'GET',
      `${base}/${upload.id}/1?key=${key}`,
      undefined,
      access,
    );
    expect(signedPart.statusCode).toBe(200);
    const part = await sendSigned(signedPart.json<PresignedRequestDto>(), bytes);
    expect(part.statusCode).toBe(200);
    const complete = await publicCall(
      server,
      'POST',
      `${base}/${upload.id}/complete`,
      { key: upload.key },
      access,
    );
    expect(complete.statusCode).toBe(200);
    const xml = `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${part.headers.etag}</ETag></Part></CompleteMultipartUpload>`;
    const completed = await sendSigned(complete.json<PresignedRequestDto>(), xml, {
      'Content-Type': 'application/xml',
    });
    expect(completed.statusCode).toBe(200);
    const recorded = await publicCall(
      server,
      'POST',
      `/api/rest/public/requests/${made.token}/files/record`,
      { id: upload.id },
      access,
    );
    expect(recorded.statusCode).toBe(201);
    expect(recorded.json<PublicRequestDto>().items[0]).toMatchObject({
      state: 'received',
      uploads: [expect.objectContaining({ id: upload.id, name: 'Scans.pdf', size: 3000 })],
    });
    expect(await fileRow(server, upload.id)).toMatchObject({
      folder_id: folder.id,
      status: 'ready',
    });
    const applied = await call(
      server,
      admin,
      'GET',
      `/api/rest/applied_indexes?entity_id=${upload.id}`,
    );
    expect(applied.json<AppliedIndexDto[]>().map((a) => [a.index_field_id, a.value])).toEqual([
      [taxYear.id, '2023'],
    ]);
  });

  it('ends the link at once when cancelled', async () => {
    const folder = await makeFolder(server, admin, 'Cancel client');
    const made = await makeRequest(server, member, {
      folder_id: folder.id,
      recipients: ['heidi@example.com'],
    });
    const itemId = made.request.items[0]!.id;
    // An upload started before the cancel cannot be recorded after it.
    const started = await startUpload(server, made.token, itemId, 'late.pdf', 2);
    expect(started.statusCode).toBe(201);
    const cancelled = await call(
      server,
      member,
      'POST',
      `/api/rest/requests/${made.request.id}/cancel`,
    );
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<DocumentRequestDto>()).toMatchObject({ status: 'cancelled' });
    expect(cancelled.json<DocumentRequestDto>().cancelled_at).not.toBeNull();

    const page = await pageOf(server, made.token);
    expect(page.statusCode).toBe(410);
    expect(messageOf(page)).toBe(REQUEST_MESSAGES.cancelled);
    const upload = await startUpload(server, made.token, itemId, 'after.pdf', 2);
    expect(upload.statusCode).toBe(410);
    expect(messageOf(upload)).toBe(REQUEST_MESSAGES.cancelled);
    const record = await publicCall(
      server,
      'POST',
      `/api/rest/public/requests/${made.token}/files/record`,
      { id: started.json<{ id: string }>().id },
    );
    expect(record.statusCode).toBe(410);
    const unlock = await publicCall(
      server,
      'POST',
      `/api/rest/public/requests/${made.token}/unlock`,
      {
        password: 'x',
      },
    );
    expect(unlock.statusCode).toBe(410);
    const twice = await call(
      server,
      member,
      'POST',
      `/api/rest/requests/${made.request.id}/cancel`,
    );
    expect(twice.statusCode).toBe(409);
    expect(messageOf(twice)).toBe(REQUEST_MESSAGES.notOpen);
    expect((await requestEvents(made.request.id)).map((e) => e.action)).toEqual([
      'create',
      'cancel',
    ]);
    const closed = await call(server, member, 'GET', '/api/rest/requests?status=closed');
    expect(closed.json<DocumentRequestListResponse>().items.map((r) => r.id)).toContain(
      made.request.id,
    );
  });

  it('refuses an expired link, reads as expired and records the expiry once', async () => {
    const folder = await makeFolder(server, admin, 'Expiry client');
    const made = await makeRequest(server, admin, {
      folder_id: folder.id,
      due_date: dayFromNow(server, 0),
      recipients: ['ivan@example.com'],
    });
    const itemId = made.request.items[0]!.id;
    const due = Date.parse(`${made.request.due_date}T23:59:59.999Z`);
    expect(Date.parse(made.request.expires_at)).toBe(due + REQUEST_LINK_GRACE_DAYS * DAY_MS);
    const started = await startUpload(server, made.token, itemId, 'b.pdf', 2);
    expect(started.statusCode).toBe(201);
    // The link's end passes (written through the server's own database handle).
    await server.services.db
      .updateTable('document_requests')
      .set({ expires_at: new Date(server.clock.now - 1000).toISOString() })
      .where('id', '=', made.request.id)
      .execute();

    const page = await pageOf(server, made.token);
    expect(page.statusCode).toBe(410);
    expect(messageOf(page)).toBe(REQUEST_MESSAGES.expired);
    const upload = await startUpload(server, made.token, itemId, 'c.pdf', 2);
    expect(upload.statusCode).toBe(410);
    expect(messageOf(upload)).toBe(REQUEST_MESSAGES.expired);
    expect((await advisorView(made.request.id)).status).toBe('expired');
    const remind = await call(
      server,
      admin,
      'POST',
      `/api/rest/requests/${made.request.id}/remind`,
    );
    expect(remind.statusCode).toBe(409);
    const open = await call(server, admin, 'GET', '/api/rest/requests');
    expect(open.json<DocumentRequestListResponse>().items.map((r) => r.id)).not.toContain(
      made.request.id,
    );
    const closed = await call(server, admin, 'GET', '/api/rest/requests?status=closed');
    expect(closed.json<DocumentRequestListResponse>().items.map((r) => r.id)).toContain(
      made.request.id,
    );

    expect(await recordExpiries(server.services)).toBeGreaterThanOrEqual(1);
    await recordExpiries(server.services);
    expect(
      (await requestEvents(made.request.id)).filter((e) => e.action === 'expire'),
    ).toHaveLength(1);
  });

  it('reviews: a rejection needs a reason the client sees, uploads again, and accepting all completes', async () => {
    const folder = await makeFolder(server, admin, 'Review client');
    const made = await makeRequest(server, admin, {
      folder_id: folder.id,
      title: 'Review set',
      items: [{ name: 'ID card' }, { name: 'Utility bill' }],
      recipients: ['judy@example.com'],
    });
    const [idCard, bill] = made.request.items;
    const id = made.request.id;
    const other = await makeRequest(server, admin, {
      folder_id: folder.id,
      recipients: ['judy-other@example.com'],
    });
    expect((await review(id, other.request.items[0]!.id, 'accept')).statusCode).toBe(404);
    const early = await review(id, idCard!.id, 'accept');
    expect(early.statusCode).toBe(409);
    expect(messageOf(early)).toBe(REQUEST_MESSAGES.nothingToReview);

    await uploadToItem(server, made.token, idCard!.id, 'blurry.jpg', 'blurry');
    await uploadToItem(server, made.token, bill!.id, 'bill.pdf', 'bill');
    const noReason = await review(id, idCard!.id, 'reject', '   ');
    expect(noReason.statusCode).toBe(400);
    expect(messageOf(noReason)).toBe(REQUEST_MESSAGES.reasonRequired);
    expect((await advisorView(id)).items[0]!.state).toBe('received');

    const before = (await mailsTo(server, 'judy@example.com')).length;
    const rejected = await review(id, idCard!.id, 'reject', 'The photo is unreadable.');
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json<DocumentRequestDto>().items[0]).toMatchObject({
      state: 'rejected',
      reject_reason: 'The photo is unreadable.',
    });
    const mails = await mailsTo(server, 'judy@example.com');
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.subject).toContain('ID card');
    expect(mails.at(-1)!.text).toContain('The photo is unreadable.');
    expect(mails.at(-1)!.text).toContain(made.links[0]!.url);
    // Still needed lists what the client must send: the rejected item, not the one under review.
    expect(mails.at(-1)!.text).toContain('- ID card (please upload again)');
    expect(mails.at(-1)!.text).not.toContain('Utility bill');

    const page = (await pageOf(server, made.token)).json<PublicRequestDto>();
    expect(page.items[0]).toMatchObject({
      state: 'rejected',
      reject_reason: 'The photo is unreadable.',
    });
    // Sent again under the same name: the folder names the new file apart, the client's page
    // shows the name the client gave (nothing of the folder's names reaches the link).
    const again = await uploadToItem(server, made.token, idCard!.id, 'blurry.jpg', 'sharp');
    expect(again.page.items[0]).toMatchObject({ state: 'received', reject_reason: null });
    expect(again.page.items[0]!.uploads.map((u) => u.name)).toEqual(['blurry.jpg', 'blurry.jpg']);
    const advisorNames = (await advisorView(id)).items[0]!.uploads.map((u) => u.name);
    expect(advisorNames).toHaveLength(2);
    expect(new Set(advisorNames).size).toBe(2);
    expect(advisorNames).toContain('blurry.jpg');

    const firstAccept = await review(id, bill!.id, 'accept');
    expect(firstAccept.statusCode).toBe(200);
    expect(firstAccept.json<DocumentRequestDto>()).toMatchObject({ status: 'open' });
    // An accepted item takes no upload any more.
    const intoAccepted = await startUpload(server, made.token, bill!.id, 'more.pdf', 2);
    expect(intoAccepted.statusCode).toBe(409);
    expect(messageOf(intoAccepted)).toBe(REQUEST_MESSAGES.itemAccepted);
    const done = await review(id, idCard!.id, 'accept');
    expect(done.statusCode).toBe(200);
    const dto = done.json<DocumentRequestDto>();
    expect(dto).toMatchObject({
      status: 'completed',
      counts: { missing: 0, received: 0, accepted: 2, rejected: 0 },
    });
    expect(dto.completed_at).not.toBeNull();
    expect((await pageOf(server, made.token)).json<PublicRequestDto>().status).toBe('completed');
    const afterDone = await startUpload(server, made.token, idCard!.id, 'late.pdf', 2);
    expect(afterDone.statusCode).toBe(409);
    expect(messageOf(afterDone)).toBe(REQUEST_MESSAGES.notOpen);
    expect((await review(id, idCard!.id, 'accept')).statusCode).toBe(409);
    expect((await requestEvents(id)).map((e) => e.action)).toEqual([
      'create',
      'upload',
      'upload',
      'reject',
      'remind',
      'upload',
      'accept',
      'accept',
      'complete',
    ]);
    const reject = (await requestEvents(id)).find((e) => e.action === 'reject');
    expect(reject?.attributes).toMatchObject({ reason: 'The photo is unreadable.' });
  });

  it('manages templates by administrators only; every member lists them', async () => {
    const body = {
      name: 'Annual review',
      message: 'Our yearly checklist.',
      items: [{ name: 'Payslips', index_values: [{ index_field_id: taxYear.id, value: '2025' }] }],
    };
    const refused = await call(server, member, 'POST', '/api/rest/private/request_templates', body);
    expect(refused.statusCode).toBe(403);
    const created = await call(server, admin, 'POST', '/api/rest/private/request_templates', body);
    expect(created.statusCode).toBe(201);
    const template = created.json<RequestTemplateDto>();
    expect(template).toMatchObject({ name: 'Annual review', message: 'Our yearly checklist.' });
    expect(template.items).toEqual([
      {
        name: 'Payslips',
        description: '',
        index_values: [{ index_field_id: taxYear.id, value: '2025' }],
      },
    ]);
    const taken = await call(server, admin, 'POST', '/api/rest/private/request_templates', {
      ...body,
      name: 'annual REVIEW',
    });
    expect(taken.statusCode).toBe(409);
    expect(messageOf(taken)).toBe(REQUEST_MESSAGES.templateNameTaken);
    const empty = await call(server, admin, 'POST', '/api/rest/private/request_templates', {
      name: 'Empty',
      items: [],
    });
    expect(empty.statusCode).toBe(400);
    expect(messageOf(empty)).toBe(REQUEST_MESSAGES.noItems);

    const listed = await call(server, member, 'GET', '/api/rest/request_templates');
    expect(listed.statusCode).toBe(200);
    expect(listed.json<RequestTemplateListResponse>().items.map((t) => t.name)).toEqual([
      'Annual review',
    ]);
    const url = `/api/rest/private/request_templates/${template.id}`;
    const memberPatch = await call(server, member, 'PATCH', url, { ...body, name: 'Changed' });
    expect(memberPatch.statusCode).toBe(403);
    expect((await call(server, member, 'DELETE', url)).statusCode).toBe(403);
    // Another firm neither lists nor changes it.
    const theirs = await call(server, otherAdmin, 'GET', '/api/rest/request_templates');
    expect(theirs.json<RequestTemplateListResponse>().items).toEqual([]);
    expect((await call(server, otherAdmin, 'DELETE', url)).statusCode).toBe(404);

    const patched = await call(server, admin, 'PATCH', url, {
      name: 'Annual review 2025',
      items: [{ name: 'Payslips' }, { name: 'P60' }],
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<RequestTemplateDto>().items.map((i) => i.name)).toEqual([
      'Payslips',
      'P60',
    ]);
    expect((await call(server, admin, 'DELETE', url)).statusCode).toBe(204);
    const after = await call(server, member, 'GET', '/api/rest/request_templates');
    expect(after.json<RequestTemplateListResponse>().items).toEqual([]);
    expect(
      (await eventsOf(server, admin.databaseId, 'request_template'))
        .filter((e) => e.entity_id === template.id)
        .map((e) => e.action),
    ).toEqual(['create', 'update', 'delete']);
  });

  it('keeps a request whose e-mail failed and sends that e-mail on a later turn, once', async () => {
    const folder = await makeFolder(server, admin, 'Mail failure client');
    const mailer = mailerFor(server.config);
    const spy = jest.spyOn(mailer, 'send').mockRejectedValueOnce(new Error('SMTP is down'));
    let made: Awaited<ReturnType<typeof makeRequest>>;
    try {
      made = await makeRequest(server, admin, {
        folder_id: folder.id,
        recipients: ['mallory@example.com'],
      });
    } finally {
      spy.mockRestore();
    }
    expect(made.mail_failed).toBe(true);
    expect((await advisorView(made.request.id)).status).toBe('open');
    expect(await mailsTo(server, 'mallory@example.com')).toEqual([]);
    const row = await server.services.db
      .selectFrom('document_request_reminders')
      .selectAll()
      .where('request_id', '=', made.request.id)
      .where('kind', '=', 'created')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ sent_at: null, error: expect.stringContaining('SMTP is down') });
    expect(Number(row.attempts)).toBe(1);

    await deliverDueReminders(server.services);
    await deliverDueReminders(server.services);
    const mails = await mailsTo(server, 'mallory@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(made.links[0]!.url);
  });

  // Last: it moves the clock days ahead.
  it('sends each due reminder once, and none after completion or cancellation', async () => {
    const folder = await makeFolder(server, admin, 'Reminder client');
    const make = (email: string) =>
      makeRequest(server, admin, {
        folder_id: folder.id,
        title: `Reminders for ${email}`,
        due_date: dayFromNow(server, 5),
        reminder_days_before: 3,
        recipients: [email],
      });
    const open = await make('remind-open@example.com');
    const cancelled = await make('remind-cancelled@example.com');
    const completed = await make('remind-done@example.com');
    const noReminder = await makeRequest(server, admin, {
      folder_id: folder.id,
      due_date: dayFromNow(server, 5),
      reminder_days_before: 0,
      recipients: ['remind-none@example.com'],
    });
    expect(noReminder.request.reminder_days_before).toBeNull();
    expect(
      (await call(server, admin, 'POST', `/api/rest/requests/${cancelled.request.id}/cancel`))
        .statusCode,
    ).toBe(200);
    const item = completed.request.items[0]!;
    await uploadToItem(server, completed.token, item.id, 'done.pdf', 'done');
    expect((await review(completed.request.id, item.id, 'accept')).statusCode).toBe(200);

    const subjects = async (email: string) => (await mailsTo(server, email)).map((m) => m.subject);
    // The creation e-mails went out with the request; a turn now sends nothing again.
    await deliverDueReminders(server.services);
    for (const email of [
      'remind-open@example.com',
      'remind-cancelled@example.com',
      'remind-done@example.com',
    ]) {
      expect(await subjects(email)).toEqual([
        `Demo Advisory asks you for documents: Reminders for ${email}`,
      ]);
    }

    // Two days later: the reminder three days before the due day, once for two turns.
    await advance(2 * DAY_MS);
    await deliverDueReminders(server.services);
    await deliverDueReminders(server.services);
    const beforeDue = (await subjects('remind-open@example.com')).filter((s) =>
      s.startsWith('Reminder:'),
    );
    expect(beforeDue).toHaveLength(1);
    expect(await subjects('remind-cancelled@example.com')).toHaveLength(1);
    expect(await subjects('remind-done@example.com')).toHaveLength(1);
    expect(await subjects('remind-none@example.com')).toHaveLength(1);

    // On the due day (the job may have missed a day: a later turn still sends it, once), with
    // two instances sending at the same time.
    await advance(4 * DAY_MS);
    const second = await startInstance(server);
    try {
      await Promise.all([
        deliverDueReminders(server.services),
        deliverDueReminders(second.services),
        deliverDueReminders(second.services),
      ]);
    } finally {
      await second.close();
    }
    await deliverDueReminders(server.services);
    const openSubjects = await subjects('remind-open@example.com');
    expect(openSubjects.filter((s) => s.startsWith('Due today:'))).toHaveLength(1);
    expect(openSubjects).toHaveLength(3);
    expect(await subjects('remind-cancelled@example.com')).toHaveLength(1);
    expect(await subjects('remind-done@example.com')).toHaveLength(1);
    expect(await subjects('remind-none@example.com')).toEqual([
      expect.stringContaining('asks you for documents'),
      'Due today: Documents for Reminder client',
    ]);
    const remindEvents = (await requestEvents(open.request.id)).filter(
      (e) => e.action === 'remind',
    );
    expect(remindEvents.map((e) => e.attributes.reminder)).toEqual(['before_due', 'due']);
    expect(remindEvents[0]!.user_name).not.toBe('');
    for (const closed of [cancelled, completed]) {
      expect((await requestEvents(closed.request.id)).filter((e) => e.action === 'remind')).toEqual(
        [],
      );
    }

    // A reminder sent by hand goes out at once, once.
    const manual = await call(
      server,
      admin,
      'POST',
      `/api/rest/requests/${open.request.id}/remind`,
    );
    expect(manual.statusCode).toBe(200);
    await deliverDueReminders(server.services);
    expect(await subjects('remind-open@example.com')).toHaveLength(4);
    // After the cancel of the open one nothing more goes out, not even by hand.
    expect(
      (await call(server, admin, 'POST', `/api/rest/requests/${open.request.id}/cancel`))
        .statusCode,
    ).toBe(200);
    expect(
      (await call(server, admin, 'POST', `/api/rest/requests/${open.request.id}/remind`))
        .statusCode,
    ).toBe(409);
    await advance(DAY_MS);
    await deliverDueReminders(server.services);
    expect(await subjects('remind-open@example.com')).toHaveLength(4);
  });
});

describeEachDatabase('document request links are rate limited', (kind) => {
  let server: TestServer;
  let admin: Actor;

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { LOGIN_RATE_LIMIT: '3' } });
    admin = await adminActor(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('limits the unlock per address, as sign-in is', async () => {
    const folder = await makeFolder(server, admin, 'Limited client');
    const made = await makeRequest(server, admin, {
      folder_id: folder.id,
      password: 'the right one',
      recipients: ['limited@example.com'],
    });
    const unlock = (password: string) =>
      publicCall(server, 'POST', `/api/rest/public/requests/${made.token}/unlock`, { password });
    expect((await unlock('wrong 1')).statusCode).toBe(403);
    expect((await unlock('wrong 2')).statusCode).toBe(403);
    expect((await unlock('the right one')).statusCode).toBe(200);
    const limited = await unlock('the right one');
    expect(limited.statusCode).toBe(429);
    // The limit, not the password lock: the request's failures were cleared by the right one.
    expect(messageOf(limited)).not.toBe(REQUEST_MESSAGES.locked);
    server.clock.now += 61_000;
    expect((await unlock('the right one')).statusCode).toBe(200);
  });
});
