/** The tables of document requests (migration 0029_document_requests). */
import type { Selectable } from 'kysely';

/** A firm's named checklist, filled into a new request (administrators manage them). */
export interface RequestTemplatesTable {
  id: string;
  database_id: string;
  name: string;
  /** nameKey(name): one template per name in a firm, whatever the case. */
  name_key: string;
  message: string;
  /** JSON text of RequestItemInput[] (common/documentRequests.ts). */
  items: string;
  created_at: string;
  updated_at: string;
}

/** One request for documents of a folder. */
export interface DocumentRequestsTable {
  id: string;
  database_id: string;
  /** The folder the request was made from (its checklist's owner). */
  folder_id: string;
  /** Where the uploads land: the folder, or a subfolder made for the request. */
  target_folder_id: string;
  created_by: string;
  title: string;
  message: string;
  /** `YYYY-MM-DD`. */
  due_date: string;
  /** scrypt hash (server/passwords.ts), or null without a password. */
  password_hash: string | null;
  failed_password_count: number;
  locked_until: string | null;
  /** Days before the due day for the reminder; null for none. */
  reminder_days_before: number | null;
  /** 'open' | 'completed' | 'cancelled' ('expired' is derived from expires_at). */
  status: string;
  created_at: string;
  updated_at: string;
  /** When the links stop working: the due day plus REQUEST_LINK_GRACE_DAYS. */
  expires_at: string;
  completed_at: string | null;
  cancelled_at: string | null;
  /** When the expiry's history event was written (once). */
  expired_recorded_at: string | null;
}

/** One requested item. */
export interface DocumentRequestItemsTable {
  id: string;
  request_id: string;
  position: number;
  name: string;
  description: string;
  /** JSON text of { index_field_id, value }[]. */
  index_values: string;
  /** RequestItemState. */
  state: string;
  reject_reason: string | null;
  updated_at: string;
}

/** One recipient of a request, with their own link. */
export interface DocumentRequestRecipientsTable {
  id: string;
  request_id: string;
  /** Lowercased address. */
  email: string;
  /** Random nonce the link's token is derived from (with the server's secret). */
  token_nonce: string;
  /** sha256 (hex) of the link's token. */
  token_hash: string;
  /** sha256 (hex) of the unlock grant of a password-protected request, or null. */
  access_hash: string | null;
  access_expires_at: string | null;
  opened_at: string | null;
}

/** An upload started through a recipient's link; `id` is the pending upload's (the file's) id. */
export interface DocumentRequestUploadsTable {
  id: string;
  request_id: string;
  item_id: string;
  recipient_id: string;
  /** The file name the recipient gave (the recorded file may be named otherwise). */
  name: string;
  created_at: string;
  recorded_at: string | null;
}

/** One reminder e-mail due (kind 'created' | 'before_due' | 'due' | 'rejected'). */
export interface DocumentRequestRemindersTable {
  id: string;
  request_id: string;
  kind: string;
  /** The rejected item's id and a nonce for 'rejected'; '' otherwise. */
  item_id: string;
  /** The day it is due, `YYYY-MM-DD`. */
  send_on: string;
  /** When a sender claimed it (sent, or skipped because the request closed). */
  sent_at: string | null;
  attempts: number;
  error: string | null;
}

export type RequestTemplateRow = Selectable<RequestTemplatesTable>;
export type DocumentRequestRow = Selectable<DocumentRequestsTable>;
export type DocumentRequestItemRow = Selectable<DocumentRequestItemsTable>;
export type DocumentRequestRecipientRow = Selectable<DocumentRequestRecipientsTable>;
export type DocumentRequestUploadRow = Selectable<DocumentRequestUploadsTable>;
export type DocumentRequestReminderRow = Selectable<DocumentRequestRemindersTable>;

/** The tables of document requests, merged into DB (schema.ts). */
export interface RequestTables {
  request_templates: RequestTemplatesTable;
  document_requests: DocumentRequestsTable;
  document_request_items: DocumentRequestItemsTable;
  document_request_recipients: DocumentRequestRecipientsTable;
  document_request_uploads: DocumentRequestUploadsTable;
  document_request_reminders: DocumentRequestRemindersTable;
}
