/**
 * An advisor's document requests (docs/architecture.md "Document requests"): create one for a
 * folder, list the firm's, read one, send a reminder now, cancel. Reviewing items is review.ts;
 * the recipient's side is recipient.ts; the e-mails are reminders.ts.
 *
 * Rules:
 * - A request is made from a folder (never the root) the session may write to; members see the
 *   requests of the folders they may see, administrators all of the firm's.
 * - The checklist has 1 to REQUEST_MAX_ITEMS items with names; their index values name live,
 *   unarchived fields of the firm and are checked as an applied index would be.
 * - Due day: today or later (UTC); the links end REQUEST_LINK_GRACE_DAYS after it.
 * - Recipients: 1 to REQUEST_MAX_RECIPIENTS valid addresses (lowercased, without repeats), each
 *   with a link of their own.
 * - The creation e-mails are reminders of kind 'created' scheduled in the transaction and sent
 *   just after it, so a crash between the two only delays them (the reminder job sends them).
 */
import {
  REQUEST_DESCRIPTION_MAX,
  REQUEST_ITEM_NAME_MAX,
  REQUEST_LINK_GRACE_DAYS,
  REQUEST_MAX_ITEMS,
  REQUEST_MAX_RECIPIENTS,
  REQUEST_MESSAGE_MAX,
  REQUEST_MESSAGES,
  REQUEST_REMINDER_DAYS_DEFAULT,
  type CreateDocumentRequestRequest,
  type CreateDocumentRequestResponse,
  type DocumentRequestDto,
  type DocumentRequestListResponse,
  type RequestItemInput,
} from '@common/documentRequests';
import { isValidEmail } from '@common/email';
import { badRequest, conflict, notFound } from '../../errors';
import { isoAt, newId } from '../../ids';
import { hashPassword } from '../../passwords';
import {
  closeRequest,
  findRequest,
  findTemplate,
  insertItems,
  insertRecipients,
  insertRequest,
  listRequests as listRequestRows,
  recipientsOf,
  type RequestWithNames,
} from '../../repositories/documentRequests';
import { findIndexFieldsByIds } from '../../repositories/indexFields';
import type { Executor } from '../../repositories/types';
import { accessibleFolder, folderHidden, visibility } from '../access';
import { assertFieldApplicable, checkedValue } from '../appliedIndexes';
import type { RequestContext, Services } from '../context';
import { createFolder } from '../folders';
import { inTransaction } from '../transactions';
import { recordRequestEvent } from './events';
import { dayOf, presentRequests, summaryOf, type StoredIndexValue } from './presenters';
import {
  deliverDueReminders,
  oneOffReminders,
  reminderRowsFor,
  scheduleReminders,
  type DeliveryOutcome,
} from './reminders';
import { newLinkNonce, requestUrl, tokenHash, linkToken } from './tokens';

const DAY_MS = 86_400_000;

/** Most requests one list answers. */
const LIST_LIMIT = 500;

/** A checklist item as checked and stored. */
export interface CheckedItem {
  name: string;
  description: string;
  index_values: StoredIndexValue[];
}

/**
 * Checks a checklist (a request's or a template's): 1 to REQUEST_MAX_ITEMS items, each named,
 * with index values of live, unarchived fields of the firm and values their type accepts.
 * @throws AppError 400 with REQUEST_MESSAGES (noItems, tooManyItems, itemNameRequired) or an index
 *   message; 404 for a field not of the firm
 */
export async function checkedItems(
  db: Executor,
  databaseId: string,
  items: readonly RequestItemInput[],
): Promise<CheckedItem[]> {
  if (items.length === 0) throw badRequest(REQUEST_MESSAGES.noItems, 'no_items');
  if (items.length > REQUEST_MAX_ITEMS) {
    throw badRequest(REQUEST_MESSAGES.tooManyItems, 'too_many_items');
  }
  const fieldIds = [
    ...new Set(items.flatMap((i) => (i.index_values ?? []).map((v) => v.index_field_id))),
  ];
  const fields = new Map(
    (await findIndexFieldsByIds(db, databaseId, fieldIds))
      .filter((f) => f.deleted_at === null)
      .map((f) => [f.id, f]),
  );
  const checked: CheckedItem[] = [];
  for (const item of items) {
    const name = item.name.trim();
    if (!name || name.length > REQUEST_ITEM_NAME_MAX) {
      throw badRequest(REQUEST_MESSAGES.itemNameRequired, 'item_name_required');
    }
    const values: StoredIndexValue[] = [];
    const seen = new Set<string>();
    for (const pair of item.index_values ?? []) {
      const field = fields.get(pair.index_field_id);
      if (!field) throw notFound();
      if (seen.has(field.id)) continue;
      seen.add(field.id);
      assertFieldApplicable(field);
      values.push({ index_field_id: field.id, value: await checkedValue(db, field, pair.value) });
    }
    checked.push({
      name,
      description: (item.description ?? '').trim().slice(0, REQUEST_DESCRIPTION_MAX),
      index_values: values,
    });
  }
  return checked;
}

