/**
 * Outgoing e-mail: invitations go through nodemailer to SMTP_URL; without it each
 * message is written as one JSON file to the outbox in DATA_DIR/outbox, which the firm's
 * administrators read in the app (GET REST/private/outbox) — so the embedded default works without
 * a mail server. Either way one log line names the recipient and the subject, never the body (it
 * holds a sign-in link).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Page } from '@common/api';
import type { Config } from '../config';
import { AppError, notFound } from '../errors';
import type { OutboxMessageDto, OutboxSummaryDto } from '@common/outbox';
import { newId } from '../ids';
import { assertAdmin } from './access';
import type { RequestContext, Services } from './context';

/**
 * One message to send. Text is required; html is optional. `database_id` is the firm the message
 * is sent for: only that firm's administrators see it in the outbox.
 */
export interface MailMessage {
  database_id: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** A message as stored in the outbox (one JSON file), as the message route answers it. */
export type OutboxMessage = OutboxMessageDto;

/** An outbox message as the list route answers it: without the body. */
export type OutboxSummary = OutboxSummaryDto;

/** Sends mail; `send` resolves once the message is accepted by the server or written to the outbox. */
export interface Mailer {
  /**
   * Sends one message.
   * @throws AppError 502 `mail_not_sent` ("The e-mail to <to> could not be sent: <reason>") when
   *   the SMTP server refuses it or cannot be reached, or the outbox cannot be written
   */
  send(message: MailMessage): Promise<void>;
}

/** The outbox folder of a configuration: `${DATA_DIR}/outbox`. */
export function outboxDir(config: Config): string {
  return path.join(config.dataDir, 'outbox');
}

/** Outbox file names are `<UUIDv7>.json`: they sort by time. Anything else is ignored. */
const OUTBOX_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/;

/** One log line per message: recipient and subject only. Silent when LOG_LEVEL is silent. */
function logMail(config: Config, line: string): void {
  if (config.logLevel !== 'silent') console.info(`[mail] ${line}`);
}

function mailNotSent(to: string, cause: unknown): AppError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const error = new AppError(
    502,
    'mail_not_sent',
    `The e-mail to ${to} could not be sent: ${reason}`,
  );
  error.cause = cause;
  return error;
}

/** Writes each message atomically (temp file, then rename) to the outbox and logs it. */
class OutboxMailer implements Mailer {
  constructor(private readonly config: Config) {}

  async send(message: MailMessage): Promise<void> {
    const id = newId();
    const stored: OutboxMessage = {
      id,
      database_id: message.database_id,
      from: this.config.mailFrom,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html === undefined ? {} : { html: message.html }),
      created_at: new Date().toISOString(),
    };
    const dir = outboxDir(this.config);
    const file = path.join(dir, `${id}.json`);
    const temp = path.join(dir, `.${id}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(temp, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600 });
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw mailNotSent(message.to, error);
    }
    logMail(
      this.config,
      `to ${message.to}, subject "${message.subject}": written to the outbox (${id}.json)`,
    );
  }
}

/**
 * Timeouts of the SMTP connection in ms, so that an unresponsive server fails a share within
 * seconds instead of minutes. Query parameters of SMTP_URL (e.g. `?connectionTimeout=30000`) win.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Sends each message through the SMTP server of SMTP_URL, from MAIL_FROM. */
class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly config: Config) {
    this.transport = nodemailer.createTransport(
      { url: config.smtpUrl ?? '', ...SMTP_TIMEOUTS },
      { from: config.mailFrom },
    );
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.config.mailFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
      });
    } catch (error) {
      logMail(this.config, `to ${message.to}, subject "${message.subject}": not sent`);
      throw mailNotSent(message.to, error);
    }
    logMail(this.config, `to ${message.to}, subject "${message.subject}": sent through SMTP`);
  }
}

const mailers = new WeakMap<Config, Mailer>();

/**
 * The mailer for a configuration, made once per config object: SMTP through nodemailer when
 * `config.smtpUrl` is set (from `config.mailFrom`), else the outbox in `${config.dataDir}/outbox`.
 */
export function mailerFor(config: Config): Mailer {
  let mailer = mailers.get(config);
  if (!mailer) {
    mailer = config.smtpUrl ? new SmtpMailer(config) : new OutboxMailer(config);
    mailers.set(config, mailer);
  }
  return mailer;
}

async function readMessageFile(file: string): Promise<OutboxMessage | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as OutboxMessage;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The outbox's messages, newest first (by file name, a time-ordered id).
 * @param databaseId when given, only the messages sent for that firm
 * @returns [] when the outbox folder does not exist yet
 */
export async function listOutbox(config: Config, databaseId?: string): Promise<OutboxMessage[]> {
  let names: string[];
  try {
    names = await readdir(outboxDir(config));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = names
    .filter((name) => OUTBOX_FILE.test(name))
    .sort()
    .reverse();
  const messages = await Promise.all(
    files.map((name) => readMessageFile(path.join(outboxDir(config), name))),
  );
  return messages.filter(
    (message): message is OutboxMessage =>
      message !== null && (databaseId === undefined || message.database_id === databaseId),
  );
}

/**
 * One outbox message by id.
 * @returns null for an id that is not an outbox file name or a message that does not exist
 */
export function readOutboxMessage(config: Config, id: string): Promise<OutboxMessage | null> {
  const name = `${id}.json`;
  if (!OUTBOX_FILE.test(name)) return Promise.resolve(null);
  return readMessageFile(path.join(outboxDir(config), name));
}

/**
 * A page of the session firm's outbox, newest first, without bodies (administrators only).
 * @param page from 1; @param pageSize messages per page
 * @throws AppError 403 admin_only for anyone but an administrator
 */
export async function outboxPage(
  services: Services,
  ctx: RequestContext,
  page: number,
  pageSize: number,
): Promise<Page<OutboxSummary>> {
  assertAdmin(ctx);
  const all = await listOutbox(services.config, ctx.databaseId);
  const items = all
    .slice((page - 1) * pageSize, page * pageSize)
    .map(({ text: _text, html: _html, ...summary }) => summary);
  return { items, page, page_size: pageSize, total: all.length };
}

/**
 * One message of the session firm's outbox, with its text (administrators only).
 * @throws AppError 403 admin_only for anyone but an administrator; 404 for an unknown id or a
 *   message of another firm
 */
export async function outboxMessage(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<OutboxMessage> {
  assertAdmin(ctx);
  const message = await readOutboxMessage(services.config, id);
  if (!message || message.database_id !== ctx.databaseId) throw notFound();
  return message;
}
