/**
 * Calls of the search feature (SPEC section 7 "Entities"): autocomplete, search
 * and filtered lists. Every call goes through the one HTTP client, so a failed call throws an
 * ApiError with the server's message.
 */
import {
  SEARCH_PAGE_SIZE,
  type AutocompleteResponse,
  type SearchFilters,
  type SearchRequest,
  type SearchResponse,
} from '@common/search';
import { REST, get, post } from '@src/api/client';

/**
 * GET REST/entities/search/autocomplete?query: at most 10 items matching the query (exact name
 * matches first, then prefixes, then others).
 * @param query the trimmed text of the header box
 * @param signal aborts the call when a newer query replaces it
 */
export function fetchAutocomplete(
  query: string,
  signal?: AbortSignal,
): Promise<AutocompleteResponse> {
  return get<AutocompleteResponse>(`${REST}/entities/search/autocomplete`, {
    query: { query },
    signal,
  });
}

/**
 * POST REST/entities/search?page with `{ filters }` (a query is required) or, without a query,
 * POST REST/entities/filtered?page with the same filters.
 * @param filters the request filters (common/search.ts)
 * @param page page number from 1
 * @returns one page of hits with their paths
 */
export function fetchSearchPage(filters: SearchFilters, page: number): Promise<SearchResponse> {
  const path = filters.query ? `${REST}/entities/search` : `${REST}/entities/filtered`;
  const body: SearchRequest = { filters };
  return post<SearchResponse>(path, body, { query: { page, page_size: SEARCH_PAGE_SIZE } });
}
