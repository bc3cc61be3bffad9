/**
 * History events of document requests (common/historyRequests.ts renders them). Each is written
 * in the transaction of its change; `item_id` is the request's folder, so the folder's own history
 * shows its requests and the session's folder visibility applies to them.
 *
 * Shape: { request: { id, title, due_date }, folder: { id, name }, folder_name, item?: { id, name },
 * file?: { id, name }, file_name?, recipients?, reason? (reject), reminder? (remind),
 * template? (create: the template that filled the checklist) }.
 */
import type { HistoryAction, HistoryAttributes } from '@common/history';
import type { ReminderKind } from '@common/historyRequests';
import type { DocumentRequestRow } from '../../db/schemaRequests';
import type { Executor } from '../../repositories/types';
import type { RequestContext } from '../context';
import { recordEvent } from '../history';
import type { RecordServices } from '../historyEvents';

/** What a request event names besides the request. */
export interface RequestEventDetails {
  folderName: string;
  item?: { id: string; name: string };
  file?: { id: string; name: string };
  recipients?: string[];
  reason?: string;
  reminder?: ReminderKind;
  /** The template that filled the checklist (create). */
  template?: { id: string; name: string };
}

/** Records a document_request event of `action` about `request`. */
export function recordRequestEvent(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  action: Extract<
    HistoryAction,
    'create' | 'upload' | 'accept' | 'reject' | 'remind' | 'cancel' | 'expire' | 'complete'
  >,
  request: Pick<DocumentRequestRow, 'id' | 'title' | 'due_date' | 'folder_id'>,
  details: RequestEventDetails,
): Promise<string> {
  const attributes: HistoryAttributes = {
    request: { id: request.id, title: request.title, due_date: request.due_date },
    folder: { id: request.folder_id, name: details.folderName },
    folder_id: request.folder_id,
    folder_name: details.folderName,
  };
  if (details.item) attributes.item = details.item;
  if (details.file) {
    attributes.file = details.file;
    attributes.file_name = details.file.name;
  }
  if (details.recipients) attributes.recipients = details.recipients;
  if (details.reason !== undefined) attributes.reason = details.reason;
  if (details.reminder) attributes.reminder = details.reminder;
  if (details.template) attributes.template = details.template;
  return recordEvent(trx, services, ctx, {
    entityType: 'document_request',
    entityId: request.id,
    action,
    itemId: request.folder_id,
    attributes,
  });
}

/** Records a request_template create, update or delete. */
export function recordTemplateEvent(
  trx: Executor,
  services: RecordServices,
  ctx: RequestContext,
  action: 'create' | 'update' | 'delete',
  template: { id: string; name: string },
): Promise<string> {
  return recordEvent(trx, services, ctx, {
    entityType: 'request_template',
    entityId: template.id,
    action,
    itemId: null,
    attributes: { name: template.name, template: { id: template.id, name: template.name } },
  });
}
