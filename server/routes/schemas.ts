/** JSON-schema pieces shared by route definitions (validation and the OpenAPI document). */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '@common/constants';
import { formatMessage, MESSAGES } from '@common/messages';
import { badRequest } from '../errors';

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

/** JSON-schema properties of a body's filter keys, by key. */
export type FilterProperties = Readonly<Record<string, object>>;

/**
 * The body schema of a call the spec sends "with filters" (SPEC section 7): the filter keys flat
 * (`{"labels": [...]}`) or inside `filters` (`{"filters": {"labels": [...]}}`), each key checked
 * by its schema in either place. The schema leaves unknown keys in place (Fastify's ajv would drop
 * them where `additionalProperties` is false) so that {@link filtersOfBody} refuses them by name.
 * @param properties the schema of each accepted key
 */
export function filtersBodySchema(properties: FilterProperties) {
  return {
    type: ['object', 'null'],
    properties: { ...properties, filters: { type: ['object', 'null'], properties } },
  } as const;
}

/**
 * The filters of a body checked by {@link filtersBodySchema}: the flat keys and those inside
 * `filters`, as one object.
 * @param body the validated request body (null or absent: no filters)
 * @param properties the accepted keys, as given to filtersBodySchema
 * @param required keys that must be present, flat or inside `filters`
 * @returns the filters as one flat object
 * @throws AppError 400 `validation_error` for an unknown key, a key sent both flat and inside
 *   `filters`, or a missing required key (each message names the key)
 */
export function filtersOfBody<T>(
  body: unknown,
  properties: FilterProperties,
  required: readonly string[] = [],
): T {
  const { filters, ...flat } = (body ?? {}) as Record<string, unknown>;
  const nested = (filters ?? {}) as Record<string, unknown>;
  const known = Object.keys(properties);
  for (const [where, part] of [
    ['body', flat],
    ['body/filters', nested],
  ] as const) {
    const unknown = Object.keys(part).find((key) => !Object.hasOwn(properties, key));
    if (unknown !== undefined) {
      throw badRequest(
        formatMessage(MESSAGES.unknownFilter, { where, key: unknown, known: known.join(', ') }),
        'validation_error',
      );
    }
  }
  const twice = Object.keys(nested).find((key) => Object.hasOwn(flat, key));
  if (twice !== undefined) {
    throw badRequest(formatMessage(MESSAGES.filterSentTwice, { key: twice }), 'validation_error');
  }
  const merged = { ...flat, ...nested };
  const missing = required.find((key) => merged[key] === undefined);
  if (missing !== undefined) {
    throw badRequest(formatMessage(MESSAGES.filterRequired, { key: missing }), 'validation_error');
  }
  return merged as T;
}
