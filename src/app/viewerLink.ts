/**
 * Deep links to the in-app document viewer: the viewer is mounted once in the app layout and
 * opens the file the page's address names as `?view=file:<id>` (and `&page=<n>`, a page from 1),
 * over whatever page the address shows. A link to it therefore keeps the current address and only
 * adds these parameters, so closing the viewer (dropping them) returns to the same page.
 */

/** The parameter naming the file open in the viewer, as `file:<id>`. */
export const VIEWER_PARAM = 'view';

/** The parameter naming the page the viewer shows, from 1. */
export const VIEWER_PAGE_PARAM = 'page';

/**
 * The query of the current address with the viewer opened on a file (and a page).
 * @param params the current address's query (left unchanged)
 * @param fileId the file to show
 * @param page the page to show, from 1; absent (or not a whole number ≥ 1): no page parameter
 * @returns the new query without '?', e.g. for react-router `<Link to={{ search }}>`
 */
export function viewerSearch(params: URLSearchParams, fileId: string, page?: number): string {
  const next = new URLSearchParams(params);
  next.set(VIEWER_PARAM, `file:${fileId}`);
  if (page !== undefined && Number.isInteger(page) && page >= 1) {
    next.set(VIEWER_PAGE_PARAM, String(page));
  } else {
    next.delete(VIEWER_PAGE_PARAM);
  }
  return next.toString();
}