/** The recipients' addresses, lowercased and without repeats. @throws AppError 400 */
function checkedRecipients(recipients: readonly string[]): string[] {
  const emails = [...new Set(recipients.map((e) => e.trim().toLowerCase()).filter(Boolean))];
  if (emails.length === 0) throw badRequest(REQUEST_MESSAGES.noRecipients, 'no_recipients');
  if (emails.length > REQUEST_MAX_RECIPIENTS) {
    throw badRequest(REQUEST_MESSAGES.tooManyRecipients, 'too_many_recipients');
  }
  for (const email of emails) {
    if (!isValidEmail(email)) throw badRequest(REQUEST_MESSAGES.invalidEmail, 'invalid_email');
  }
  return emails;
}

/**
 * The request `id` of the firm, visible to the session (its folder is not hidden).
 * @throws AppError 404 otherwise
 */
export async function visibleRequest(
  db: Executor,
  ctx: RequestContext,
  id: string,
): Promise<RequestWithNames> {
  const row = await findRequest(db, ctx.databaseId, id);
  if (!row || (await folderHidden(db, ctx, row.folder_id))) {
    throw notFound(REQUEST_MESSAGES.notFound, 'no_such_request');
  }
  return row;
}

/** The advisor's view of one request. */
export async function presentRequest(
  services: Services,
  databaseId: string,
  row: RequestWithNames,
): Promise<DocumentRequestDto> {
  const [dto] = await presentRequests(services.db, databaseId, [row], services.clock());
  return dto!;
}

/**
 * POST /api/rest/requests: creates a request for a folder, its items and recipients, schedules
 * its e-mails and sends the creation ones.
 * @returns the request, each recipient's link, and whether an e-mail failed (the request stays)
 * @throws AppError 400 (checklist, recipients, due day, root folder), 403 read-only, 404 folder or
 *   index field not visible
 */
export async function createRequest(
  services: Services,
  ctx: RequestContext,
  input: CreateDocumentRequestRequest,
): Promise<CreateDocumentRequestResponse> {
  const folder = await accessibleFolder(services.db, ctx, input.folder_id, 'write');
  if (!folder)
    throw badRequest('A request is made from a folder, not from the root.', 'root_folder');
  const items = await checkedItems(services.db, ctx.databaseId, input.items);
  const emails = checkedRecipients(input.recipients);
  const now = services.clock();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.due_date) || input.due_date < dayOf(now)) {
    throw badRequest(REQUEST_MESSAGES.dueDateInvalid, 'invalid_due_date');
  }
  const dueMs = Date.parse(`${input.due_date}T23:59:59.999Z`);
  if (!Number.isFinite(dueMs))
    throw badRequest(REQUEST_MESSAGES.dueDateInvalid, 'invalid_due_date');
  const title =
    (input.title ?? '').trim().slice(0, REQUEST_ITEM_NAME_MAX) || `Documents for ${folder.name}`;
  const message = (input.message ?? '').trim().slice(0, REQUEST_MESSAGE_MAX);
  const reminderDays =
    input.reminder_days_before === undefined
      ? REQUEST_REMINDER_DAYS_DEFAULT
      : input.reminder_days_before && input.reminder_days_before > 0
        ? Math.min(Math.floor(input.reminder_days_before), 365)
        : null;
  // The template that filled the checklist, recorded with the request (one removed since is not).
  const template = input.template_id
    ? await findTemplate(services.db, ctx.databaseId, input.template_id)
    : undefined;
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const targetFolderId = input.subfolder
    ? (await createFolder(services, ctx, { name: title, parentId: folder.id })).id
    : folder.id;
  const id = newId();
  const at = new Date(now).toISOString();
  const recipients = emails.map((email) => {
    const nonce = newLinkNonce();
    return { id: newId(), email, nonce, hash: tokenHash(linkToken(services, nonce)) };
  });
  const row = {
    id,
    database_id: ctx.databaseId,
    folder_id: folder.id,
    target_folder_id: targetFolderId,
    created_by: ctx.userId,
    title,
    message,
    due_date: input.due_date,
    password_hash: passwordHash,
    failed_password_count: 0,
    locked_until: null,
    reminder_days_before: reminderDays,
    status: 'open',
    created_at: at,
    updated_at: at,
    expires_at: new Date(dueMs + REQUEST_LINK_GRACE_DAYS * DAY_MS).toISOString(),
    completed_at: null,
    cancelled_at: null,
    expired_recorded_at: null,
  };
  await inTransaction(services, async (trx) => {
    await insertRequest(trx, row);
    await insertItems(
      trx,
      items.map((item, position) => ({
        id: newId(),
        request_id: id,
        position,
        name: item.name,
        description: item.description,
        index_values: JSON.stringify(item.index_values),
        state: 'missing',
        reject_reason: null,
        updated_at: at,
      })),
    );
    await insertRecipients(
      trx,
      recipients.map((r) => ({
        id: r.id,
        request_id: id,
        email: r.email,
        token_nonce: r.nonce,
        token_hash: r.hash,
        access_hash: null,
        access_expires_at: null,
        opened_at: null,
      })),
    );
    await scheduleReminders(
      trx,
      reminderRowsFor(
        row,
        now,
        recipients.map((r) => r.id),
      ),
    );
    await recordRequestEvent(trx, services, ctx, 'create', row, {
      folderName: folder.name,
      recipients: emails,
      ...(template ? { template: { id: template.id, name: template.name } } : {}),
    });
  });
  const delivery = await deliverDueReminders(services, { requestId: id });
  const created = await visibleRequest(services.db, ctx, id);
  return {
    request: await presentRequest(services, ctx.databaseId, created),
    links: recipients.map((r) => ({ email: r.email, url: requestUrl(services, r.nonce) })),
    ...(delivery.failed > 0 ? { mail_failed: true } : {}),
  };
}

