/**
 * Calls of the upload flow: the restrictions, create a pending upload (presigned PUT) or a
 * resumable multipart upload (presigned S3-style steps), record it, or discard it.
 */
import type { FileDto } from '@common/entities';
import type {
  CreateMultipartUploadRequest,
  CreateMultipartUploadResponse,
  CreateUploadRequest,
  CreateUploadResponse,
  PresignedPartDto,
  PresignedRequestDto,
  RecordUploadRequest,
} from '@common/uploads';
import type { UploadRestrictions } from '@common/uploads';
import { REST, get, post, request } from '@src/api/client';

/** GET /api/rest/files/restrictions: the size, count and type rules and the multipart settings. */
export function fetchUploadRestrictions(): Promise<UploadRestrictions> {
  return get<UploadRestrictions>(`${REST}/files/restrictions`);
}

/** POST /api/rest/files: creates a pending upload and answers where to PUT the bytes. */
export function createUpload(body: CreateUploadRequest): Promise<CreateUploadResponse> {
  return post<CreateUploadResponse>(`${REST}/files`, body);
}

/** POST /api/rest/files/record: makes an uploaded file visible once its bytes are stored. */
export function recordUpload(body: RecordUploadRequest): Promise<FileDto> {
  return post<FileDto>(`${REST}/files/record`, body);
}

/** POST /api/rest/files/multipart: creates a pending multipart upload; answers the create step. */
export function createMultipartUpload(
  body: CreateMultipartUploadRequest,
): Promise<CreateMultipartUploadResponse> {
  return post<CreateMultipartUploadResponse>(`${REST}/files/multipart`, body);
}

/** GET /api/rest/files/multipart/{uploadId}/{partNumber}?key: signs the upload of one part. */
export function signUploadPart(
  uploadId: string,
  partNumber: number,
  key: string,
): Promise<PresignedRequestDto> {
  return get<PresignedRequestDto>(
    `${REST}/files/multipart/${encodeURIComponent(uploadId)}/${partNumber}`,
    { query: { key } },
  );
}

/**
 * GET /api/rest/files/multipart/{uploadId}/parts?key&first&count: signs the upload of `count`
 * parts from part `first` at once (those past the end of the file are left out).
 */
export async function signUploadParts(
  uploadId: string,
  key: string,
  first: number,
  count: number,
): Promise<PresignedPartDto[]> {
  const reply = await get<{ parts: PresignedPartDto[] }>(
    `${REST}/files/multipart/${encodeURIComponent(uploadId)}/parts`,
    { query: { key, first, count } },
  );
  return reply.parts;
}

/** GET /api/rest/files/multipart/{uploadId}?key: signs the listing of the stored parts. */
export function signListParts(uploadId: string, key: string): Promise<PresignedRequestDto> {
  return get<PresignedRequestDto>(`${REST}/files/multipart/${encodeURIComponent(uploadId)}`, {
    query: { key },
  });
}

/** POST /api/rest/files/multipart/{uploadId}/complete: signs joining the parts. */
export function signCompleteMultipart(uploadId: string, key: string): Promise<PresignedRequestDto> {
  return post<PresignedRequestDto>(
    `${REST}/files/multipart/${encodeURIComponent(uploadId)}/complete`,
    { key },
  );
}

/** DELETE /api/rest/files/multipart/{uploadId}?key: aborts the upload; answers the store step. */
export function abortMultipartUpload(uploadId: string, key: string): Promise<PresignedRequestDto> {
  return request<PresignedRequestDto>(
    'DELETE',
    `${REST}/files/multipart/${encodeURIComponent(uploadId)}`,
    { query: { key } },
  );
}

/** DELETE /api/rest/files/uploads/{id}: discards a pending upload (its parts and bytes). */
export function discardUpload(id: string): Promise<void> {
  return request<void>('DELETE', `${REST}/files/uploads/${encodeURIComponent(id)}`);
}
