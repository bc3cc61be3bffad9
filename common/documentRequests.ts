/**
 * Document requests (docs/architecture.md "Document requests"): an advisor asks a client for
 * documents with a checklist; the client answers from a link, without an account, by uploading a
 * file per item. The JSON shapes of the request routes, their messages and limits, shared by the
 * client and the server. Field names are snake_case as on the wire; timestamps are ISO 8601 UTC
 * strings; days are `YYYY-MM-DD`; sizes are bytes.
 *
 * Routes (the advisor's need a session; the recipient's are public and carry the link token):
 * - GET  /api/rest/requests?status=open|closed            DocumentRequestListResponse
 * - POST /api/rest/requests                               CreateDocumentRequestResponse (201)
 * - GET  /api/rest/requests/{id}                          DocumentRequestDto
 * - POST /api/rest/requests/{id}/items/{itemId}/accept    DocumentRequestDto
 * - POST /api/rest/requests/{id}/items/{itemId}/reject    DocumentRequestDto (body RejectItemRequest)
 * - POST /api/rest/requests/{id}/remind                   DocumentRequestDto
 * - POST /api/rest/requests/{id}/cancel                   DocumentRequestDto
 * - GET  /api/rest/request_templates                      RequestTemplateListResponse
 * - POST /api/rest/private/request_templates              RequestTemplateDto (admins, 201)
 * - PATCH/DELETE /api/rest/private/request_templates/{id} RequestTemplateDto / 204 (admins)
 * - GET  /api/rest/public/requests/{token}                PublicRequestDto
 * - POST /api/rest/public/requests/{token}/unlock         UnlockRequestResponse (body: password)
 * - POST /api/rest/public/requests/{token}/files/record   PublicRequestDto (body: id, sha256?)
 * - the app's upload steps under /api/rest/public/requests/{token}/files (single create, record,
 *   multipart create, sign parts, list, complete, abort) with `item_id` in place of `folder_id`;
 *   a password-protected request wants the unlock's `access` in the header REQUEST_ACCESS_HEADER.
 */
import type { UploadRestrictions } from './uploads';

/** State of one requested item. */
export type RequestItemState = 'missing' | 'received' | 'accepted' | 'rejected';

/**
 * State of a request: 'open' until every item is accepted ('completed') or an advisor cancels it
 * ('cancelled'); 'expired' is derived once its link's end has passed while open.
 */
export type DocumentRequestStatus = 'open' | 'completed' | 'cancelled' | 'expired';