/**
 * GET /api/rest/requests: the firm's requests whose folders the session may see — open ones
 * overdue first, then by due day; or the closed ones (completed, cancelled, expired), newest
 * first.
 */
export async function listRequests(
  services: Services,
  ctx: RequestContext,
  which: 'open' | 'closed',
): Promise<DocumentRequestListResponse> {
  const { folderVisible } = await visibility(services.db, ctx);
  const now = services.clock();
  const rows = [
    ...(await listRequestRows(services.db, ctx.databaseId, 'open', folderVisible, LIST_LIMIT)),
    ...(which === 'closed'
      ? await listRequestRows(services.db, ctx.databaseId, 'closed', folderVisible, LIST_LIMIT)
      : []),
  ];
  const dtos = (await presentRequests(services.db, ctx.databaseId, rows, now)).filter((dto) =>
    which === 'open' ? dto.status === 'open' : dto.status !== 'open',
  );
  // Open requests arrive by due day, so the overdue ones (the earliest days) already lead.
  return { items: dtos.map(summaryOf) };
}

/** GET /api/rest/requests/{id}. @throws AppError 404 */
export async function getRequest(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<DocumentRequestDto> {
  return presentRequest(services, ctx.databaseId, await visibleRequest(services.db, ctx, id));
}

/**
 * The request `id` for a change by the session: visible, the session may write, and open (not
 * completed, cancelled or expired).
 * @throws AppError 404, 403 read-only, 409 'request_not_open'
 */
export async function openRequestFor(
  db: Executor,
  ctx: RequestContext,
  id: string,
  now: number,
): Promise<RequestWithNames> {
  const row = await visibleRequest(db, ctx, id);
  await accessibleFolder(db, ctx, row.folder_id, 'write', { allowArchived: true });
  if (row.status !== 'open' || Date.parse(row.expires_at) <= now) {
    throw conflict(REQUEST_MESSAGES.notOpen, 'request_not_open');
  }
  return row;
}

/**
 * POST /api/rest/requests/{id}/remind: e-mails every recipient a reminder now (recorded in
 * History once sent).
 * @throws AppError as openRequestFor
 */
export async function remindNow(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<DocumentRequestDto & { mail_failed?: boolean }> {
  const row = await openRequestFor(services.db, ctx, id, services.clock());
  await scheduleReminders(
    services.db,
    await oneOffReminders(services.db, row.id, 'manual', services.clock()),
  );
  const delivery: DeliveryOutcome = await deliverDueReminders(services, {
    requestId: row.id,
    actor: ctx,
  });
  const dto = await presentRequest(
    services,
    ctx.databaseId,
    await visibleRequest(services.db, ctx, id),
  );
  return delivery.failed > 0 ? { ...dto, mail_failed: true } : dto;
}

/**
 * POST /api/rest/requests/{id}/cancel: the links stop working at once; no e-mail goes out any
 * more. Recorded in History.
 * @throws AppError as openRequestFor
 */
export async function cancelRequest(
  services: Services,
  ctx: RequestContext,
  id: string,
): Promise<DocumentRequestDto> {
  const row = await openRequestFor(services.db, ctx, id, services.clock());
  await inTransaction(services, async (trx) => {
    if (!(await closeRequest(trx, row.id, 'cancelled', isoAt(services.clock)))) {
      throw conflict(REQUEST_MESSAGES.notOpen, 'request_not_open');
    }
    await recordRequestEvent(trx, services, ctx, 'cancel', row, { folderName: row.folder_name });
  });
  return presentRequest(services, ctx.databaseId, await visibleRequest(services.db, ctx, id));
}

/** The addresses of a request's recipients. */
export async function recipientEmails(db: Executor, requestId: string): Promise<string[]> {
  return (await recipientsOf(db, [requestId])).map((r) => r.email);
}
