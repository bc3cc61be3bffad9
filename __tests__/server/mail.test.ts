/**
 * Invitation e-mail: without SMTP_URL each message is one JSON file in
 * DATA_DIR/outbox (written atomically, logged with recipient and subject only), read by the firm's
 * administrators through GET REST/private/outbox(/:id); with SMTP_URL a real SMTP round trip to an
 * `smtp-server` on a free port, and a refusing or unreachable server makes `send` reject clearly.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { loadConfig, type Config } from '@server/config';
import {
  listOutbox,
  mailerFor,
  readOutboxMessage,
  type OutboxMessage,
  type OutboxSummary,
} from '@server/services/mail';
import { seededAdmin } from './historyHelpers';
import { addUser, describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { DEFAULT_PAGE_SIZE } from '@common/constants';
import type { Page } from '@common/api';

const PASSWORD = 'mail test password';
const LINK = 'http://localhost:3000/sharing/invitation/Zk3v9QmE1o2Rr7pXbW4tYc8uNa6sLd0fHjKgTe5iVqA';
const TEXT = `Ada Adviser shared the folder "Statements 2024" with you.\n\nPlease sign.\n\nOpen it: ${LINK}\n`;

/** A configuration on a fresh DATA_DIR with the given extra environment. */
function configWith(env: Record<string, string> = {}): { config: Config; dataDir: string } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-mail-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret',
    LOG_LEVEL: 'silent',
    ...env,
  });
  return { config, dataDir };
}

describe('outbox mailer (no SMTP_URL)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    jest.restoreAllMocks();
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is made once per config object', () => {
    const a = configWith();
    const b = configWith();
    dirs.push(a.dataDir, b.dataDir);
    expect(mailerFor(a.config)).toBe(mailerFor(a.config));
    expect(mailerFor(a.config)).not.toBe(mailerFor(b.config));
  });

  it('writes each message as one JSON file, lists them newest first and reads one by id', async () => {
    const { config, dataDir } = configWith({ MAIL_FROM: 'Dossier <invite@dossier.test>' });
    dirs.push(dataDir);
    expect(await listOutbox(config)).toEqual([]);
    const mailer = mailerFor(config);
    await mailer.send({
      database_id: 'firm-a',
      to: 'one@example.com',
      subject: 'First',
      text: TEXT,
    });
    await mailer.send({
      database_id: 'firm-b',
      to: 'two@example.com',
      subject: 'Second',
      text: 'B',
    });
    await mailer.send({
      database_id: 'firm-a',
      to: 'three@example.com',
      subject: 'Third',
      text: 'C',
    });

    const files = readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(3);
    for (const file of files) expect(file).toMatch(/^[0-9a-f-]{36}\.json$/);
    const first = JSON.parse(
      readFileSync(path.join(dataDir, 'outbox', [...files].sort()[0]!), 'utf8'),
    ) as OutboxMessage;
    expect(first).toMatchObject({
      database_id: 'firm-a',
      from: 'Dossier <invite@dossier.test>',
      to: 'one@example.com',
      subject: 'First',
      text: TEXT,
    });
    expect(new Date(first.created_at).toISOString()).toBe(first.created_at);

    expect((await listOutbox(config)).map((m) => m.subject)).toEqual(['Third', 'Second', 'First']);
    expect((await listOutbox(config, 'firm-a')).map((m) => m.subject)).toEqual(['Third', 'First']);
    expect(await readOutboxMessage(config, first.id)).toEqual(first);
    expect(await readOutboxMessage(config, '0190c3a2-0000-7000-8000-000000000000')).toBeNull();
    expect(await readOutboxMessage(config, '../secret')).toBeNull();
  });

  it('logs the recipient and the subject, never the body', async () => {
    const { config, dataDir } = configWith({ LOG_LEVEL: 'info' });
    dirs.push(dataDir);
    const info = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    await mailerFor(config).send({
      database_id: 'firm-a',
      to: 'guest@example.com',
      subject: 'Ada Adviser shared a folder with you',
      text: TEXT,
    });
    const lines = info.mock.calls.map((call) => call.map(String).join(' '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('guest@example.com');
    expect(lines[0]).toContain('Ada Adviser shared a folder with you');
    expect(lines[0]).toContain('outbox');
    expect(lines[0]).not.toContain(LINK);
    expect(lines[0]).not.toContain('Please sign');
  });

  it('rejects with a clear error when the outbox cannot be written', async () => {
    const { config, dataDir } = configWith();
    dirs.push(dataDir);
    // A file where the outbox folder should be.
    writeFileSync(path.join(dataDir, 'outbox'), 'not a folder');
    await expect(
      mailerFor(config).send({ database_id: 'f', to: 'x@example.com', subject: 'S', text: 'T' }),
    ).rejects.toMatchObject({
      status: 502,
      code: 'mail_not_sent',
      message: expect.stringMatching(/^The e-mail to x@example\.com could not be sent: /),
    });
  });
});