/** How the screens name each item state. */
export const REQUEST_ITEM_STATE_LABELS: Record<RequestItemState, string> = {
  missing: 'Missing',
  received: 'Received',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

/** How the screens name each request status. */
export const DOCUMENT_REQUEST_STATUS_LABELS: Record<DocumentRequestStatus, string> = {
  open: 'Open',
  completed: 'Completed',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** Most items one request or template may list. */
export const REQUEST_MAX_ITEMS = 50;
/** Most recipients one request may name. */
export const REQUEST_MAX_RECIPIENTS = 20;
/** Longest item name, message, description and rejection reason, in characters. */
export const REQUEST_ITEM_NAME_MAX = 200;
export const REQUEST_MESSAGE_MAX = 2000;
export const REQUEST_DESCRIPTION_MAX = 1000;
export const REQUEST_REASON_MAX = 500;
/** Default days before the due date a reminder goes out. */
export const REQUEST_REMINDER_DAYS_DEFAULT = 3;
/** Days after the due date the request's link keeps working. */
export const REQUEST_LINK_GRACE_DAYS = 30;
/** How long an unlock of a password-protected request lasts, in milliseconds. */
export const REQUEST_ACCESS_TTL_MS = 12 * 3_600_000;
/** The header that carries an unlock's access grant on the recipient's routes. */
export const REQUEST_ACCESS_HEADER = 'x-request-access';

/** The messages of document requests, used by both sides. */
export const REQUEST_MESSAGES = {
  noItems: 'Add at least one requested item.',
  tooManyItems: `A request can list at most ${REQUEST_MAX_ITEMS} items.`,
  itemNameRequired: 'Every requested item needs a name.',
  noRecipients: 'Add at least one recipient.',
  tooManyRecipients: `A request can have at most ${REQUEST_MAX_RECIPIENTS} recipients.`,
  invalidEmail: 'Enter a valid e-mail address.',
  dueDateInvalid: 'The due date must be a day from today on.',
  reasonRequired: 'Say why the document is rejected.',
  notFound: 'This request does not exist or is no longer available.',
  expired: 'This request has expired. Ask your advisor for a new link.',
  cancelled: 'This request was cancelled.',
  completed: 'This request is complete. Thank you!',
  notOpen: 'The request is no longer open.',
  wrongPassword: 'The password is incorrect.',
  locked: 'Too many incorrect passwords. Try again later.',
  passwordRequired: 'Enter the password your advisor gave you.',
  itemAccepted: 'This item is already accepted.',
  nothingToReview: 'There is nothing to review for this item yet.',
  templateNameRequired: 'The template needs a name.',
  templateNameTaken: 'A template of that name exists.',
} as const;

/** One requested item as the advisor writes it (also a template's item). */
export interface RequestItemInput {
  name: string;
  description?: string;
  /** Index values the uploaded files get (ids of the firm's index fields). */
  index_values?: { index_field_id: string; value: string }[];
}

/** Body of POST /api/rest/requests. */
export interface CreateDocumentRequestRequest {
  folder_id: string;
  /** What the client reads as the page's title; default "Documents for <folder name>". */
  title?: string;
  items: RequestItemInput[];
  message?: string;
  /** The day the documents are due (`YYYY-MM-DD`), today or later. */
  due_date: string;
  recipients: string[];
  password?: string;
  /** Put the uploads in a new subfolder named after the request (default false: the folder). */
  subfolder?: boolean;
  /** Days before the due date for the reminder (0 or null: none); default 3. */
  reminder_days_before?: number | null;
  /** The template that filled the checklist, when one did (recorded in History). */
  template_id?: string;
}

/** A file uploaded to an item. */
export interface RequestUploadDto {
  id: string;
  /** The recorded file's id (advisors open it; the recipient never can). */
  file_id: string;
  name: string;
  size: number;
  uploaded_at: string;
  /** The recipient who uploaded it. */
  email: string;
}

/** One item of a request as the advisor sees it. */
export interface RequestItemDto {
  id: string;
  name: string;
  description: string;
  index_values: { index_field_id: string; name: string; value: string }[];
  state: RequestItemState;
  /** Why it was rejected (the client sees it), or null. */
  reject_reason: string | null;
  uploads: RequestUploadDto[];
}

/** One recipient of a request. */
export interface RequestRecipientDto {
  email: string;
  /** When they first opened the link, or null. */
  opened_at: string | null;
}

/** A request as the advisor sees it. */
export interface DocumentRequestDto {
  id: string;
  folder_id: string;
  folder_name: string;
  /** Where the uploads land (the folder, or its request subfolder). */
  target_folder_id: string;
  title: string;
  message: string;
  due_date: string;
  status: DocumentRequestStatus;
  overdue: boolean;
  has_password: boolean;
  reminder_days_before: number | null;
  created_by_name: string;
  created_at: string;
  expires_at: string;
  completed_at: string | null;
  cancelled_at: string | null;
  recipients: RequestRecipientDto[];
  items: RequestItemDto[];
  /** Counts of the items per state. */
  counts: Record<RequestItemState, number>;
}

/** A row of the firm's request list. */
export type DocumentRequestSummaryDto = Omit<DocumentRequestDto, 'items'>;

/** Answer of GET /api/rest/requests: open requests overdue first, then by due date. */
export interface DocumentRequestListResponse {
  items: DocumentRequestSummaryDto[];
}

/** Answer of POST /api/rest/requests (201). */
export interface CreateDocumentRequestResponse {
  request: DocumentRequestDto;
  /** Each recipient's link (answered only here; the e-mails carry them too). */
  links: { email: string; url: string }[];
  /** True when at least one e-mail could not be sent (the request is kept). */
  mail_failed?: boolean;
}

/** Body of POST /api/rest/requests/{id}/items/{itemId}/reject. */
export interface RejectItemRequest {
  reason: string;
}

/** A request template (administrators manage them; members fill a checklist from them). */
export interface RequestTemplateDto {
  id: string;
  name: string;
  message: string;
  items: RequestItemInput[];
  updated_at: string;
}

/** Body of POST and PATCH /api/rest/private/request_templates. */
export interface RequestTemplateInput {
  name: string;
  message?: string;
  items: RequestItemInput[];
}

/** Answer of GET /api/rest/request_templates (by name). */
export interface RequestTemplateListResponse {
  items: RequestTemplateDto[];
}

/** One item on the recipient's page: its state and what this recipient uploaded to it. */
export interface PublicRequestItemDto {
  id: string;
  name: string;
  description: string;
  state: RequestItemState;
  reject_reason: string | null;
  uploads: Omit<RequestUploadDto, 'file_id' | 'email'>[];
}

/**
 * Answer of GET /api/rest/public/requests/{token}. While a password-protected request is not
 * unlocked, `locked` is true and `items` is empty. 404 for an unknown token; 410 with
 * REQUEST_MESSAGES.expired / cancelled for a link that no longer works.
 */
export interface PublicRequestDto {
  firm_name: string;
  title: string;
  message: string;
  due_date: string;
  status: DocumentRequestStatus;
  from_name: string;
  email: string;
  has_password: boolean;
  locked: boolean;
  items: PublicRequestItemDto[];
  restrictions: UploadRestrictions;
}

/** Answer of POST /api/rest/public/requests/{token}/unlock. */
export interface UnlockRequestResponse {
  /** The access grant to send in REQUEST_ACCESS_HEADER (valid REQUEST_ACCESS_TTL_MS). */
  access: string;
  expires_at: string;
}

/**
 * The create-upload bodies of the recipient's routes: the app's (common/uploads.ts) with the item
 * in place of the folder.
 */
export interface RequestUploadStart {
  item_id: string;
  name: string;
  extension: string;
  content_type: string;
  size?: number;
  batch_id?: string;
  client_key?: string;
}

/** The URL path of a request link's page (the client route). */
export const REQUEST_PAGE_PATH = '/r';
