/**
 * Document requests' rows (migration 0029_document_requests): templates, requests, their items,
 * recipients, uploads and reminders. Every read of a request is scoped to its firm database; the
 * state changes that must happen once (an item's review, completion, a password lock, a
 * reminder's claim) are single guarded updates, so concurrent calls on several instances agree.
 */
import { sql, type Insertable, type Updateable } from 'kysely';
import type {
  DocumentRequestItemRow,
  DocumentRequestItemsTable,
  DocumentRequestRecipientRow,
  DocumentRequestRecipientsTable,
  DocumentRequestReminderRow,
  DocumentRequestRemindersTable,
  DocumentRequestRow,
  DocumentRequestsTable,
  DocumentRequestUploadsTable,
  RequestTemplateRow,
  RequestTemplatesTable,
} from '../db/schemaRequests';
import type { FolderFilter } from './permissions';
import type { Executor } from './types';

// ---- templates ----------------------------------------------------------------------------------

/** The firm's templates by name. */
export function listTemplates(db: Executor, databaseId: string): Promise<RequestTemplateRow[]> {
  return db
    .selectFrom('request_templates')
    .selectAll()
    .where('database_id', '=', databaseId)
    .orderBy('name_key')
    .execute();
}

/** A template of the firm, or undefined. */
export function findTemplate(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<RequestTemplateRow | undefined> {
  return db
    .selectFrom('request_templates')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The firm's template of a name key (another than `exceptId`), or undefined. */
export function findTemplateByName(
  db: Executor,
  databaseId: string,
  nameKey: string,
  exceptId = '',
): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('request_templates')
    .select('id')
    .where('database_id', '=', databaseId)
    .where('name_key', '=', nameKey)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
}

/** Inserts a template. */
export async function insertTemplate(
  db: Executor,
  row: Insertable<RequestTemplatesTable>,
): Promise<void> {
  await db.insertInto('request_templates').values(row).execute();
}

/** Changes a template of the firm. */
export async function updateTemplate(
  db: Executor,
  databaseId: string,
  id: string,
  patch: Updateable<RequestTemplatesTable>,
): Promise<void> {
  await db
    .updateTable('request_templates')
    .set(patch)
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

/** Deletes a template of the firm. */
export async function deleteTemplate(db: Executor, databaseId: string, id: string): Promise<void> {
  await db
    .deleteFrom('request_templates')
    .where('database_id', '=', databaseId)
    .where('id', '=', id)
    .execute();
}

// ---- requests -----------------------------------------------------------------------------------

/** A request row with its folder's and creator's names. */
export type RequestWithNames = DocumentRequestRow & {
  folder_name: string;
  creator_first_name: string;
  creator_last_name: string;
};

function requestsQuery(db: Executor, databaseId: string) {
  return db
    .selectFrom('document_requests')
    .innerJoin('users', 'users.id', 'document_requests.created_by')
    .leftJoin('folders', (join) =>
      join
        .onRef('folders.id', '=', 'document_requests.folder_id')
        .on('folders.database_id', '=', databaseId),
    )
    .selectAll('document_requests')
    .select([
      sql<string>`coalesce(folders.name, '')`.as('folder_name'),
      'users.first_name as creator_first_name',
      'users.last_name as creator_last_name',
    ])
    .where('document_requests.database_id', '=', databaseId);
}

/** Inserts a request. */
export async function insertRequest(
  db: Executor,
  row: Insertable<DocumentRequestsTable>,
): Promise<void> {
  await db.insertInto('document_requests').values(row).execute();
}

/** A request of the firm with its names, or undefined. */
export function findRequest(
  db: Executor,
  databaseId: string,
  id: string,
): Promise<RequestWithNames | undefined> {
  return requestsQuery(db, databaseId).where('document_requests.id', '=', id).executeTakeFirst();
}

/**
 * The firm's requests whose folder the session may see: open ones (`open`) by due day, or the
 * closed ones (completed, cancelled) newest first; at most `limit`.
 */
export function listRequests(
  db: Executor,
  databaseId: string,
  which: 'open' | 'closed',
  folderVisible: FolderFilter,
  limit: number,
): Promise<RequestWithNames[]> {
  let query = requestsQuery(db, databaseId);
  if (folderVisible) query = query.where(folderVisible('document_requests.folder_id'));
  query =
    which === 'open'
      ? query
          .where('document_requests.status', '=', 'open')
          .orderBy('document_requests.due_date')
          .orderBy('document_requests.id')
      : query
          .where('document_requests.status', '!=', 'open')
          .orderBy('document_requests.updated_at', 'desc')
          .orderBy('document_requests.id', 'desc');
  return query.limit(limit).execute();
}

/** Changes a request. */
export async function updateRequest(
  db: Executor,
  id: string,
  patch: Updateable<DocumentRequestsTable>,
): Promise<void> {
  await db.updateTable('document_requests').set(patch).where('id', '=', id).execute();
}

/**
 * Closes an open request (completed or cancelled) in one guarded update.
 * @returns false when it was not open any more (another call closed it)
 */
export async function closeRequest(
  db: Executor,
  id: string,
  status: 'completed' | 'cancelled',
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('document_requests')
    .set({
      status,
      updated_at: at,
      ...(status === 'completed' ? { completed_at: at } : { cancelled_at: at }),
    })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Open requests whose links ended before `now` and whose expiry History has not recorded. */
export function unrecordedExpiries(
  db: Executor,
  now: string,
  limit: number,
): Promise<DocumentRequestRow[]> {
  return db
    .selectFrom('document_requests')
    .selectAll()
    .where('status', '=', 'open')
    .where('expires_at', '<=', now)
    .where('expired_recorded_at', 'is', null)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

/** Marks a request's expiry recorded, once. @returns false when another call did. */
export async function claimExpiry(db: Executor, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('document_requests')
    .set({ expired_recorded_at: at })
    .where('id', '=', id)
    .where('expired_recorded_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// ---- items --------------------------------------------------------------------------------------

/** Inserts a request's items. */
export async function insertItems(
  db: Executor,
  rows: Insertable<DocumentRequestItemsTable>[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto('document_request_items').values(rows).execute();
}

/** The items of requests, in position order. */
export function itemsOf(db: Executor, requestIds: string[]): Promise<DocumentRequestItemRow[]> {
  if (requestIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('document_request_items')
    .selectAll()
    .where('request_id', 'in', requestIds)
    .orderBy('request_id')
    .orderBy('position')
    .execute();
}

/** One item of a request, or undefined. */
export function findItem(
  db: Executor,
  requestId: string,
  itemId: string,
): Promise<DocumentRequestItemRow | undefined> {
  return db
    .selectFrom('document_request_items')
    .selectAll()
    .where('request_id', '=', requestId)
    .where('id', '=', itemId)
    .executeTakeFirst();
}

/**
 * Moves an item to `state` only from one of `from`, in one guarded update.
 * @returns false when the item was in another state (a concurrent review, an accepted item)
 */
export async function moveItem(
  db: Executor,
  itemId: string,
  from: readonly string[],
  state: string,
  rejectReason: string | null,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('document_request_items')
    .set({ state, reject_reason: rejectReason, updated_at: at })
    .where('id', '=', itemId)
    .where('state', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** How many of a request's items are not accepted. */
export async function countUnaccepted(db: Executor, requestId: string): Promise<number> {
  const row = await db
    .selectFrom('document_request_items')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('request_id', '=', requestId)
    .where('state', '!=', 'accepted')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- recipients ---------------------------------------------------------------------------------

/** Inserts a request's recipients. */
export async function insertRecipients(
  db: Executor,
  rows: Insertable<DocumentRequestRecipientsTable>[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto('document_request_recipients').values(rows).execute();
}

/** The recipients of requests, by address. */
export function recipientsOf(
  db: Executor,
  requestIds: string[],
): Promise<DocumentRequestRecipientRow[]> {
  if (requestIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('document_request_recipients')
    .selectAll()
    .where('request_id', 'in', requestIds)
    .orderBy('request_id')
    .orderBy('email')
    .execute();
}

/** The recipient whose link token hashes to `hash`, or undefined. */
export function findRecipientByTokenHash(
  db: Executor,
  hash: string,
): Promise<DocumentRequestRecipientRow | undefined> {
  return db
    .selectFrom('document_request_recipients')
    .selectAll()
    .where('token_hash', '=', hash)
    .executeTakeFirst();
}

/** Changes a recipient. */
export async function updateRecipient(
  db: Executor,
  id: string,
  patch: Updateable<DocumentRequestRecipientsTable>,
): Promise<void> {
  await db.updateTable('document_request_recipients').set(patch).where('id', '=', id).execute();
}

// ---- uploads ------------------------------------------------------------------------------------

/** Notes an upload started through a recipient's link (ignored when already noted). */
export async function insertRequestUpload(
  db: Executor,
  row: Insertable<DocumentRequestUploadsTable>,
): Promise<void> {
  await db
    .insertInto('document_request_uploads')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** The upload `id` if the recipient started it through their link, or undefined. */
export function findRecipientUpload(
  db: Executor,
  recipientId: string,
  id: string,
): Promise<{ id: string; item_id: string; recorded_at: string | null } | undefined> {
  return db
    .selectFrom('document_request_uploads')
    .select(['id', 'item_id', 'recorded_at'])
    .where('recipient_id', '=', recipientId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Marks an upload recorded, once. @returns false when it already was. */
export async function markUploadRecorded(db: Executor, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('document_request_uploads')
    .set({ recorded_at: at })
    .where('id', '=', id)
    .where('recorded_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A recorded upload of a request with its file and recipient. */
export interface RecordedUploadRow {
  id: string;
  item_id: string;
  recipient_id: string;
  email: string;
  /** The file's name in the folder now. */
  name: string;
  /** The name the recipient gave. */
  uploaded_name: string;
  size: number | string;
  recorded_at: string;
}

/** The recorded uploads of requests whose files still exist, oldest first. */
export function recordedUploadsOf(
  db: Executor,
  requestIds: string[],
): Promise<RecordedUploadRow[]> {
  if (requestIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('document_request_uploads as u')
    .innerJoin('files', 'files.id', 'u.id')
    .innerJoin('document_request_recipients as r', 'r.id', 'u.recipient_id')
    .select([
      'u.id',
      'u.item_id',
      'u.recipient_id',
      'r.email',
      'files.name',
      'u.name as uploaded_name',
      'files.size',
      sql<string>`u.recorded_at`.as('recorded_at'),
    ])
    .where('u.request_id', 'in', requestIds)
    .where('u.recorded_at', 'is not', null)
    .where('files.status', '=', 'ready')
    .orderBy('u.recorded_at')
    .execute();
}

// ---- reminders ----------------------------------------------------------------------------------

/** Schedules reminders (one per request, kind, item and day: a second is ignored). */
export async function insertReminders(
  db: Executor,
  rows: Insertable<DocumentRequestRemindersTable>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('document_request_reminders')
    .values(rows)
    .onConflict((oc) => oc.columns(['request_id', 'kind', 'item_id', 'send_on']).doNothing())
    .execute();
}

/** Unsent reminders due on or before `today` (of one request, when given), oldest first. */
export function dueReminders(
  db: Executor,
  today: string,
  maxAttempts: number,
  limit: number,
  requestId?: string,
): Promise<DocumentRequestReminderRow[]> {
  let query = db
    .selectFrom('document_request_reminders')
    .selectAll()
    .where('sent_at', 'is', null)
    .where('send_on', '<=', today)
    .where('attempts', '<', maxAttempts);
  if (requestId) query = query.where('request_id', '=', requestId);
  return query.orderBy('send_on').orderBy('id').limit(limit).execute();
}

/** Claims an unsent reminder for sending, once. @returns false when another sender has it. */
export async function claimReminder(db: Executor, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('document_request_reminders')
    .set({ sent_at: at, attempts: sql<number>`attempts + 1` })
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives a claimed reminder back after a failed send, keeping why. */
export async function releaseReminder(db: Executor, id: string, error: string): Promise<void> {
  await db
    .updateTable('document_request_reminders')
    .set({ sent_at: null, error })
    .where('id', '=', id)
    .execute();
}

/** Marks a claimed reminder as not sent, with why (the request closed before it was due). */
export async function skipReminder(db: Executor, id: string, why: string): Promise<void> {
  await db
    .updateTable('document_request_reminders')
    .set({ error: why })
    .where('id', '=', id)
    .execute();
}

/** The firm's name, or '' when it is gone. */
export async function firmNameOf(db: Executor, databaseId: string): Promise<string> {
  const row = await db
    .selectFrom('databases')
    .select('name')
    .where('id', '=', databaseId)
    .executeTakeFirst();
  return row?.name ?? '';
}

/** A request by id alone (the reminder job's read; the firm comes from the row). */
export function findRequestById(db: Executor, id: string): Promise<DocumentRequestRow | undefined> {
  return db.selectFrom('document_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A recipient by id, or undefined. */
export function findRecipient(
  db: Executor,
  id: string,
): Promise<DocumentRequestRecipientRow | undefined> {
  return db
    .selectFrom('document_request_recipients')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}
