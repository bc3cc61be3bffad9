/**
 * The JSON envelopes every API answer shares (DESIGN.md section 3): paged lists and the error body.
 */
/** Every paged list (DESIGN.md section 3). Pages are numbered from 1. */
export interface Page<T> {
  items: T[];
  page: number;
  page_size: number;
  total: number;
}

/** Error body of every non-2xx answer (DESIGN.md section 3). */
export interface ApiErrorBody {
  message: string;
  code: string;
}

/**
 * A paged list with keyset paging: pass `next_cursor` back as `cursor` to read the next page at
 * the cost of the first, whatever its depth; without a cursor page n is read by offset.
 */
export interface CursorPage<T> extends Page<T> {
  next_cursor: string | null;
}
