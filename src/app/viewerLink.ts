/**
 * The address of the in-app viewer (docs/architecture.md "Client"): any page opens it by adding
 * `view=file:<id>` and optionally `page=<n>` (1-based) to its own query, so a reload keeps it,
 * Back closes it, and a link can name a page of a document (a search hit). The viewer mounted in
 * the app layout reads nothing else.
 */

/** The parameter naming the file open in the viewer: `file:<id>`. */
export const VIEWER_PARAM = 'view';

/** The parameter naming the page shown (1-based); absent means the first. */
export const VIEWER_PAGE_PARAM = 'page';

/** The largest page number an address may name (anything above is read as absent). */
const MAX_PAGE = 1_000_000;

/** Ids as the server issues them (UUIDs) and as tests name them; anything else is ignored. */
const ID_PATTERN = /^[0-9A-Za-z-]{1,64}$/;

/** What the address asks the viewer to show. */
export interface ViewerTarget {
  fileId: string;
  /** The page asked for (1-based), or null for none (the first). */
  page: number | null;
}

/**
 * The query of a link opening a file in the viewer: the page's own query `params` (kept, so the
 * page under the viewer stays as it is) with `view=file:<fileId>` and `page=<page>` set; without
 * a page any page named before is dropped (the viewer starts at the first).
 * @param params the current query (not changed)
 * @param fileId the file's id
 * @param page the page to show, from 1; absent (or not a whole number ≥ 1): no page parameter
 * @returns the new query without '?', e.g. for react-router `<Link to={{ search }}>`
 */
export function viewerSearch(params: URLSearchParams, fileId: string, page?: number): string {
  const next = new URLSearchParams(params);
  next.set(VIEWER_PARAM, `file:${fileId}`);
  if (page !== undefined && Number.isInteger(page) && page >= 1 && page <= MAX_PAGE) {
    next.set(VIEWER_PAGE_PARAM, String(page));
  } else next.delete(VIEWER_PAGE_PARAM);
  return next.toString();
}

/**
 * The query without the viewer's parameters (closing it).
 * @param params the current query (not changed)
 */
export function withoutViewerParams(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(VIEWER_PARAM);
  next.delete(VIEWER_PAGE_PARAM);
  return next;
}

/**
 * Reads the viewer's parameters.
 * @returns the file and page asked for, or null when `view` is absent or malformed (never throws:
 *   the address is anybody's to type); a malformed `page` reads as null
 */
export function parseViewerParams(params: URLSearchParams): ViewerTarget | null {
  const view = params.get(VIEWER_PARAM);
  if (!view?.startsWith('file:')) return null;
  const fileId = view.slice('file:'.length);
  if (!ID_PATTERN.test(fileId)) return null;
  const pageText = params.get(VIEWER_PAGE_PARAM);
  const page = pageText && /^\d{1,7}$/.test(pageText) ? Number(pageText) : NaN;
  return { fileId, page: page >= 1 && page <= MAX_PAGE ? page : null };
}
