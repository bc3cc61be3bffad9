/**
 * The viewer's calls: the file (name, type, folder), its folder's path, and where document
 * imaging is with its PDF rendition (through the firm's routes, or a guest's share). The bytes themselves are read by pdf.js, `<img>`, `<video>`
 * and `<audio>` from the file addresses (entitiesApi.ts `fileUrl`, sharingApi.ts `sharedFileUrl`).
 */
import type { FileRenditionDto } from '@common/imaging';
import type { BreadcrumbDto, FileDto } from '@common/entities';
import { REST, get } from '@src/api/client';

/** GET /api/rest/files/{id}: the file as the session may see it. */
export function fetchFile(fileId: string): Promise<FileDto> {
  return get<FileDto>(`${REST}/files/${encodeURIComponent(fileId)}`);
}

/** GET /api/rest/folders/{id}/breadcrumbs: the folders from the top level down to this one. */
export function fetchFolderPath(folderId: string): Promise<BreadcrumbDto[]> {
  return get<BreadcrumbDto[]>(`${REST}/folders/${encodeURIComponent(folderId)}/breadcrumbs`);
}

/** GET /api/rest/files/{id}/rendition: where the file's derivation is, or why it failed. */
export function fetchRendition(fileId: string): Promise<FileRenditionDto> {
  return get<FileRenditionDto>(`${REST}/files/${encodeURIComponent(fileId)}/rendition`);
}

/**
 * GET /api/rest/shared/files/{id}/rendition: the same for a file a guest's share reaches.
 */
export function fetchSharedRendition(fileId: string): Promise<FileRenditionDto> {
  return get<FileRenditionDto>(`${REST}/shared/files/${encodeURIComponent(fileId)}/rendition`);
}

/** What {@link fetchTextHead} read of a text file. */
export interface TextHead {
  text: string;
  /** The file is longer than what was read. */
  truncated: boolean;
}

/** How much of a text file the viewer reads (1 MiB), with one Range request. */
const TEXT_VIEW_BYTES = 1024 * 1024;

/**
 * The beginning of a text file's preview: at most {@link TEXT_VIEW_BYTES}, asked with `Range`
 * (the file routes answer 206 with `Content-Range`, so a large log is not read whole).
 * @param url the preview address
 * @param signal aborts the read when the viewer moves on
 * @throws Error with the server's message when the answer is not 200 or 206
 */
export async function fetchTextHead(url: string, signal: AbortSignal): Promise<TextHead> {
  const response = await fetch(url, {
    credentials: 'include',
    headers: { Range: `bytes=0-${TEXT_VIEW_BYTES - 1}` },
    signal,
  });
  if (response.status !== 200 && response.status !== 206) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `HTTP ${response.status}`);
  }
  const total = /\/(\d+)$/.exec(response.headers.get('Content-Range') ?? '')?.[1];
  const text = new TextDecoder().decode(await response.arrayBuffer());
  return {
    text,
    truncated: response.status === 206 && total !== undefined && Number(total) > TEXT_VIEW_BYTES,
  };
}
