/**
 * Calls of a request link's page (common/documentRequests.ts): read the page, unlock it, and the
 * upload steps under /api/rest/public/requests/{token}/files, which mirror the app's
 * /api/rest/files ones (src/features/uploads/uploadsApi.ts) with `item_id` in place of
 * `folder_id`. Every call carries the link's unlock grant in REQUEST_ACCESS_HEADER when the tab
 * holds one (requestAccess.ts). Same JSON and errors as src/api/client.ts (an ApiError with the
 * reply's `message`), but a 401 is no session's end here: the recipient has no session.
 */
import {
  REQUEST_ACCESS_HEADER,
  type PublicRequestDto,
  type RequestUploadStart,
  type UnlockRequestResponse,
} from '@common/documentRequests';
import { MESSAGES } from '@common/messages';
import type {
  CreateMultipartUploadResponse,
  CreateUploadResponse,
  PresignedPartDto,
  PresignedRequestDto,
  RecordUploadRequest,
  SettledUploadResponse,
} from '@common/uploads';
import { ApiError, REST, buildUrl, type HttpMethod, type Query } from '@src/api/client';
import { readRequestAccess } from './requestAccess';

/** The path of a link's page route. */
export function publicRequestPath(token: string): string {
  return `${REST}/public/requests/${encodeURIComponent(token)}`;
}

/** The path of a multipart upload of a link. */
function multipartPath(token: string, uploadId: string): string {
  return `${publicRequestPath(token)}/files/multipart/${encodeURIComponent(uploadId)}`;
}

/** Reads a JSON reply; undefined for an empty or non-JSON one. */
async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Sends one call of a link with its grant, like src/api/client.ts `request`.
 * @param token the link token (its grant, when kept, goes in REQUEST_ACCESS_HEADER)
 * @throws ApiError with the reply's status, code and `message`, status 0 when no server answered
 */
export async function requestCall<T>(
  token: string,
  method: HttpMethod,
  path: string,
  options: { body?: unknown; query?: Query } = {},
): Promise<T> {
  const url = buildUrl(path, options.query);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const access = readRequestAccess(token);
  if (access) headers[REQUEST_ACCESS_HEADER] = access;
  const init: RequestInit = { method, credentials: 'include', headers };
  if (options.body !== undefined && method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (cause) {
    console.error(`${method} ${url} failed:`, cause);
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw new ApiError(
      0,
      'network_error',
      offline ? MESSAGES.noInternet : 'The server could not be reached. Please try again.',
    );
  }
  const data = await readJson(response);
  if (!response.ok) {
    const body = (typeof data === 'object' && data !== null ? data : {}) as {
      message?: unknown;
      code?: unknown;
    };
    const message =
      typeof body.message === 'string' && body.message !== ''
        ? body.message
        : response.status >= 500
          ? MESSAGES.internalError
          : `The request failed (HTTP ${response.status}).`;
    // Refusals (404, 410, a wrong password…) are answers the page shows; only failures are logged.
    if (response.status >= 500)
      console.error(`${method} ${url} answered ${response.status}: ${message}`);
    throw new ApiError(
      response.status,
      typeof body.code === 'string' ? body.code : 'http_error',
      message,
    );
  }
  return data as T;
}

/** GET /api/rest/public/requests/{token}: the page (items empty while `locked`). */
export function fetchPublicRequest(token: string): Promise<PublicRequestDto> {
  return requestCall<PublicRequestDto>(token, 'GET', publicRequestPath(token));
}

/** POST /api/rest/public/requests/{token}/unlock: trades the password for an access grant. */
export function unlockPublicRequest(
  token: string,
  password: string,
): Promise<UnlockRequestResponse> {
  return requestCall<UnlockRequestResponse>(token, 'POST', `${publicRequestPath(token)}/unlock`, {
    body: { password },
  });
}

/** POST …/files: creates a pending upload; answers the presigned PUT (or a settled upload). */
export function createRequestUpload(
  token: string,
  body: RequestUploadStart,
): Promise<CreateUploadResponse | SettledUploadResponse> {
  return requestCall(token, 'POST', `${publicRequestPath(token)}/files`, { body });
}

/** POST …/files/record: records a stored upload to its item; answers the refreshed page. */
export function recordRequestUpload(
  token: string,
  body: RecordUploadRequest,
): Promise<PublicRequestDto> {
  return requestCall(token, 'POST', `${publicRequestPath(token)}/files/record`, { body });
}

/** POST …/files/multipart: creates a pending multipart upload; answers the create step. */
export function createRequestMultipartUpload(
  token: string,
  body: RequestUploadStart & { size: number },
): Promise<CreateMultipartUploadResponse | SettledUploadResponse> {
  return requestCall(token, 'POST', `${publicRequestPath(token)}/files/multipart`, { body });
}

/** GET …/files/multipart/{uploadId}/parts?key&first&count: signs `count` parts from `first`. */
export async function signRequestUploadParts(
  token: string,
  uploadId: string,
  key: string,
  first: number,
  count: number,
): Promise<PresignedPartDto[]> {
  const reply = await requestCall<{ parts: PresignedPartDto[] }>(
    token,
    'GET',
    `${multipartPath(token, uploadId)}/parts`,
    { query: { key, first, count } },
  );
  return reply.parts;
}

/** GET …/files/multipart/{uploadId}/{partNumber}?key: signs the upload of one part. */
export function signRequestUploadPart(
  token: string,
  uploadId: string,
  partNumber: number,
  key: string,
): Promise<PresignedRequestDto> {
  return requestCall(token, 'GET', `${multipartPath(token, uploadId)}/${partNumber}`, {
    query: { key },
  });
}

/** GET …/files/multipart/{uploadId}?key: signs the listing of the stored parts (a resume). */
export function signRequestListParts(
  token: string,
  uploadId: string,
  key: string,
): Promise<PresignedRequestDto> {
  return requestCall(token, 'GET', multipartPath(token, uploadId), { query: { key } });
}

/** POST …/files/multipart/{uploadId}/complete {key}: signs joining the parts. */
export function signRequestCompleteMultipart(
  token: string,
  uploadId: string,
  key: string,
): Promise<PresignedRequestDto> {
  return requestCall(token, 'POST', `${multipartPath(token, uploadId)}/complete`, {
    body: { key },
  });
}

/** DELETE …/files/multipart/{uploadId}?key: aborts the upload; answers the store step. */
export function abortRequestMultipartUpload(
  token: string,
  uploadId: string,
  key: string,
): Promise<PresignedRequestDto> {
  return requestCall(token, 'DELETE', multipartPath(token, uploadId), { query: { key } });
}
