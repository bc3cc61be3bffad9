/** JSON-schema pieces shared by route definitions (validation and the OpenAPI document). */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '../../common/constants';

/** `page` (from 1, at most MAX_PAGE_NUMBER) and `page_size` query parameters. */
export const pagingQuery = {
  page: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NUMBER, default: 1 },
  page_size: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
} as const;

/** An id path parameter. */
export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

/** Typed shape of the paging query after defaults. */
export interface PagingQuery {
  page: number;
  page_size: number;
}