describeEachDatabase('outbox routes', (kind) => {
  let server: TestServer;
  let adminCookie: string;
  let memberCookie: string;
  let readOnlyCookie: string;
  let otherCookie: string;
  let databaseId: string;
  let otherDatabaseId: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    databaseId = (await seededAdmin(server.services.db)).databaseId;
    adminCookie = await signIn(server);
    await addUser(server, { username: 'mail-member', password: PASSWORD, databaseId });
    memberCookie = await signIn(server, 'mail-member', PASSWORD);
    await addUser(server, {
      username: 'mail-reader',
      password: PASSWORD,
      databaseId,
      role: 'read_only',
    });
    readOnlyCookie = await signIn(server, 'mail-reader', PASSWORD);
    const other = await addUser(server, {
      username: 'mail-other',
      password: PASSWORD,
      role: 'admin',
    });
    otherDatabaseId = other.databaseId;
    otherCookie = await signIn(server, 'mail-other', PASSWORD);
  });
  afterAll(async () => {
    await server.close();
  });

  const get = (url: string, cookie: string) =>
    server.app.inject({ method: 'GET', url, headers: { cookie } });

  it('answers an empty page before any message', async () => {
    const response = await get('/api/rest/private/outbox', adminCookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ items: [], page: 1, page_size: DEFAULT_PAGE_SIZE, total: 0 });
  });

  it("shows administrators their firm's messages, newest first and paged; text only by id", async () => {
    const mailer = mailerFor(server.config);
    for (const n of [1, 2, 3]) {
      await mailer.send({
        database_id: databaseId,
        to: `guest${n}@example.com`,
        subject: `Invitation ${n}`,
        text: `${TEXT}#${n}`,
      });
    }
    await mailer.send({
      database_id: otherDatabaseId,
      to: 'elsewhere@example.com',
      subject: 'Other firm',
      text: 'Other firm text',
    });

    const page1 = await get('/api/rest/private/outbox?page=1&page_size=2', adminCookie);
    expect(page1.statusCode).toBe(200);
    const body1 = page1.json<Page<OutboxSummary>>();
    expect(body1).toMatchObject({ page: 1, page_size: 2, total: 3 });
    expect(body1.items.map((m) => [m.to, m.subject])).toEqual([
      ['guest3@example.com', 'Invitation 3'],
      ['guest2@example.com', 'Invitation 2'],
    ]);
    expect(body1.items[0]).not.toHaveProperty('text');
    expect(body1.items[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    const page2 = await get('/api/rest/private/outbox?page=2&page_size=2', adminCookie);
    expect(page2.json<Page<OutboxSummary>>().items.map((m) => m.subject)).toEqual(['Invitation 1']);

    const one = await get(`/api/rest/private/outbox/${body1.items[0]!.id}`, adminCookie);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({
      id: body1.items[0]!.id,
      to: 'guest3@example.com',
      subject: 'Invitation 3',
      text: `${TEXT}#3`,
    });
  });

  it('refuses members and read-only members with 403', async () => {
    const [message] = await listOutbox(server.config, databaseId);
    for (const cookie of [memberCookie, readOnlyCookie]) {
      const list = await get('/api/rest/private/outbox', cookie);
      expect(list.statusCode).toBe(403);
      expect(list.json()).toMatchObject({ code: 'admin_only' });
      expect((await get(`/api/rest/private/outbox/${message!.id}`, cookie)).statusCode).toBe(403);
    }
  });

  it("keeps firms apart: another firm's administrator sees only their own messages", async () => {
    const list = await get('/api/rest/private/outbox', otherCookie);
    expect(list.statusCode).toBe(200);
    const items = list.json<Page<OutboxSummary>>().items;
    expect(items.map((m) => m.subject)).toEqual(['Other firm']);
    const [ours] = await listOutbox(server.config, databaseId);
    expect((await get(`/api/rest/private/outbox/${ours!.id}`, otherCookie)).statusCode).toBe(404);
    const theirs = await get(`/api/rest/private/outbox/${items[0]!.id}`, adminCookie);
    expect(theirs.statusCode).toBe(404);
  });

  it('answers 404 for an unknown or malformed id and 401 without a session', async () => {
    expect(
      (await get('/api/rest/private/outbox/0190c3a2-0000-7000-8000-000000000000', adminCookie))
        .statusCode,
    ).toBe(404);
    expect((await get('/api/rest/private/outbox/..%2Fsecret', adminCookie)).statusCode).toBe(404);
    const anon = await server.app.inject({ method: 'GET', url: '/api/rest/private/outbox' });
    expect(anon.statusCode).toBe(401);
  });
});

