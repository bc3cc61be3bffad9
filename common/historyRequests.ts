/**
 * The words of document requests' history events, for common/history.ts (which dispatches here
 * and owns the icons, labels and the user's name):
 * - document_request create ("requested documents"), upload (a recipient's file received for an
 *   item; the event's user is the recipient's address), accept, reject (with `reason`), remind
 *   (`reminder`: why it went out), cancel, expire, complete: `request` (id, title), `folder`
 *   (id, name), `item` (id, name), `file` (id, name), `recipients`;
 * - request_template create, update, delete: `template` (id, name).
 * Like the rest of the renderer every field is optional and a wrong type reads as missing.
 */
import { field, quoted, str, unknownWords } from './historyWords';
import { formatDay } from './retention';
import type { HistoryAttributes, HistoryEventDto } from './history';

/** What an event says: the text after the user's name, its context and its icon. */
export interface RequestsDescription {
  text: string;
  context: string;
  icon: 'add' | 'edit' | 'delete' | 'share' | 'info' | 'restore' | 'unlink';
}

/** Why a reminder went out, as History reads it. */
export type ReminderKind = 'created' | 'before_due' | 'due' | 'rejected' | 'manual';

const REMINDER_WORDS: Record<ReminderKind, string> = {
  created: 'request sent',
  before_due: 'due soon',
  due: 'due today',
  rejected: 'a document was rejected',
  manual: 'sent by hand',
};

/** `to a@b.com` or `to 3 recipients` (or ''). */
function recipientWords(recipients: unknown): string {
  const list = Array.isArray(recipients) ? recipients.filter((r) => typeof r === 'string') : [];
  if (list.length === 0) return '';
  return list.length === 1 ? `to ${String(list[0])}` : `to ${list.length} recipients`;
}

function describeRequest(event: HistoryEventDto, attrs: HistoryAttributes): RequestsDescription {
  const title = str(field(attrs.request, 'title'));
  const request = quoted('document request', title);
  const item = str(field(attrs.item, 'name'));
  const itemWords = item ? `"${item}"` : 'a requested item';
  const folder = str(field(attrs.folder, 'name'));
  const inFolder = folder ? `in "${folder}"` : '';
  const file = str(field(attrs.file, 'name'));
  const context = (...parts: string[]) => parts.filter(Boolean).join(', ');
  switch (event.action) {
    case 'create': {
      const due = formatDay(str(field(attrs.request, 'due_date')));
      return {
        text: `sent ${request} ${recipientWords(attrs.recipients)}`.trim(),
        context: context(inFolder, due ? `due ${due}` : ''),
        icon: 'share',
      };
    }
    case 'upload':
      return {
        text: `uploaded ${quoted('file', file)} for ${itemWords}`,
        context: context(title ? request : '', inFolder),
        icon: 'add',
      };
    case 'accept':
      return {
        text: `accepted ${itemWords} of ${request}`,
        context: context(file ? `file "${file}"` : '', inFolder),
        icon: 'edit',
      };
    case 'reject': {
      const reason = str(attrs.reason);
      return {
        text: `rejected ${itemWords} of ${request}`,
        context: context(reason ? `reason: ${reason}` : '', inFolder),
        icon: 'unlink',
      };
    }
    case 'remind': {
      const kind = str(attrs.reminder) as ReminderKind;
      return {
        text: `sent a reminder of ${request} ${recipientWords(attrs.recipients)}`.trim(),
        context: context(REMINDER_WORDS[kind] ?? '', inFolder),
        icon: 'info',
      };
    }
    case 'cancel':
      return { text: `cancelled ${request}`, context: inFolder, icon: 'delete' };
    case 'expire':
      return { text: `recorded that ${request} expired`, context: inFolder, icon: 'info' };
    case 'complete':
      return { text: `completed ${request}`, context: inFolder, icon: 'restore' };
    default:
      return unknown(event);
  }
}

function describeTemplate(event: HistoryEventDto, attrs: HistoryAttributes): RequestsDescription {
  const template = quoted('request template', str(field(attrs.template, 'name')));
  switch (event.action) {
    case 'create':
      return { text: `added ${template}`, context: '', icon: 'add' };
    case 'update':
      return { text: `changed ${template}`, context: '', icon: 'edit' };
    case 'delete':
      return { text: `removed ${template}`, context: '', icon: 'delete' };
    default:
      return unknown(event);
  }
}

function unknown(event: { entity_type: unknown; action: unknown }): RequestsDescription {
  return { text: unknownWords(event), context: '', icon: 'info' };
}

/** The words of a document_request or request_template event (never throws). */
export function describeRequestsEvent(
  event: HistoryEventDto,
  attrs: HistoryAttributes,
): RequestsDescription {
  return event.entity_type === 'request_template'
    ? describeTemplate(event, attrs)
    : describeRequest(event, attrs);
}
