/**
 * The e-mails of document requests (docs/architecture.md "Document requests"): one row of
 * `document_request_reminders` per e-mail to one recipient — on creation, REMINDER days before
 * the due day, on the due day, when an item is rejected, and when an advisor sends one by hand.
 * Rows are written in the transaction of their cause; a sender claims a row in one guarded update
 * before sending, so each goes out once whichever instance sends it. A row whose request is no
 * longer open when it falls due is skipped (none after completion, cancellation or expiry). A
 * failed send gives the row back with its error, up to MAX_ATTEMPTS; the periodic job
 * (startRequestJobs) sends what is due and records the expiry of requests whose links ended.
 */
import type { FastifyBaseLogger } from 'fastify';
import { PRODUCT_NAME } from '@common/constants';
import type { ReminderKind } from '@common/historyRequests';
import { formatDay } from '@common/retention';
import type { DocumentRequestRow, DocumentRequestRemindersTable } from '../../db/schemaRequests';
import { newId } from '../../ids';
import {
  claimExpiry,
  claimReminder,
  dueReminders,
  findItem,
  findRecipient,
  findRequestById,
  firmNameOf,
  insertReminders,
  itemsOf,
  recipientsOf,
  releaseReminder,
  skipReminder,
  unrecordedExpiries,
} from '../../repositories/documentRequests';
import { findFolder } from '../../repositories/folders';
import type { Executor } from '../../repositories/types';
import type { Insertable } from 'kysely';
import type { RequestContext, Services } from '../context';
import { instanceName, runLeasedJob } from '../jobLeases';
import { mailerFor } from '../mail';
import { inTransaction } from '../transactions';
import { recordRequestEvent } from './events';
import { dayOf, statusAt } from './presenters';
import { requestUrl } from './tokens';

const DAY_MS = 86_400_000;

/** Sends of one reminder before it is given up. */
export const MAX_ATTEMPTS = 5;

/** Reminders one turn sends at most. */
const BATCH = 200;

/** How often the job runs, in milliseconds. */
const JOB_INTERVAL_MS = 60_000;

/** One reminder row to schedule. */
export type NewReminder = Insertable<DocumentRequestRemindersTable>;

/** Stores reminder rows (a row already scheduled for the same day is kept as it was). */
export function scheduleReminders(db: Executor, rows: NewReminder[]): Promise<void> {
  return insertReminders(db, rows);
}

/**
 * The rows a new request schedules per recipient: 'created' today, 'before_due' its reminder days
 * before the due day (when that is after today), 'due' on the due day.
 * @param recipientIds the recipients' ids; the rows' item_id carries them (one e-mail each)
 */
export function reminderRowsFor(
  request: Pick<DocumentRequestRow, 'id' | 'due_date' | 'reminder_days_before'>,
  now: number,
  recipientIds: string[] = [],
): NewReminder[] {
  const today = dayOf(now);
  const dueMs = Date.parse(`${request.due_date}T00:00:00.000Z`);
  const days: { kind: ReminderKind; on: string }[] = [{ kind: 'created', on: today }];
  if (request.reminder_days_before) {
    const before = dayOf(dueMs - request.reminder_days_before * DAY_MS);
    if (before > today) days.push({ kind: 'before_due', on: before });
  }
  if (request.due_date > today) days.push({ kind: 'due', on: request.due_date });
  return recipientIds.flatMap((recipientId) =>
    days.map(({ kind, on }) => ({
      id: newId(),
      request_id: request.id,
      kind,
      item_id: recipientId,
      send_on: on,
      sent_at: null,
      attempts: 0,
      error: null,
    })),
  );
}

/**
 * One row per recipient for a reminder of `kind` sent today (rejected: about `itemId`; manual:
 * by an advisor). The item_id is `<recipient>:<nonce>[:<item>]`, so each such cause is its own
 * e-mail.
 */
export async function oneOffReminders(
  db: Executor,
  requestId: string,
  kind: 'rejected' | 'manual',
  now: number,
  itemId = '',
): Promise<NewReminder[]> {
  const recipients = await recipientsOf(db, [requestId]);
  const nonce = newId();
  return recipients.map((r) => ({
    id: newId(),
    request_id: requestId,
    kind,
    item_id: [r.id, nonce, itemId].filter(Boolean).join(':'),
    send_on: dayOf(now),
    sent_at: null,
    attempts: 0,
    error: null,
  }));
}

/** What a delivery turn did. */
export interface DeliveryOutcome {
  sent: number;
  skipped: number;
  failed: number;
}

/** The acting context of the job's own events (no user: the product). */
function systemContext(databaseId: string): RequestContext {
  return {
    userId: '',
    userName: PRODUCT_NAME,
    databaseId,
    role: 'admin',
    sessionId: '',
    ip: null,
    userAgent: null,
  };
}