/** A received message: envelope and the raw RFC 5322 text. */
interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** Starts an SMTP server on a free local port (no TLS, no auth), collecting what it receives. */
async function startSmtp(
  options: Partial<SMTPServerOptions> = {},
): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(resolve)) };
}

/** Decodes quoted-printable text (`=XX` escapes, soft line breaks). */
function decodeQp(text: string): string {
  const bytes = text
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Unfolded headers with RFC 2047 encoded words (Q or B, UTF-8) decoded. */
function decodeHeaders(text: string): string {
  return text
    .replace(/\r\n[ \t]+/g, ' ')
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_m, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQp(data.replace(/_/g, ' ')),
    )
    .replace(/\r\n/g, '\n');
}

/** The decoded headers and text body of a single-part message (7bit, quoted-printable or base64). */
function bodyOf(raw: string): { headers: string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = decodeHeaders(raw.slice(0, split));
  let body = raw.slice(split + 4);
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    body = decodeQp(body);
  } else if (/content-transfer-encoding:\s*base64/i.test(headers)) {
    body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { headers, body: body.replace(/\r\n/g, '\n') };
}

describe('SMTP mailer (SMTP_URL set)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('delivers the message to a real SMTP server with subject, recipient and link intact', async () => {
    const smtp = await startSmtp();
    try {
      const { config, dataDir } = configWith({
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Dossier <invite@dossier.test>',
      });
      dirs.push(dataDir);
      await mailerFor(config).send({
        database_id: 'firm-a',
        to: 'guest@example.com',
        subject: 'Ada Adviser shared "Statements 2024" with you',
        text: TEXT,
      });
      expect(smtp.received).toHaveLength(1);
      const [message] = smtp.received;
      expect(message!.from).toBe('invite@dossier.test');
      expect(message!.to).toEqual(['guest@example.com']);
      const { headers, body } = bodyOf(message!.raw);
      expect(headers).toMatch(/^Subject: Ada Adviser shared "Statements 2024" with you$/m);
      expect(headers).toMatch(/^To: guest@example\.com$/m);
      expect(headers).toMatch(/^From: Dossier <invite@dossier\.test>$/m);
      expect(body).toContain(LINK);
      expect(body).toContain('Please sign.');
      // Nothing goes to the outbox when SMTP is configured.
      expect(await listOutbox(config)).toEqual([]);
    } finally {
      await smtp.close();
    }
  });

  it('rejects with a clear error when the server refuses the recipient', async () => {
    const smtp = await startSmtp({
      onRcptTo(_address, _session, callback) {
        const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
        callback(error);
      },
    });
    try {
      const { config, dataDir } = configWith({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
      dirs.push(dataDir);
      await expect(
        mailerFor(config).send({
          database_id: 'f',
          to: 'nobody@example.com',
          subject: 'S',
          text: 'T',
        }),
      ).rejects.toMatchObject({
        status: 502,
        code: 'mail_not_sent',
        message: expect.stringMatching(
          /^The e-mail to nobody@example\.com could not be sent: .*Mailbox unavailable/,
        ),
      });
      expect(smtp.received).toEqual([]);
    } finally {
      await smtp.close();
    }
  });

  it('rejects with a clear error when no server answers', async () => {
    const smtp = await startSmtp();
    const { port } = smtp;
    await smtp.close();
    const { config, dataDir } = configWith({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    dirs.push(dataDir);
    await expect(
      mailerFor(config).send({ database_id: 'f', to: 'x@example.com', subject: 'S', text: 'T' }),
    ).rejects.toMatchObject({
      code: 'mail_not_sent',
      message: expect.stringMatching(
        /^The e-mail to x@example\.com could not be sent: .*ECONNREFUSED/,
      ),
    });
  });
});
