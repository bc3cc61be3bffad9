/**
 * Sharing, on SQLite and PostgreSQL: the whole flow (link, invitation in the outbox,
 * guest sign-up, the guest lists, previews and downloads the shared folder's files, revoking ends
 * access on the next request), tokens stored hashed and never answered again, expiry, the link
 * password and its lock, another firm, internal sharing, re-sending and cancelling invitations,
 * removing access, every history event with its attributes, mail failures, the feature flag.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type {
  InvitationInfoDto,
  SharedBreadcrumbsResponse,
  SharedEntityListResponse,
  SharedOverviewResponse,
  ShareLinkDto,
  ShareLinkListResponse,
} from '@common/sharing';
import { MESSAGES } from '@common/messages';
import { SHARING_MESSAGES } from '@common/sharing';
import type { CurrentUserDto } from '@common/session';
import {
  addUser,
  describeEachDatabase,
  sessionCookie,
  signIn,
  startTestServer,
  type TestServer,
} from './helpers';
import { adminActor, makeFile, makeFolder, type Actor } from './organiseHelpers';
import {
  createLink,
  eventsOf,
  GUEST_PASSWORD,
  guestCookie,
  invitationMail,
  send,
  sha256,
  signInGuest,
  signUpGuest,
  tokenOf,
} from './sharingHelpers';

const DAY = 86_400_000;

describeEachDatabase('sharing', (kind) => {
  let server: TestServer;
  let admin: Actor;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await adminActor(server);
  });
  afterAll(async () => {
    await server.close();
  });

  /** A folder "Client <n>" with a file, a subfolder with a file, and a restricted subfolder. */
  async function sharedTree(n: string) {
    const folder = await makeFolder(server, admin, `Client ${n}`);
    const contract = await makeFile(server, admin, 'Contract.pdf', folder.id, `contract ${n}`);
    const sub = await makeFolder(server, admin, 'Statements', folder.id);
    const statement = await makeFile(server, admin, 'Statement.pdf', sub.id, `statement ${n}`);
    const restricted = await makeFolder(server, admin, 'Private', folder.id);
    const permission = await send(server, admin.cookie, 'POST', '/api/rest/folder_permissions', {
      folder_id: restricted.id,
      permissionables: [{ permissionable_id: admin.userId, permissionable_type: 'user' }],
    });
    expect(permission.statusCode).toBe(201);
    const secret = await makeFile(server, admin, 'Secret.txt', restricted.id);
    return { folder, contract, sub, statement, restricted, secret };
  }

  it('shares a folder with a guest: outbox, sign-up, lists, downloads, revoke', async () => {
    const tree = await sharedTree('A');
    const email = 'Guest.A@Example.com';
    const created = await createLink(server, admin.cookie, {
      entity_type: 'folder',
      entity_id: tree.folder.id,
      emails: [email],
      message: 'Your statements for 2024',
    });
    expect(created.url.startsWith(`${server.config.publicUrl}/sharing/invitation/`)).toBe(true);
    expect(created.mail_failed).toBeUndefined();
    expect(created.link).toMatchObject({
      entity_type: 'folder',
      entity_id: tree.folder.id,
      entity_name: 'Client A',
      allow_download: true,
      has_password: false,
      message: 'Your statements for 2024',
      revoked_at: null,
      shares: [],
    });
    expect(created.link.invitations).toEqual([
      expect.objectContaining({ email: 'guest.a@example.com', state: 'sent', accepted_at: null }),
    ]);

    // The e-mail: sharer, item, message and its own link; nothing else about the firm.
    const mail = await invitationMail(server, 'guest.a@example.com');
    expect(mail.text).toContain('Demo Administrator shared the folder');
    expect(mail.text).toContain('"Client A"');
    expect(mail.text).toContain('Your statements for 2024');
    expect(mail.text).not.toContain('Demo Advisory');
    expect(mail.token).not.toBe(created.token);

    const info = await send(server, null, 'GET', `/api/rest/shared/invitation/${mail.token}`);
    expect(info.statusCode).toBe(200);
    expect(info.json<InvitationInfoDto>()).toEqual({
      kind: 'invitation',
      link_id: created.link.id,
      email: 'guest.a@example.com',
      shared_by_name: expect.any(String),
      entity_type: 'folder',
      entity_name: 'Client A',
      has_account: false,
      requires_password: false,
      state: 'sent',
    });

    // Another address cannot use this invitation.
    const other = await signUpGuest(server, mail.token, 'someone.else@example.com');
    expect(other.statusCode).toBe(403);

    const signup = await signUpGuest(server, mail.token, email);
    expect(signup.statusCode).toBe(202);
    expect(signup.json()).toEqual({ next: 'sign_in', message: SHARING_MESSAGES.signUpDone });
    expect(signup.cookies).toHaveLength(0);
    const signedIn = await signInGuest(server, mail.token, email);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ landing: '/sharing/shared' });
    const guest = sessionCookie(signedIn);

    const me = await send(server, guest, 'GET', '/api/auth/current-user');
    expect(me.statusCode).toBe(200);
    const current = me.json<CurrentUserDto>();
    expect(current.username).toBe('guest.a@example.com');
    expect(current.databases).toEqual([expect.objectContaining({ role: 'guest' })]);

    // The top level: the shared folder.
    const top = await send(server, guest, 'GET', '/api/rest/shared/entities');
    expect(top.statusCode).toBe(200);
    const topItems = top.json<SharedEntityListResponse>().items;
    expect(topItems).toEqual([
      expect.objectContaining({
        entity_type: 'folder',
        id: tree.folder.id,
        name: 'Client A',
        folder_id: '',
        allow_download: true,
      }),
    ]);

    // Inside: the subfolder and the file, not the restricted folder.
    const inside = await send(
      server,
      guest,
      'GET',
      `/api/rest/shared/entities?folder_id=${tree.folder.id}`,
    );
    expect(inside.statusCode).toBe(200);
    const names = inside.json<SharedEntityListResponse>().items.map((i) => i.name);
    expect(names).toEqual(['Statements', 'Contract.pdf']);
    for (const hidden of [
      `/api/rest/shared/entities?folder_id=${tree.restricted.id}`,
      `/api/rest/shared/files/${tree.secret.id}/download`,
    ]) {
      expect((await send(server, guest, 'GET', hidden)).statusCode).toBe(404);
    }

    const download = await send(
      server,
      guest,
      'GET',
      `/api/rest/shared/files/${tree.contract.id}/download`,
    );
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(sha256('contract A'));
    expect(download.headers['content-disposition']).toContain('attachment');

    const deeper = await send(
      server,
      guest,
      'GET',
      `/api/rest/shared/entities?folder_id=${tree.sub.id}`,
    );
    expect(deeper.json<SharedEntityListResponse>().items).toEqual([
      expect.objectContaining({ id: tree.statement.id, folder_id: tree.sub.id, size: 11 }),
    ]);
    const crumbs = await send(
      server,
      guest,
      'GET',
      `/api/rest/shared/folders/${tree.sub.id}/breadcrumbs`,
    );
    expect(crumbs.json<SharedBreadcrumbsResponse>().items.map((c) => c.name)).toEqual([
      'Client A',
      'Statements',
    ]);
    const statement = await send(
      server,
      guest,
      'GET',
      `/api/rest/shared/files/${tree.statement.id}/download`,
    );
    expect(sha256(statement.rawPayload)).toBe(sha256('statement A'));
    const preview = await send(
      server,
      guest,
      'GET',
      `/api/rest/shared/files/${tree.statement.id}/preview`,
    );
    expect(preview.statusCode).toBe(200);

    // Nothing else of the firm.
    for (const url of [
      '/api/rest/entities?folder_id=',
      `/api/rest/folders/${tree.folder.id}`,
      `/api/rest/files/${tree.contract.id}/download`,
      '/api/rest/entities/shared',
      '/api/rest/private/users',
    ]) {
      expect({ url, status: (await send(server, guest, 'GET', url)).statusCode }).toEqual({
        url,
        status: 404,
      });
    }

    // The sharer's dialog: accepted, with who has access.
    const links = await send(
      server,
      admin.cookie,
      'GET',
      `/api/rest/shared/links?entity_type=folder&entity_id=${tree.folder.id}`,
    );
    const [link] = links.json<ShareLinkListResponse>().items;
    expect(link!.invitations[0]).toMatchObject({ state: 'accepted' });
    expect(link!.shares).toEqual([
      expect.objectContaining({ email: 'guest.a@example.com', user_name: 'Gina Guest' }),
    ]);
    // The guest is not a member of the firm.
    const members = await send(
      server,
      admin.cookie,
      'GET',
      '/api/rest/private/users?page_size=500',
    );
    expect(members.body).not.toContain('guest.a@example.com');

    // History: invite sent, invite accepted (by the guest), downloads by the guest.
    const guestId = current.userId;
    expect(await eventsOf(server, admin.databaseId, 'share_link')).toContainEqual(
      expect.objectContaining({
        action: 'create',
        entity_id: created.link.id,
        user_id: admin.userId,
        item_id: tree.folder.id,
        attributes: {
          email: 'guest.a@example.com',
          folder: { id: tree.folder.id, name: 'Client A' },
          folder_id: tree.folder.id,
          folder_name: 'Client A',
        },
      }),
    );
    const accepted = (await eventsOf(server, admin.databaseId, 'external_share')).filter(
      (e) => e.user_id === guestId,
    );
    expect(accepted).toEqual([
      expect.objectContaining({
        action: 'create',
        user_name: 'Gina Guest',
        item_id: tree.folder.id,
        attributes: expect.objectContaining({
          email: 'guest.a@example.com',
          folder_id: tree.folder.id,
        }),
      }),
    ]);
    const fileEvents = (await eventsOf(server, admin.databaseId, 'file')).filter(
      (e) => e.user_id === guestId,
    );
    expect(fileEvents.map((e) => [e.action, e.entity_id])).toEqual([
      ['download', tree.contract.id],
      ['download', tree.statement.id],
      ['preview', tree.statement.id],
    ]);
    expect(fileEvents[0]!.attributes).toMatchObject({ file_name: 'Contract.pdf' });

    // Revoking ends access on the guest's next request.
    const revoke = await send(server, admin.cookie, 'DELETE', `/api/rest/shared/links/${link!.id}`);
    expect(revoke.statusCode).toBe(204);
    for (const url of [
      `/api/rest/shared/entities?folder_id=${tree.sub.id}`,
      `/api/rest/shared/files/${tree.contract.id}/download`,
      `/api/rest/shared/folders/${tree.sub.id}/breadcrumbs`,
    ]) {
      const ended = await send(server, guest, 'GET', url);
      expect(ended.statusCode).toBe(404);
      expect(ended.json()).toEqual({
        code: 'access_ended',
        message: 'Your access to this item has ended.',
      });
    }
    const empty = await send(server, guest, 'GET', '/api/rest/shared/entities');
    expect(empty.json<SharedEntityListResponse>().items).toEqual([]);
    // The link's tokens no longer open anything.
    expect(
      (await send(server, null, 'GET', `/api/rest/shared/invitation/${created.token}`)).statusCode,
    ).toBe(404);
    const removed = (await eventsOf(server, admin.databaseId, 'external_share')).filter(
      (e) => e.action === 'delete',
    );
    expect(removed).toContainEqual(
      expect.objectContaining({
        user_id: admin.userId,
        attributes: expect.objectContaining({
          email: 'guest.a@example.com',
          folder: { id: tree.folder.id, name: 'Client A' },
        }),
      }),
    );
  });

  it('answers a sign-up the same for an address with an account and a new one; weak passwords first', async () => {
    const file = await makeFile(server, admin, 'Uniform.txt', '', 'uniform content');
    const created = await createLink(server, admin.cookie, {
      entity_type: 'file',
      entity_id: file.id,
    });
    // An account in another firm (any firm counts) with its own password.
    const existing = 'existing.person@example.com';
    const other = await addUser(server, { username: existing, password: 'their own passphrase 7' });
    await server.services.db
      .updateTable('users')
      .set({ email: existing })
      .where('id', '=', other.userId)
      .execute();
    const fresh = 'fresh.person@example.com';

    // A weak password is refused the same way for both, before anything else is looked at.
    for (const password of ['password1234', 'aaaaaaaaaaaa']) {
      const answers = await Promise.all(
        [existing, fresh].map((email) => signUpGuest(server, created.token, email, { password })),
      );
      expect(answers[0]!.statusCode).toBe(400);
      expect(answers[0]!.json<{ code: string }>().code).toBe('weak_password');
      expect([answers[1]!.statusCode, answers[1]!.body]).toEqual([400, answers[0]!.body]);
    }
    // The address itself is in the checker's dictionary: `<username>2024` is weak.
    for (const email of [existing, fresh]) {
      const password = `${email.split('@')[0]}2024`;
      const answer = await signUpGuest(server, created.token, email, { password });
      expect(answer.statusCode).toBe(400);
      expect(answer.json<{ code: string }>().code).toBe('weak_password');
    }
    expect(
      await server.services.db
        .selectFrom('users')
        .select('id')
        .where('username_key', '=', fresh)
        .execute(),
    ).toEqual([]);

    const forExisting = await signUpGuest(server, created.token, existing);
    const forFresh = await signUpGuest(server, created.token, fresh);
    expect(forExisting.statusCode).toBe(forFresh.statusCode);
    expect(forExisting.statusCode).toBe(202);
    expect(forExisting.body).toBe(forFresh.body);
    expect(forExisting.headers['content-type']).toBe(forFresh.headers['content-type']);
    expect(forExisting.cookies).toEqual([]);
    expect(forFresh.cookies).toEqual([]);
    // Again for the now existing fresh address: still the same answer.
    const again = await signUpGuest(server, created.token, fresh);
    expect([again.statusCode, again.body]).toEqual([202, forFresh.body]);

    // The existing account is untouched and got no access: its owner signs in to reach the share.
    const guestPassword = await signInGuest(server, created.token, existing);
    expect(guestPassword.statusCode).toBe(401);
    const shares = () =>
      server.services.db
        .selectFrom('external_shares')
        .select('user_id')
        .where('link_id', '=', created.link.id)
        .execute();
    expect((await shares()).map((r) => r.user_id)).not.toContain(other.userId);
    const owner = await send(server, null, 'POST', '/api/rest/shared/signin', {
      email: existing,
      password: 'their own passphrase 7',
      inviteId: created.token,
    });
    expect(owner.statusCode).toBe(200);
    expect((await shares()).map((r) => r.user_id)).toContain(other.userId);
    // The new address got its account and share, and signs in with its password.
    expect((await signInGuest(server, created.token, fresh)).statusCode).toBe(200);
  });

  it('stores tokens hashed and never answers them after creation', async () => {
    const file = await makeFile(server, admin, 'Hashed.txt', '');
    const created = await createLink(server, admin.cookie, {
      entity_type: 'file',
      entity_id: file.id,
      emails: ['hash@example.com'],
    });
    const mail = await invitationMail(server, 'hash@example.com');
    const { db } = server.services;
    const link = await db
      .selectFrom('share_links')
      .selectAll()
      .where('id', '=', created.link.id)
      .executeTakeFirstOrThrow();
    expect(link.token_hash).toBe(sha256(created.token));
    expect(created.token.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    const invitation = await db
      .selectFrom('share_invitations')
      .selectAll()
      .where('link_id', '=', created.link.id)
      .executeTakeFirstOrThrow();
    expect(invitation.token_hash).toBe(sha256(mail.token));
    const dump = JSON.stringify([link, invitation]);
    expect(dump).not.toContain(created.token);
    expect(dump).not.toContain(mail.token);
    expect(JSON.stringify(created.link)).not.toContain(created.token);
    const list = await send(
      server,
      admin.cookie,
      'GET',
      `/api/rest/shared/links?entity_type=file&entity_id=${file.id}`,
    );
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.token);
    expect(list.body).not.toContain(mail.token);
    expect(list.body).not.toContain('token');
    const invite = await send(
      server,
      admin.cookie,
      'POST',
      `/api/rest/shared/links/${created.link.id}/invite`,
      { emails: ['hash2@example.com'] },
    );
    expect(invite.statusCode).toBe(200);
    expect(invite.body).not.toContain(created.token);
    expect(invite.body).not.toContain('url');
  });

  it('validates addresses and expiry, and refuses an expired link with 410', async () => {
    const file = await makeFile(server, admin, 'Expiring.txt', '');
    const bad = await send(server, admin.cookie, 'POST', '/api/rest/shared/links', {
      entity_type: 'file',
      entity_id: file.id,
      emails: ['good@example.com', 'not-an-address@x'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('not-an-address@x');
    const tooLate = await send(server, admin.cookie, 'POST', '/api/rest/shared/links', {
      entity_type: 'file',
      entity_id: file.id,
      emails: [],
      expires_at: new Date(server.clock.now + 91 * DAY).toISOString(),
    });
    expect(tooLate.statusCode).toBe(400);
    const defaulted = await createLink(server, admin.cookie, {
      entity_type: 'file',
      entity_id: file.id,
    });
    expect(Date.parse(defaulted.link.expires_at)).toBe(server.clock.now + 14 * DAY);

    const created = await createLink(server, admin.cookie, {
      entity_type: 'file',
      entity_id: file.id,
      emails: ['late@example.com'],
      expires_at: new Date(server.clock.now + DAY).toISOString(),
    });
    const mail = await invitationMail(server, 'late@example.com');
    const guest = await guestCookie(server, mail.token, 'late@example.com');
    const ok = await send(server, guest, 'GET', `/api/rest/shared/files/${file.id}/download`);
    expect(ok.statusCode).toBe(200);

    // Sessions end after 30 idle minutes: the administrator signs in again after the jump.
    server.clock.now += 2 * DAY;
    admin.cookie = await signIn(server);
    {
      for (const token of [created.token, mail.token]) {
        const info = await send(server, null, 'GET', `/api/rest/shared/invitation/${token}`);
        expect(info.statusCode).toBe(410);
        expect(info.json<{ message: string }>().message).toBe('This share link has expired.');
      }
      const late = await signUpGuest(server, created.token, 'later@example.com');
      expect(late.statusCode).toBe(410);
      // Access through the expired link has ended too; the dialog shows the invitation expired.
      const fresh = await send(server, null, 'POST', '/api/rest/shared/signin', {
        email: 'late@example.com',
        password: GUEST_PASSWORD,
        inviteId: mail.token,
      });
      expect(fresh.statusCode).toBe(410);
      const list = await send(
        server,
        admin.cookie,
        'GET',
        `/api/rest/shared/links?entity_type=file&entity_id=${file.id}`,
      );
      const states = list
        .json<ShareLinkListResponse>()
        .items.flatMap((l) => l.invitations.map((i) => i.state));
      expect(states).toContain('accepted');
    }
  });

  it('refuses a wrong link password and locks the link after repeated failures', async () => {
    const file = await makeFile(server, admin, 'Locked.txt', '', 'locked content');
    const created = await createLink(server, admin.cookie, {
      entity_type: 'file',
      entity_id: file.id,
      password: 'open sesame',
      allow_download: false,
    });
    expect(created.link.has_password).toBe(true);
    const info = await send(server, null, 'GET', `/api/rest/shared/invitation/${created.token}`);
    expect(info.json<InvitationInfoDto>()).toMatchObject({
      kind: 'link',
      requires_password: true,
      has_account: false,
    });
    const max = server.config.sharePasswordMaxFailures;
    for (let i = 1; i < max; i += 1) {
      const wrong = await signUpGuest(server, created.token, 'lock@example.com', {
        link_password: `wrong ${i}`,
      });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json<{ message: string }>().message).toBe('The password is not correct.');
    }
    const locking = await signUpGuest(server, created.token, 'lock@example.com', {
      link_password: 'wrong again',
    });
    expect(locking.statusCode).toBe(429);
    expect(locking.json<{ message: string }>().message).toBe(
      'Too many wrong passwords. Try again later.',
    );
    const right = await signUpGuest(server, created.token, 'lock@example.com', {
      link_password: 'open sesame',
    });
    expect(right.statusCode).toBe(429);

    server.clock.now += server.config.sharePasswordLockMs + 1000;
    admin.cookie = await signIn(server);
    {
      const after = await signUpGuest(server, created.token, 'lock@example.com', {
        link_password: 'open sesame',
      });
      expect(after.statusCode).toBe(202);
      const guest = sessionCookie(
        await signInGuest(server, created.token, 'lock@example.com', {
          link_password: 'open sesame',
        }),
      );
      // The link allows no download: preview only.
      const download = await send(
        server,
        guest,
        'GET',
        `/api/rest/shared/files/${file.id}/download`,
      );
      expect(download.statusCode).toBe(403);
      const preview = await send(server, guest, 'GET', `/api/rest/shared/files/${file.id}/preview`);
      expect(preview.statusCode).toBe(200);
      expect(preview.body).toBe('locked content');
    }
  });

  it('lets a preview of a file no browser shows through only as a download the link allows', async () => {
    const folder = await makeFolder(server, admin, 'Preview rules');
    const pdf = await makeFile(server, admin, 'Summary.pdf', folder.id, 'pdf bytes');
    const docx = await makeFile(server, admin, 'Letter.docx', folder.id, 'docx bytes');
    const viewOnly = await createLink(server, admin.cookie, {
      entity_type: 'folder',
      entity_id: folder.id,
      allow_download: false,
    });
    const viewer = await guestCookie(server, viewOnly.token, 'viewer@example.com');
    const shown = await send(server, viewer, 'GET', `/api/rest/shared/files/${pdf.id}/preview`);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-disposition']).toMatch(/^inline/);
    // The browser's media element loading what the preview shows is the same preview.
    const player = await server.app.inject({
      method: 'GET',
      url: `/api/rest/shared/files/${pdf.id}/preview`,
      headers: { cookie: viewer, 'sec-fetch-dest': 'video' },
    });
    expect(player.statusCode).toBe(200);
    // A .docx "preview" would leave as an attachment: a download this link does not allow.
    const refused = await send(server, viewer, 'GET', `/api/rest/shared/files/${docx.id}/preview`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe(SHARING_MESSAGES.downloadNotAllowed);

    const downloads = await createLink(server, admin.cookie, {
      entity_type: 'folder',
      entity_id: folder.id,
      allow_download: true,
    });
    const reader = await guestCookie(server, downloads.token, 'reader@example.com');
    const served = await send(server, reader, 'GET', `/api/rest/shared/files/${docx.id}/preview`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-disposition']).toMatch(/^attachment/);
    expect(served.body).toBe('docx bytes');

    // History: the viewer's preview, nothing for the refusal, the reader's download.
    const events = (await eventsOf(server, admin.databaseId, 'file'))
      .filter((e) => e.entity_id === pdf.id || e.entity_id === docx.id)
      .map((e) => [e.entity_id, e.action, e.attributes.download]);
    expect(events).toEqual([
      [pdf.id, 'preview', { preview: true, print: false }],
      [docx.id, 'download', { preview: false, print: false }],
    ]);
  });

  it("keeps another firm's user away from the firm's links", async () => {
    const file = await makeFile(server, admin, 'Firm only.txt', '');
    const created = await createLink(server, admin.cookie, {
      entity_type: 'file',
      entity_id: file.id,
      emails: ['firm@example.com'],
    });
    await addUser(server, {
      username: 'other-firm-admin',
      password: GUEST_PASSWORD,
      role: 'admin',
    });
    const other = await signIn(server, 'other-firm-admin', GUEST_PASSWORD);
    const id = created.link.id;
    const invitationId = created.link.invitations[0]!.id;
    const attempts: [string, 'GET' | 'POST' | 'DELETE', string, unknown?][] = [
      ['list', 'GET', `/api/rest/shared/links?entity_type=file&entity_id=${file.id}`],
      ['accept', 'POST', `/api/rest/shared/links/${id}/accept`, { token: created.token }],
      ['invite', 'POST', `/api/rest/shared/links/${id}/invite`, { emails: ['x@example.com'] }],
      ['cancel', 'DELETE', `/api/rest/shared/links/${id}/invitations/${invitationId}`],
      ['revoke', 'DELETE', `/api/rest/shared/links/${id}`],
      [
        'create',
        'POST',
        '/api/rest/shared/links',
        { entity_type: 'file', entity_id: file.id, emails: [] },
      ],
      ['download', 'GET', `/api/rest/shared/files/${file.id}/download`],
    ];
    for (const [name, method, url, payload] of attempts) {
      const response = await send(server, other, method, url, payload);
      expect({ name, status: response.statusCode }).toEqual({ name, status: 404 });
    }
    const overview = await send(server, other, 'GET', '/api/rest/entities/shared');
    expect(overview.json<SharedOverviewResponse>()).toEqual({
      shared_with_me: [],
      shared_by_me: [],
    });
    const still = await send(server, null, 'GET', `/api/rest/shared/invitation/${created.token}`);
    expect(still.statusCode).toBe(200);
  });

  it('shares with a colleague of the firm without sign-up (accept, shared lists)', async () => {
    const folder = await makeFolder(server, admin, 'Team folder');
    await makeFile(server, admin, 'Plan.txt', folder.id, 'the plan');
    await addUser(server, {
      username: 'colleague',
      password: GUEST_PASSWORD,
      databaseId: admin.databaseId,
    });
    const colleague = await signIn(server, 'colleague', GUEST_PASSWORD);
    const created = await createLink(server, admin.cookie, {
      entity_type: 'folder',
      entity_id: folder.id,
    });
    const wrongLink = await send(server, colleague, 'POST', '/api/rest/shared/links/nope/accept', {
      token: created.token,
    });
    expect(wrongLink.statusCode).toBe(404);
    // The invitation page names the link to accept (the id alone grants nothing).
    const info = await send(server, null, 'GET', `/api/rest/shared/invitation/${created.token}`);
    expect(info.json<InvitationInfoDto>().link_id).toBe(created.link.id);
    const accept = await send(
      server,
      colleague,
      'POST',
      `/api/rest/shared/links/${info.json<InvitationInfoDto>().link_id}/accept`,
      { token: created.token },
    );
    expect(accept.statusCode).toBe(200);
    expect(accept.json()).toMatchObject({
      share: { entity_type: 'folder', id: folder.id, name: 'Team folder', folder_id: '' },
    });
    const mine = await send(server, colleague, 'GET', '/api/rest/entities/shared');
    expect(mine.statusCode).toBe(200);
    expect(mine.json<SharedOverviewResponse>().shared_with_me).toContainEqual(
      expect.objectContaining({ id: folder.id, shared_by_name: expect.any(String) }),
    );
    const inside = await send(
      server,
      colleague,
      'GET',
      `/api/rest/shared_entities?folder_id=${folder.id}`,
    );
    expect(inside.json<SharedEntityListResponse>().items.map((i) => i.name)).toEqual(['Plan.txt']);
    const byMe = await send(server, admin.cookie, 'GET', '/api/rest/entities/shared');
    expect(byMe.json<SharedOverviewResponse>().shared_by_me).toContainEqual(
      expect.objectContaining({ id: folder.id, recipient_email: 'colleague' }),
    );
    // Signing in through the share lands on /sharing/shared and keeps the member's role.
    const signin = await send(server, null, 'POST', '/api/rest/shared/signin', {
      email: 'colleague',
      password: GUEST_PASSWORD,
      inviteId: created.token,
    });
    expect(signin.statusCode).toBe(200);
    expect(signin.json()).toEqual({ landing: '/sharing/shared' });
    const session = sessionCookie(signin);
    expect((await send(server, session, 'GET', '/api/rest/entities?folder_id=')).statusCode).toBe(
      200,
    );
    // A wrong password gets the sign-in's answer.
    const wrong = await send(server, null, 'POST', '/api/rest/shared/signin', {
      email: 'colleague',
      password: 'not the password',
      inviteId: created.token,
    });
    expect(wrong.statusCode).toBe(401);
  });

  it("lists every link in Shared by me with each recipient's state, and copies a link again", async () => {
    const folder = await makeFolder(server, admin, 'By me folder');
    const file = await makeFile(server, admin, 'By me.txt', '', 'by me');
    const revokedFile = await makeFile(server, admin, 'Revoked by me.txt', '', 'revoked');
    const expiredFile = await makeFile(server, admin, 'Expired by me.txt', '', 'expired');
    const invited = await createLink(server, admin.cookie, {
      entity_type: 'folder',
      entity_id: folder.id,
      emails: ['bm-pending@example.com', 'bm-cancel@example.com', 'bm-accept@example.com'],
    });
    const open = await createLink(server, admin.cookie, {
      entity_type: 'file',
      entity_id: file.id,
    });
    const revoked = await createLink(server, admin.cookie, {
      entity_type: 'file',
      entity_id: revokedFile.id,
      emails: ['bm-revoked@example.com'],
    });
    const expired = await createLink(server, admin.cookie, {
      entity_type: 'file',
      entity_id: expiredFile.id,
      emails: ['bm-expired@example.com'],
    });
    const byMe = async () =>
      (await send(server, admin.cookie, 'GET', '/api/rest/entities/shared'))
        .json<SharedOverviewResponse>()
        .shared_by_me.filter((row) =>
          [invited, open, revoked, expired].some((l) => l.link.id === row.link_id),
        )
        .map((row) => ({
          link: row.link_id,
          name: row.name,
          to: row.recipient_email,
          state: row.share_state,
          removable: row.share_id !== '',
          live: row.link_live,
        }));
    // Right after sharing: every invitation is pending, the link with no address too.
    const fresh = await byMe();
    expect(fresh).toHaveLength(6);
    expect(fresh).toEqual(
      expect.arrayContaining([
        {
          link: invited.link.id,
          name: 'By me folder',
          to: 'bm-pending@example.com',
          state: 'pending',
          live: true,
          removable: false,
        },
        {
          link: open.link.id,
          name: 'By me.txt',
          to: '',
          state: 'pending',
          live: true,
          removable: false,
        },
      ]),
    );

    const accepted = await invitationMail(server, 'bm-accept@example.com');
    await guestCookie(server, accepted.token, 'bm-accept@example.com');
    const cancelId = invited.link.invitations.find((i) => i.email === 'bm-cancel@example.com')!.id;
    expect(
      (
        await send(
          server,
          admin.cookie,
          'DELETE',
          `/api/rest/shared/links/${invited.link.id}/invitations/${cancelId}`,
        )
      ).statusCode,
    ).toBe(204);
    expect(
      (await send(server, admin.cookie, 'DELETE', `/api/rest/shared/links/${revoked.link.id}`))
        .statusCode,
    ).toBe(204);
    await server.services.db
      .updateTable('share_links')
      .set({ expires_at: new Date(Date.now() - DAY).toISOString() })
      .where('id', '=', expired.link.id)
      .execute();
    const later = await byMe();
    expect(later).toHaveLength(6);
    expect(later).toEqual(
      expect.arrayContaining([
        {
          link: invited.link.id,
          name: 'By me folder',
          to: 'bm-pending@example.com',
          state: 'pending',
          live: true,
          removable: false,
        },
        {
          link: invited.link.id,
          name: 'By me folder',
          to: 'bm-cancel@example.com',
          state: 'cancelled',
          live: true,
          removable: false,
        },
        {
          link: invited.link.id,
          name: 'By me folder',
          to: 'bm-accept@example.com',
          state: 'accepted',
          live: true,
          removable: true,
        },
        {
          link: open.link.id,
          name: 'By me.txt',
          to: '',
          state: 'pending',
          live: true,
          removable: false,
        },
        {
          link: revoked.link.id,
          name: 'Revoked by me.txt',
          to: 'bm-revoked@example.com',
          state: 'revoked',
          live: false,
          removable: false,
        },
        {
          link: expired.link.id,
          name: 'Expired by me.txt',
          to: 'bm-expired@example.com',
          state: 'expired',
          live: false,
          removable: false,
        },
      ]),
    );
    const shareId = (await send(server, admin.cookie, 'GET', '/api/rest/entities/shared'))
      .json<SharedOverviewResponse>()
      .shared_by_me.find((row) => row.recipient_email === 'bm-accept@example.com')!.share_id;
    expect(
      (await send(server, admin.cookie, 'DELETE', `/api/rest/shared/entities/${shareId}`))
        .statusCode,
    ).toBe(204);
    expect(await byMe()).toContainEqual(
      expect.objectContaining({ to: 'bm-accept@example.com', state: 'removed', removable: false }),
    );

    // Copying a link again gives it a new token: the old URL stops working, the new one works.
    const reissue = await send(
      server,
      admin.cookie,
      'POST',
      `/api/rest/shared/links/${open.link.id}/reissue`,
    );
    expect(reissue.statusCode).toBe(200);
    const newToken = tokenOf(reissue.json<{ url: string }>().url);
    expect(newToken).not.toBe(open.token);
    expect(
      (await send(server, null, 'GET', `/api/rest/shared/invitation/${open.token}`)).statusCode,
    ).toBe(404);
    const info = await send(server, null, 'GET', `/api/rest/shared/invitation/${newToken}`);
    expect(info.statusCode).toBe(200);
    expect(info.json<InvitationInfoDto>().link_id).toBe(open.link.id);
    const stored = await server.services.db
      .selectFrom('share_links')
      .select('token_hash')
      .where('id', '=', open.link.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(sha256(newToken));
    const events = (await eventsOf(server, admin.databaseId, 'share_link')).filter(
      (e) => e.entity_id === open.link.id,
    );
    expect(events).toEqual([
      expect.objectContaining({
        action: 'create',
        item_id: file.id,
        attributes: expect.objectContaining({ reissued: true, file_name: 'By me.txt' }),
      }),
    ]);
    // A revoked or expired link is not copied again; the invitations e-mailed still work.
    const again = (id: string) =>
      send(server, admin.cookie, 'POST', `/api/rest/shared/links/${id}/reissue`);
    expect((await again(revoked.link.id)).statusCode).toBe(409);
    expect((await again(expired.link.id)).statusCode).toBe(410);
    expect((await again('no-such-link')).statusCode).toBe(404);
    const reissueInvited = await again(invited.link.id);
    expect(reissueInvited.statusCode).toBe(200);
    const pending = await invitationMail(server, 'bm-pending@example.com');
    expect(
      (await send(server, null, 'GET', `/api/rest/shared/invitation/${pending.token}`)).statusCode,
    ).toBe(200);
  });

  it('re-sends, cancels invitations and removes access, with their history events', async () => {
    const file = await makeFile(server, admin, 'Managed.txt', '', 'managed');
    const created = await createLink(server, admin.cookie, {
      entity_type: 'file',
      entity_id: file.id,
      emails: ['resend@example.com', 'cancel@example.com'],
    });
    const first = await invitationMail(server, 'resend@example.com');
    const resend = await send(
      server,
      admin.cookie,
      'POST',
      `/api/rest/shared/links/${created.link.id}/invite`,
      { emails: ['resend@example.com'] },
    );
    expect(resend.statusCode).toBe(200);
    const second = await invitationMail(server, 'resend@example.com');
    expect(second.token).not.toBe(first.token);
    expect(
      (await send(server, null, 'GET', `/api/rest/shared/invitation/${first.token}`)).statusCode,
    ).toBe(404);

    const cancelMail = await invitationMail(server, 'cancel@example.com');
    const cancelId = created.link.invitations.find((i) => i.email === 'cancel@example.com')!.id;
    const cancel = await send(
      server,
      admin.cookie,
      'DELETE',
      `/api/rest/shared/links/${created.link.id}/invitations/${cancelId}`,
    );
    expect(cancel.statusCode).toBe(204);
    expect((await signUpGuest(server, cancelMail.token, 'cancel@example.com')).statusCode).toBe(
      404,
    );
    const link = resend.json<{ link: ShareLinkDto }>().link;
    expect(link.invitations.map((i) => i.email).sort()).toEqual([
      'cancel@example.com',
      'resend@example.com',
    ]);

    const guest = await guestCookie(server, second.token, 'resend@example.com');
    // The guest signs in again later through the same invitation (has_account now true).
    const info = await send(server, null, 'GET', `/api/rest/shared/invitation/${second.token}`);
    expect(info.json<InvitationInfoDto>()).toMatchObject({ has_account: true, state: 'accepted' });
    const again = await send(server, null, 'POST', '/api/rest/shared/signin', {
      email: 'Resend@Example.com',
      password: GUEST_PASSWORD,
      inviteId: second.token,
    });
    expect(again.statusCode).toBe(200);
    // A guest signing in the normal way gets a guest session too.
    const normal = await signIn(server, 'resend@example.com', GUEST_PASSWORD);
    expect((await send(server, normal, 'GET', '/api/rest/entities?folder_id=')).statusCode).toBe(
      404,
    );
    expect((await send(server, normal, 'GET', '/api/rest/shared/entities')).statusCode).toBe(200);

    const list = await send(
      server,
      admin.cookie,
      'GET',
      `/api/rest/shared/links?entity_type=file&entity_id=${file.id}`,
    );
    const [current] = list.json<ShareLinkListResponse>().items;
    expect(current!.shares).toHaveLength(1);
    const states = Object.fromEntries(current!.invitations.map((i) => [i.email, i.state]));
    expect(states).toEqual({ 'resend@example.com': 'accepted', 'cancel@example.com': 'cancelled' });

    const remove = await send(
      server,
      admin.cookie,
      'DELETE',
      `/api/rest/shared/entities/${current!.shares[0]!.id}`,
    );
    expect(remove.statusCode).toBe(204);
    const ended = await send(server, guest, 'GET', `/api/rest/shared/files/${file.id}/download`);
    expect(ended.statusCode).toBe(404);
    expect(ended.json<{ code: string }>().code).toBe('access_ended');

    const fileAttrs = { file: { id: file.id, name: 'Managed.txt' }, file_name: 'Managed.txt' };
    const linkEvents = (await eventsOf(server, admin.databaseId, 'share_link')).filter(
      (e) => e.entity_id === created.link.id,
    );
    expect(linkEvents.map((e) => [e.action, e.attributes])).toEqual([
      ['create', { email: 'resend@example.com', ...fileAttrs }],
      ['create', { email: 'cancel@example.com', ...fileAttrs }],
      ['create', { email: 'resend@example.com', ...fileAttrs }],
      ['delete', { email: 'cancel@example.com', ...fileAttrs }],
    ]);
    const shareEvents = (await eventsOf(server, admin.databaseId, 'external_share')).filter(
      (e) => e.entity_id === current!.shares[0]!.id,
    );
    expect(shareEvents.map((e) => [e.action, e.user_name, e.item_id, e.attributes])).toEqual([
      ['create', 'Gina Guest', file.id, { email: 'resend@example.com', ...fileAttrs }],
      ['delete', expect.any(String), file.id, { email: 'resend@example.com', ...fileAttrs }],
    ]);
  });

  it('keeps the invitation and answers mail_failed when the e-mail cannot be sent', async () => {
    const failing = await startTestServer(kind, { env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      const cookie = await signIn(failing);
      const actor = await adminActor(failing);
      const file = await makeFile(failing, actor, 'Unsent.txt', '');
      const response = await send(failing, cookie, 'POST', '/api/rest/shared/links', {
        entity_type: 'file',
        entity_id: file.id,
        emails: ['unsent@example.com'],
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        mail_failed: true,
        link: { invitations: [expect.objectContaining({ state: 'sent' })] },
      });
    } finally {
      await failing.close();
    }
  });

  it('never offers a guest as a permissionable nor lets one be given a folder permission', async () => {
    const folder = await makeFolder(server, admin, 'Client Perm');
    const created = await createLink(server, admin.cookie, {
      entity_type: 'folder',
      entity_id: folder.id,
      emails: ['perm.guest@example.com'],
    });
    expect(created.link.invitations).toHaveLength(1);
    const mail = await invitationMail(server, 'perm.guest@example.com');
    await guestCookie(server, mail.token, 'perm.guest@example.com');
    const guestId = (
      await server.services.db
        .selectFrom('users')
        .select('id')
        .where('username_key', '=', 'perm.guest@example.com')
        .executeTakeFirstOrThrow()
    ).id;

    const listed = await send(server, admin.cookie, 'GET', '/api/rest/private/permissionables');
    expect(listed.statusCode).toBe(200);
    const ids = listed.json<{ permissionable_id: string }[]>().map((p) => p.permissionable_id);
    expect(ids).toContain(admin.userId);
    expect(ids).not.toContain(guestId);

    const given = await send(server, admin.cookie, 'POST', '/api/rest/folder_permissions', {
      folder_id: folder.id,
      permissionables: [{ permissionable_id: guestId, permissionable_type: 'user' }],
    });
    // A guest is no member of the firm: the same answer as a user of another firm.
    expect(given.statusCode).toBe(404);
    expect(given.json()).toEqual({ message: MESSAGES.notFound, code: 'not_found' });
  });
});

describe('sharing feature flag', () => {
  it('answers 404 on every share route when sharing is off', async () => {
    const server = await startTestServer('sqlite', { env: { FEATURE_FLAGS: 'sharing=0' } });
    try {
      const cookie = await signIn(server);
      for (const [method, url] of [
        ['POST', '/api/rest/shared/links'],
        ['GET', '/api/rest/shared/links?entity_type=file&entity_id=x'],
        ['POST', '/api/rest/shared/links/x/reissue'],
        ['GET', '/api/rest/shared/entities'],
        ['GET', '/api/rest/entities/shared'],
        ['GET', '/api/rest/shared/invitation/some-token'],
        ['POST', '/api/rest/shared/signup'],
      ] as const) {
        for (const who of [cookie, null]) {
          const response = await send(server, who, method, url, method === 'POST' ? {} : undefined);
          expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
        }
      }
    } finally {
      await server.close();
    }
  });
});