/** The subject and text of a reminder e-mail. */
async function messageFor(
  services: Services,
  request: DocumentRequestRow,
  kind: ReminderKind,
  url: string,
  itemId: string,
): Promise<{ subject: string; text: string }> {
  const firm = (await firmNameOf(services.db, request.database_id)) || PRODUCT_NAME;
  const due = formatDay(request.due_date) || request.due_date;
  const items = await itemsOf(services.db, [request.id]);
  // Still needed: what the client has to send (received items wait for the advisor, not them).
  const open = items.filter((i) => i.state === 'missing' || i.state === 'rejected');
  const list = open.map(
    (i) => `- ${i.name}${i.state === 'rejected' ? ' (please upload again)' : ''}`,
  );
  const lines: string[] = [];
  let subject: string;
  switch (kind) {
    case 'rejected': {
      const item = itemId ? await findItem(services.db, request.id, itemId) : undefined;
      subject = `${firm}: please upload "${item?.name ?? 'a document'}" again`;
      lines.push(
        `${firm} could not accept "${item?.name ?? 'a document'}" of "${request.title}".`,
        item?.reject_reason ? `Reason: ${item.reject_reason}` : '',
      );
      break;
    }
    case 'created':
      subject = `${firm} asks you for documents: ${request.title}`;
      lines.push(`${firm} asks you for documents: ${request.title}.`, request.message);
      break;
    case 'due':
      subject = `Due today: ${request.title}`;
      lines.push(`The documents ${firm} asked for are due today.`);
      break;
    default:
      subject = `Reminder: ${request.title} is due ${due}`;
      lines.push(`A reminder from ${firm}: the documents of "${request.title}" are due ${due}.`);
  }
  lines.push('', list.length > 0 ? `Still needed:\n${list.join('\n')}` : '', '');
  lines.push(`Upload them here (no account needed): ${url}`, `Due: ${due}`);
  return { subject, text: lines.filter((l, i, all) => l !== '' || all[i - 1] !== '').join('\n') };
}

/**
 * Sends the reminders due today or before (of one request, when given): claims each, skips it
 * when its request is no longer open, sends it, records a 'remind' event for every kind but
 * 'created' (the request's own event says it was sent), and gives a failed one back.
 * @param options.actor who the remind events name (an advisor sending by hand), else the product
 */
export async function deliverDueReminders(
  services: Services,
  options: { requestId?: string; actor?: RequestContext; log?: FastifyBaseLogger } = {},
): Promise<DeliveryOutcome> {
  const outcome: DeliveryOutcome = { sent: 0, skipped: 0, failed: 0 };
  const now = services.clock();
  const rows = await dueReminders(services.db, dayOf(now), MAX_ATTEMPTS, BATCH, options.requestId);
  const mailer = mailerFor(services.config);
  for (const reminder of rows) {
    if (
      !(await claimReminder(services.db, reminder.id, new Date(services.clock()).toISOString()))
    ) {
      continue;
    }
    const request = await findRequestById(services.db, reminder.request_id);
    const [recipientId, , itemId = ''] = reminder.item_id.split(':');
    const recipient = recipientId ? await findRecipient(services.db, recipientId) : undefined;
    if (!request || !recipient || statusAt(request, services.clock()) !== 'open') {
      await skipReminder(services.db, reminder.id, 'The request is no longer open.');
      outcome.skipped += 1;
      continue;
    }
    const kind = reminder.kind as ReminderKind;
    const url = requestUrl(services, recipient.token_nonce);
    try {
      const { subject, text } = await messageFor(services, request, kind, url, itemId);
      await mailer.send({ database_id: request.database_id, to: recipient.email, subject, text });
    } catch (error) {
      await releaseReminder(services.db, reminder.id, String((error as Error).message ?? error));
      options.log?.warn({ err: error, reminder: reminder.id }, 'document request e-mail not sent');
      outcome.failed += 1;
      continue;
    }
    outcome.sent += 1;
    if (kind === 'created') continue;
    const folder = await findFolder(services.db, request.database_id, request.folder_id);
    const ctx =
      options.actor && options.actor.databaseId === request.database_id
        ? options.actor
        : systemContext(request.database_id);
    await inTransaction(services, (trx) =>
      recordRequestEvent(trx, services, ctx, 'remind', request, {
        folderName: folder?.name ?? '',
        recipients: [recipient.email],
        reminder: kind,
      }),
    );
  }
  return outcome;
}

/**
 * Records the expiry of open requests whose links ended (once each: a guarded claim), written
 * by the product.
 * @returns how many were recorded
 */
export async function recordExpiries(services: Services): Promise<number> {
  const nowIso = new Date(services.clock()).toISOString();
  let recorded = 0;
  for (const request of await unrecordedExpiries(services.db, nowIso, BATCH)) {
    const folder = await findFolder(services.db, request.database_id, request.folder_id);
    const done = await inTransaction(services, async (trx) => {
      if (!(await claimExpiry(trx, request.id, nowIso))) return false;
      await recordRequestEvent(
        trx,
        services,
        systemContext(request.database_id),
        'expire',
        request,
        {
          folderName: folder?.name ?? '',
        },
      );
      return true;
    });
    if (done) recorded += 1;
  }
  return recorded;
}

/**
 * Starts the periodic job of document requests (every minute, one instance at a time through a
 * job lease): due e-mails, then expiries.
 * @returns a function that stops it
 */
export function startRequestJobs(services: Services, log: FastifyBaseLogger): () => void {
  const holder = instanceName();
  let running = false;
  const turn = async () => {
    if (running) return;
    running = true;
    try {
      await runLeasedJob(services, 'document_requests', holder, JOB_INTERVAL_MS * 2, async () => {
        const delivery = await deliverDueReminders(services, { log });
        const expired = await recordExpiries(services);
        if (delivery.sent + delivery.failed + expired > 0) {
          log.info({ ...delivery, expired }, 'document request job');
        }
        return { cursor: '' };
      });
    } catch (error) {
      log.error({ err: error }, 'document request job failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void turn(), JOB_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
