/** Page-number arithmetic shared by every paged list (pages from 1, DESIGN.md section 3). */

/** The offset and limit of a page. */
export function pageWindow(page: number, pageSize: number): { offset: number; limit: number } {
  return { offset: (page - 1) * pageSize, limit: pageSize };
}
