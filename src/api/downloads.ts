/**
 * Files the browser downloads through a call (so a refusal shows the server's message instead of
 * navigating to it): the reply's bytes with the file name of its Content-Disposition (RFC 6266,
 * `filename*` first), and the hand-off to the browser's download manager.
 */
import { ApiError } from './client';

/** A downloaded file as the browser received it (kept out of the store and actions). */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/** The file name of a Content-Disposition header (filename* first), or `fallback`. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // fall through to the plain name
    }
  }
  const plain =
    /filename\s*=\s*"([^"]*)"/i.exec(disposition) ?? /filename\s*=\s*([^;]+)/i.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

/** How {@link fetchDownload} asks and names. */
export interface DownloadOptions {
  /** The file's name when the reply names none. */
  fallbackName: string;
  /** The start of the message of a refusal without one ("The export failed"). */
  failure?: string;
  /** The request (method, headers, body); the session's cookie is always sent. */
  init?: RequestInit;
}

/**
 * Fetches `url` as a file named by its Content-Disposition, else `fallbackName`.
 * @throws ApiError with the server's message and code on a non-ok reply (`failure` and the HTTP
 *   status when it has none), status 0 on a network failure
 */
export async function fetchDownload(
  url: string,
  { fallbackName, failure = 'The download failed', init = {} }: DownloadOptions,
): Promise<DownloadedFile> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'include', ...init });
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached. Please try again.');
  }
  if (!response.ok) {
    let message = `${failure} (HTTP ${response.status}).`;
    let code = 'http_error';
    try {
      const body = (await response.json()) as { message?: string; code?: string };
      if (body.message) message = body.message;
      if (body.code) code = body.code;
    } catch {
      // not JSON: keep the generic message
    }
    throw new ApiError(response.status, code, message);
  }
  const blob = await response.blob();
  return { blob, fileName: fileNameOf(response.headers.get('Content-Disposition'), fallbackName) };
}

/** Hands a file to the browser's download manager (an object URL and a temporary link). */
export function saveFile(file: DownloadedFile): void {
  const href = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = file.fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
