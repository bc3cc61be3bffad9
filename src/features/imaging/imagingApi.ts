/** Calls of the document imaging feature (docs/architecture.md "Document imaging"). */
import type { FileRenditionDto, ImagingStatusDto } from '@common/imaging';
import { REST, get, post } from '@src/api/client';

/** GET /api/rest/files/{id}/rendition: where a file's derivation is and what it made. */
export function fetchRendition(fileId: string): Promise<FileRenditionDto> {
  return get<FileRenditionDto>(`${REST}/files/${encodeURIComponent(fileId)}/rendition`);
}

/**
 * GET /api/rest/shared/files/{id}/rendition: the same, for a file a share gives the guest access
 * to.
 */
export function fetchSharedRendition(fileId: string): Promise<FileRenditionDto> {
  return get<FileRenditionDto>(`${REST}/shared/files/${encodeURIComponent(fileId)}/rendition`);
}

/** GET /api/rest/private/imaging/status (administrators): tools, jobs and failures. */
export function fetchImagingStatus(): Promise<ImagingStatusDto> {
  return get<ImagingStatusDto>(`${REST}/private/imaging/status`);
}

/**
 * POST /api/rest/private/imaging/jobs/{id}/retry (administrators): queues a failed job again.
 * @returns the file's derivation state after the retry
 */
export function retryImagingJob(jobId: string): Promise<FileRenditionDto> {
  return post<FileRenditionDto>(`${REST}/private/imaging/jobs/${encodeURIComponent(jobId)}/retry`);
}

/**
 * The address of a file's first-page thumbnail (a PNG of at most 320 px a side).
 * @param shared through the guest's share (GET shared/files/{id}/thumbnail) rather than the firm
 */
export function thumbnailUrl(fileId: string, shared = false): string {
  const base = shared ? `${REST}/shared/files` : `${REST}/files`;
  return `${base}/${encodeURIComponent(fileId)}/thumbnail`;
}
