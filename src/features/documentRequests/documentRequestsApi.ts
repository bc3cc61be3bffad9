/**
 * Calls of the advisor's side of document requests (common/documentRequests.ts): the firm's
 * requests, one request and its review actions, creating a request, and the request templates.
 * Every call goes through the one HTTP client, so a failed call throws an ApiError carrying the
 * server's message (REQUEST_MESSAGES, shown as they come).
 */
import type {
  CreateDocumentRequestRequest,
  CreateDocumentRequestResponse,
  DocumentRequestDto,
  DocumentRequestListResponse,
  DocumentRequestSummaryDto,
  RejectItemRequest,
  RequestTemplateDto,
  RequestTemplateInput,
  RequestTemplateListResponse,
} from '@common/documentRequests';
import type { FolderContactDto } from '@common/contacts';
import type { IndexFieldDto } from '@common/indexFields';
import { get, post, request, REST } from '@src/api/client';
import { fetchFolderContacts } from '../contacts/contactsApi';
import { fetchIndexFields } from '../indexFields/indexFieldsApi';

const REQUESTS = `${REST}/requests`;
const TEMPLATES = `${REST}/request_templates`;
const PRIVATE_TEMPLATES = `${REST}/private/request_templates`;
const id = (value: string) => encodeURIComponent(value);

/** Which requests the list shows: the open ones, or the completed, cancelled and expired ones. */
export type RequestListTab = 'open' | 'closed';

/** GET REST/requests?status: the firm's requests of one tab (open ones overdue first). */
export async function fetchRequests(tab: RequestListTab): Promise<DocumentRequestSummaryDto[]> {
  const answer = await get<DocumentRequestListResponse>(REQUESTS, { query: { status: tab } });
  return answer.items;
}

/** GET REST/requests/{id}: one request with its items. */
export function fetchRequest(requestId: string): Promise<DocumentRequestDto> {
  return get<DocumentRequestDto>(`${REQUESTS}/${id(requestId)}`);
}

/** POST REST/requests: the created request, each recipient's link, and whether mail failed. */
export function createRequest(
  body: CreateDocumentRequestRequest,
): Promise<CreateDocumentRequestResponse> {
  return post<CreateDocumentRequestResponse>(REQUESTS, body);
}

/** POST REST/requests/{id}/items/{itemId}/accept: the whole request, refreshed. */
export function acceptItem(requestId: string, itemId: string): Promise<DocumentRequestDto> {
  return post<DocumentRequestDto>(`${REQUESTS}/${id(requestId)}/items/${id(itemId)}/accept`);
}

/** POST REST/requests/{id}/items/{itemId}/reject with the reason: the whole request, refreshed. */
export function rejectItem(
  requestId: string,
  itemId: string,
  reason: string,
): Promise<DocumentRequestDto> {
  const body: RejectItemRequest = { reason };
  return post<DocumentRequestDto>(`${REQUESTS}/${id(requestId)}/items/${id(itemId)}/reject`, body);
}

/** POST REST/requests/{id}/remind: the request after the reminder went out. */
export function remindRequest(requestId: string): Promise<DocumentRequestDto> {
  return post<DocumentRequestDto>(`${REQUESTS}/${id(requestId)}/remind`);
}

/** POST REST/requests/{id}/cancel: the cancelled request. */
export function cancelRequest(requestId: string): Promise<DocumentRequestDto> {
  return post<DocumentRequestDto>(`${REQUESTS}/${id(requestId)}/cancel`);
}

/** GET REST/request_templates: the firm's templates, by name. */
export async function fetchTemplates(): Promise<RequestTemplateDto[]> {
  const answer = await get<RequestTemplateListResponse>(TEMPLATES);
  return answer.items;
}

/** POST REST/private/request_templates (administrators): the created template. */
export function createTemplate(body: RequestTemplateInput): Promise<RequestTemplateDto> {
  return post<RequestTemplateDto>(PRIVATE_TEMPLATES, body);
}

/** PATCH REST/private/request_templates/{id} (administrators): the changed template. */
export function updateTemplate(
  templateId: string,
  body: RequestTemplateInput,
): Promise<RequestTemplateDto> {
  return request<RequestTemplateDto>('PATCH', `${PRIVATE_TEMPLATES}/${id(templateId)}`, { body });
}

/** DELETE REST/private/request_templates/{id} (administrators). */
export async function deleteTemplate(templateId: string): Promise<void> {
  await request<unknown>('DELETE', `${PRIVATE_TEMPLATES}/${id(templateId)}`);
}

/** The firm's index fields (the checklist's index values). */
export function fetchFields(): Promise<IndexFieldDto[]> {
  return fetchIndexFields();
}

/** The folder's linked CRM contacts (their e-mails are offered as recipients). */
export function fetchContacts(folderId: string): Promise<FolderContactDto[]> {
  return fetchFolderContacts(folderId);
}
